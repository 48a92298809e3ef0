// Queue health of the account, from the API alone (no metrics endpoint): how many requests are
// open (pending or processing) and how long the oldest has waited, from GET /requests/queue (one
// call, constant time whatever the backlog), plus how many ended failed or dead. Those stay for the
// retention period (30 days), and GET /requests has no count: one page of each, "at least 200"
// past it.
import type { OisrClient, RequestStatus } from "@oisr/sdk";
import { Loading, Problem } from "../components/status.tsx";
import { duration, when } from "../format.ts";
import { href } from "../router.ts";
import { useLoad } from "../use-load.ts";

const PAGE = 200;

interface Tally {
  count: number;
  /** Whether every matching request was read (else `count` is a lower bound). */
  complete: boolean;
}

async function tally(client: OisrClient, status: RequestStatus): Promise<Tally> {
  const page = await client.requests.list({ status, limit: PAGE });
  return { count: page.data.length, complete: !page.has_more };
}

function Count(props: { tally: Tally }) {
  return (
    <>
      {props.tally.complete ? "" : "at least "}
      {props.tally.count}
    </>
  );
}

export function QueuePage() {
  const { data, error, loading, reload } = useLoad(async (client) => {
    const [queue, failed, dead] = await Promise.all([
      client.requests.queue(),
      tally(client, "failed"),
      tally(client, "dead"),
    ]);
    return { queue, failed, dead, at: Date.now() } as const;
  }, []);
  const oldest = data?.queue.oldest_open;
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Queue health</h1>
      <button type="button" onClick={reload} disabled={loading}>
        Refresh
      </button>
      <Problem text={error} />
      <Loading loading={loading} />
      {data && (
        <dl class="facts" aria-label="Queue figures">
          <dt>Open requests</dt>
          <dd data-testid="open-count">
            {data.queue.open} (pending {data.queue.pending}, processing {data.queue.processing})
          </dd>
          <dt>Oldest open request</dt>
          <dd>
            {oldest ? (
              <>
                {oldest.status === "processing" ? "processing" : "waiting"},{" "}
                {duration(data.at - Date.parse(oldest.accepted_at))} since it was accepted{" "}
                <span class="muted">({when(oldest.accepted_at)})</span>{" "}
                <a href={href(`requests/${oldest.request_id}`)}>{oldest.request_id}</a>
              </>
            ) : (
              "none: the queue is empty"
            )}
          </dd>
          <dt>Failed</dt>
          <dd>
            <a href={href("requests", { status: "failed" })}>
              <Count tally={data.failed} />
            </a>
          </dd>
          <dt>Dead</dt>
          <dd>
            <a href={href("requests", { status: "dead" })}>
              <Count tally={data.dead} />
            </a>
          </dd>
        </dl>
      )}
    </section>
  );
}
