// One subscription: disable/enable, rotate its secret, send a test, its delivery attempts as a
// timeline (newest first, by cursor) with a retry per attempt, and recovery of a window of events
// with its progress.
import type { WebhookRecovery, WebhookSubscriptionWithSecret } from "@oisr/sdk";
import { useEffect, useState } from "preact/hooks";
import { Pager, useCursors } from "../components/pager.tsx";
import { Badge, Loading, Problem } from "../components/status.tsx";
import { localInputToIso, when } from "../format.ts";
import { href } from "../router.ts";
import { useAction, useLoad } from "../use-load.ts";
import { SecretOnce } from "./webhooks.tsx";

/** A running recovery's progress is read this often. */
const RECOVERY_POLL_MS = 1_000;

function Recover(props: { subscriptionId: string; onProgress: () => void }) {
  const [recovery, setRecovery] = useState<WebhookRecovery | null>(null);
  const start = useAction((client, since: string, until?: string) =>
    client.webhooks.recover(props.subscriptionId, { since, ...(until ? { until } : {}) }),
  );
  const poll = useAction((client, id: string) => client.webhooks.getRecovery(props.subscriptionId, id));
  useEffect(() => {
    if (recovery?.status !== "running") return;
    const timer = setTimeout(async () => {
      const next = await poll.run(recovery.id);
      if (next) {
        setRecovery(next);
        if (next.status !== "running") props.onProgress();
      }
    }, RECOVERY_POLL_MS);
    return () => clearTimeout(timer);
  }, [recovery]);
  return (
    <section aria-labelledby="recover-title">
      <h2 id="recover-title">Recover a window</h2>
      <p class="muted">
        Sends every event created in the window again (new deliveries, trigger <code>recover</code>), e.g.
        after an outage longer than the retry schedule.
      </p>
      <form
        class="inline"
        onSubmit={async (event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          const since = localInputToIso(String(data.get("since") ?? ""));
          const until = localInputToIso(String(data.get("until") ?? ""));
          if (!since) return;
          const started = await start.run(since, until);
          if (started) setRecovery(started);
        }}
      >
        <label>
          Events from
          <input type="datetime-local" name="since" required />
        </label>
        <label>
          until (default now)
          <input type="datetime-local" name="until" />
        </label>
        <button type="submit" disabled={start.pending || recovery?.status === "running"}>
          Recover
        </button>
      </form>
      <Problem text={start.error ?? poll.error} />
      {recovery && (
        <p class="progress" role="status">
          Recovery <code>{recovery.id}</code>: {recovery.status}
          {recovery.status === "running" ? "…" : ""} — {recovery.events_queued} event
          {recovery.events_queued === 1 ? "" : "s"} queued
          {recovery.completed_at ? ` (completed ${when(recovery.completed_at)})` : ""}
        </p>
      )}
    </section>
  );
}

function Deliveries(props: { subscriptionId: string; version: number; onRetried: () => void }) {
  const cursors = useCursors([props.subscriptionId]);
  const { data, error, loading, reload } = useLoad(
    (client) =>
      client.webhooks.deliveries(props.subscriptionId, {
        limit: 50,
        ...(cursors.cursor ? { cursor: cursors.cursor } : {}),
      }),
    [props.subscriptionId, cursors.cursor, props.version],
  );
  const retry = useAction((client, deliveryId: string) =>
    client.webhooks.retryDelivery(props.subscriptionId, deliveryId),
  );
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Delivery attempts</h2>
      <button type="button" onClick={reload}>
        Refresh attempts
      </button>
      <Problem text={error ?? retry.error} />
      <Loading loading={loading} />
      <ol class="timeline">
        {data?.data.map((d) => (
          <li key={d.id} class={`attempt attempt-${d.status}`}>
            <div>
              <Badge value={d.status} /> <code>{d.event_type}</code> attempt {d.attempt} ({d.trigger}){" "}
              <span class="muted">{when(d.attempted_at ?? d.created_at)}</span>
            </div>
            <dl class="facts compact">
              <dt>Response</dt>
              <dd>
                {d.response_status ?? "—"}
                {d.error ? ` ${d.error}` : ""}
              </dd>
              <dt>Duration</dt>
              <dd>{d.duration_ms === null ? "—" : `${d.duration_ms} ms`}</dd>
              <dt>Next attempt</dt>
              <dd>{d.next_attempt_at ? when(d.next_attempt_at) : "none"}</dd>
              <dt>Event</dt>
              <dd>
                <code>{d.event_id}</code>
              </dd>
            </dl>
            {d.response_body && (
              <pre class="snippet" title={`Response body of attempt ${d.id}`}>
                {d.response_body}
              </pre>
            )}
            <button
              type="button"
              disabled={retry.pending}
              onClick={async () => {
                if (await retry.run(d.id)) props.onRetried();
              }}
            >
              Retry this delivery
              <span class="visually-hidden"> ({d.id})</span>
            </button>
          </li>
        ))}
      </ol>
      {data && data.data.length === 0 && <p>No delivery attempts yet.</p>}
      <Pager cursors={cursors} page={data} label="Delivery attempts" />
    </section>
  );
}

