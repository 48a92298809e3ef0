// Sending failed and dead requests again (POST /requests/{id}/retry, POST /requests/retry): one
// from its page, or every one matching the list's filters. The SDK gives each call an
// Idempotency-Key reused on its retries, so a click never sends a request twice.
import type { RequestRecord } from "@oisr/sdk";
import { useRef, useState } from "preact/hooks";
import { when } from "../format.ts";
import { href } from "../router.ts";
import { useAction } from "../use-load.ts";
import { Problem } from "./status.tsx";

const RETRYABLE = new Set(["failed", "dead"]);

/** "Send again" on a failed or dead request's page, and where its retries went. */
export function RetryOne(props: { record: RequestRecord; onSent: () => void }) {
  const { record } = props;
  const [sent, setSent] = useState<string | null>(null);
  const retry = useAction((client) => client.requests.retry(record.request_id));
  return (
    <section aria-labelledby="retry-title" class="retry">
      <h2 id="retry-title" class="visually-hidden">
        Send again
      </h2>
      {record.retry_of && (
        <p>
          A retry of <a href={href(`requests/${record.retry_of}`)}>{record.retry_of}</a>.
        </p>
      )}
      {record.retried_by && (
        <p>
          Sent again as <a href={href(`requests/${record.retried_by}`)}>{record.retried_by}</a>.
        </p>
      )}
      {RETRYABLE.has(record.status) && (
        <button
          type="button"
          disabled={retry.pending}
          onClick={async () => {
            const ack = await retry.run();
            if (ack) {
              setSent(ack.request_id);
              props.onSent();
            }
          }}
        >
          Send again
        </button>
      )}
      <Problem text={retry.error} />
      {sent && (
        <p role="status">
          Sent again as <a href={href(`requests/${sent}`)}>{sent}</a>.
        </p>
      )}
    </section>
  );
}

/** Bounded steps (100 requests a call, the API's most); a person can stop between them. */
export function RetryMany(props: {
  status: "failed" | "dead";
  kind: string | undefined;
  since: string | undefined;
  until: string | undefined;
  onSent: () => void;
}) {
  const { status, since, until } = props;
  const [progress, setProgress] = useState<{ sent: number; done: boolean } | null>(null);
  const stopped = useRef(false);
  const step = useAction((client, params: Parameters<typeof client.requests.retryMany>[0]) =>
    client.requests.retryMany(params),
  );
  // The bulk form needs a window start; without the list's, the last 24 hours.
  const from = since ?? new Date(Date.now() - 86_400_000).toISOString();
  const kind = props.kind as Parameters<typeof step.run>[0]["kind"];
  const run = async () => {
    stopped.current = false;
    let sent = 0;
    setProgress({ sent, done: false });
    for (;;) {
      const result = await step.run({
        status,
        accepted_since: from,
        ...(until ? { accepted_until: until } : {}),
        ...(kind ? { kind } : {}),
      });
      if (!result) break;
      sent += result.count;
      setProgress({ sent, done: !result.has_more });
      if (!result.has_more || stopped.current) break;
    }
    setProgress((p) => (p ? { ...p, done: true } : p));
    props.onSent();
  };
  const running = progress !== null && !progress.done;
  return (
    <fieldset class="bulk">
      <legend class="visually-hidden">Send again in bulk</legend>
      <button type="button" disabled={running} onClick={run}>
        Send again every {status} request{kind ? ` (${kind})` : ""} accepted since {when(from)}
        {until ? ` until ${when(until)}` : ""}
      </button>
      {running && (
        <button
          type="button"
          onClick={() => {
            stopped.current = true;
          }}
        >
          Stop
        </button>
      )}
      <Problem text={step.error} />
      {progress && (
        <p role="status" class="progress">
          {progress.done ? "Done" : "Sending…"}: {progress.sent} request{progress.sent === 1 ? "" : "s"} sent
          again.
        </p>
      )}
    </fieldset>
  );
}
