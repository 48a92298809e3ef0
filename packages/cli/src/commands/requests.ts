// `oisr requests get ID`: the processing record as JSON; `oisr requests body ID`: the body it was
// submitted with. `oisr requests retry`: requests-retry.ts.
import { parseArgs } from "node:util";
import { CONNECTION_OPTIONS, connect } from "../client.ts";
import { EXIT, type Io, writeLine } from "../io.ts";
import { UsageError } from "../sources/open.ts";
import { retryMany, retryOne } from "./requests-retry.ts";

export const REQUESTS_HELP = `Usage: oisr requests get REQUEST_ID
       oisr requests body REQUEST_ID
       oisr requests retry REQUEST_ID [--idempotency-key KEY]
       oisr requests retry --status failed|dead --since TIME [--until TIME] [--kind KIND]
                           [--limit N] [--all] [--idempotency-key KEY]
       [--base-url URL] [--token TOKEN]

get    prints the request's processing record (status, result, errors) as JSON.
body   prints the JSON body the request was submitted with: the errors' pointers point into it.
retry  sends a failed or dead request again as a new request (same kind, return and body) and
       prints its acknowledgment as JSON; the new record's retry_of names the original.
       With --status and --since instead of an id: the oldest requests of that status accepted
       in the window (since ≤ accepted_at < until; until defaults to now), at most --limit
       (default and most 100) per call, skipping those already sent again; prints the answer
       ({count, retries, has_more}) as one JSON line. --all calls again while more match.
       A person's summary goes to stderr.

TIME is an RFC 3339 date-time. KIND is orders, inventory, shipments, returns or dispositions.

Examples:
  oisr requests get 019593ed-b960-7678-bfcc-cf7dbea23c69
  oisr requests body 0195b7d2-ccdc-7d13-a202-55eb7622333b
  oisr requests retry 0195c0ba-79b7-7a23-a88a-a13755ffd8cf
  oisr requests retry --status dead --since 2026-03-23T00:00:00Z --until 2026-03-24T00:00:00Z --all`;

export async function requestsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      status: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      kind: { type: "string" },
      limit: { type: "string" },
      all: { type: "boolean" },
      "idempotency-key": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    writeLine(io.stdout, REQUESTS_HELP);
    return EXIT.ok;
  }
  const [action, id, ...extra] = positionals;
  if (action === "retry" && extra.length === 0) {
    const { client } = connect(values, io);
    if (id) await retryOne(client, id, values, io);
    else await retryMany(client, values, io);
    return EXIT.ok;
  }
  if ((action !== "get" && action !== "body") || !id || extra.length > 0)
    throw new UsageError(
      "expected: oisr requests get|body REQUEST_ID, or oisr requests retry REQUEST_ID|--status …",
    );
  const { client } = connect(values, io);
  const read = action === "get" ? client.requests.get : client.requests.body;
  writeLine(io.stdout, JSON.stringify(await read(id, { signal: io.signal }), null, 2));
  return EXIT.ok;
}
