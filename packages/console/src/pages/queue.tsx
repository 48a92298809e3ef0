// Queue health of the account, from the API alone (GET /requests, no metrics endpoint): how many
// requests are open (pending or processing) and how long the oldest has waited, plus how many
// ended failed or dead. GET /requests has no count, so the page reads the open requests page by
// page (200 a page, newest first) up to SCAN_PAGES pages; past that it shows a lower bound. Failed
// and dead: one page.
import type { OisrClient, RequestRecord, RequestStatus } from "@oisr/sdk";
import { Loading, Problem } from "../components/status.tsx";
import { duration, when } from "../format.ts";
import { href } from "../router.ts";
import { useLoad } from "../use-load.ts";

/** 10 pages of 200: 2 000 open requests read in ~10 calls before the page shows "at least". */
const SCAN_PAGES = 10;
const PAGE = 200;

interface Tally {
  count: number;
  /** Whether every matching request was read (else `count` is a lower bound). */
  complete: boolean;
  oldest: RequestRecord | undefined;
}

async function tally(client: OisrClient, status: RequestStatus, pages: number): Promise<Tally> {
  let cursor: string | undefined;
  let count = 0;
  let oldest: RequestRecord | undefined;
  for (let i = 0; i < pages; i++) {
    const page = await client.requests.list({ status, limit: PAGE, ...(cursor ? { cursor } : {}) });
    count += page.data.length;
    oldest = page.data[page.data.length - 1] ?? oldest;
    if (!page.has_more) return { count, complete: true, oldest };
    cursor = page.next_cursor;
  }
  return { count, complete: false, oldest };
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
    // Failed and dead requests stay for the retention period (30 days): one page says "at least
    // 200" instead of reading them all.
    const [pending, processing, failed, dead] = await Promise.all([
      tally(client, "pending", SCAN_PAGES),
      tally(client, "processing", SCAN_PAGES),
      tally(client, "failed", 1),
      tally(client, "dead", 1),
    ]);
    return { pending, processing, failed, dead, at: Date.now() } as const;
  }, []);
  const oldestOpen = data
    ? [data.pending.oldest, data.processing.oldest]
        .filter((r): r is RequestRecord => r !== undefined)
        .sort((a, b) => Date.parse(a.accepted_at) - Date.parse(b.accepted_at))[0]
    : undefined;
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
            {data.pending.count + data.processing.count}
            {data.pending.complete && data.processing.complete ? "" : "+"} (pending{" "}
            <Count tally={data.pending} />, processing <Count tally={data.processing} />)
          </dd>
          <dt>Oldest open request</dt>
          <dd>
            {oldestOpen ? (
              <>
                waiting {duration(data.at - Date.parse(oldestOpen.accepted_at))}{" "}
                <span class="muted">(accepted {when(oldestOpen.accepted_at)})</span>{" "}
                <a href={href(`requests/${oldestOpen.request_id}`)}>{oldestOpen.request_id}</a>
                {data.pending.complete && data.processing.complete ? "" : " (among those read)"}
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