export function WebhookDetailPage(props: { subscriptionId: string }) {
  const id = props.subscriptionId;
  const [version, setVersion] = useState(0);
  const bump = () => setVersion((v) => v + 1);
  const [secret, setSecret] = useState<WebhookSubscriptionWithSecret | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const sub = useLoad((client) => client.webhooks.get(id), [id, version]);
  const setStatus = useAction((client, status: "enabled" | "disabled") =>
    client.webhooks.update(id, { status }),
  );
  const rotate = useAction((client) => client.webhooks.rotateSecret(id));
  const test = useAction((client) => client.webhooks.test(id));
  const s = sub.data;
  return (
    <section aria-labelledby="webhook-title">
      <p>
        <a href={href("webhooks")}>← All subscriptions</a>
      </p>
      <h1 id="webhook-title">
        Subscription <code>{id}</code>
      </h1>
      <Problem text={sub.error} />
      <Loading loading={sub.loading && !s} />
      {s && (
        <>
          <dl class="facts">
            <dt>URL</dt>
            <dd>{s.url}</dd>
            <dt>Events</dt>
            <dd>{s.events.join(", ")}</dd>
            <dt>Status</dt>
            <dd>
              <Badge value={s.status} />
            </dd>
            <dt>Description</dt>
            <dd>{s.description ?? "—"}</dd>
            <dt>Updated</dt>
            <dd>{when(s.updated_at)}</dd>
          </dl>
          <div class="actions">
            <button
              type="button"
              disabled={setStatus.pending}
              onClick={async () => {
                const next = s.status === "enabled" ? "disabled" : "enabled";
                if (await setStatus.run(next)) {
                  setOutcome(`Subscription ${next}.`);
                  bump();
                }
              }}
            >
              {s.status === "enabled" ? "Disable" : "Enable"}
            </button>
            <button
              type="button"
              disabled={rotate.pending}
              onClick={async () => {
                const rotated = await rotate.run();
                if (rotated) {
                  setSecret(rotated);
                  setOutcome(null);
                }
              }}
            >
              Rotate secret
            </button>
            <button
              type="button"
              disabled={test.pending}
              onClick={async () => {
                const delivery = await test.run();
                if (delivery) {
                  setOutcome(`Test event sent: delivery ${delivery.id} (${delivery.status}).`);
                  bump();
                }
              }}
            >
              Send test event
            </button>
          </div>
          <Problem text={setStatus.error ?? rotate.error ?? test.error} />
          {outcome && <p role="status">{outcome}</p>}
          {secret && (
            <SecretOnce
              secret={secret.secret}
              what="Secret rotated: deliveries are signed with both the old and the new secret for 24 h."
            />
          )}
        </>
      )}
      <Recover subscriptionId={id} onProgress={bump} />
      <Deliveries subscriptionId={id} version={version} onRetried={bump} />
    </section>
  );
}
