// `oisr requests get ID`: the processing record as JSON.
import { parseArgs } from "node:util";
import { CONNECTION_OPTIONS, connect } from "../client.ts";
import { EXIT, type Io, writeLine } from "../io.ts";
import { UsageError } from "../sources/open.ts";

export const REQUESTS_HELP = `Usage: oisr requests get REQUEST_ID [--base-url URL] [--token TOKEN]

Prints the request's processing record (status, result, errors) as JSON.

Example:
  oisr requests get 019593ed-b960-7678-bfcc-cf7dbea23c69`;

export async function requestsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { ...CONNECTION_OPTIONS, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    writeLine(io.stdout, REQUESTS_HELP);
    return EXIT.ok;
  }
  const [action, id, ...extra] = positionals;
  if (action !== "get" || !id || extra.length > 0)
    throw new UsageError("expected: oisr requests get REQUEST_ID");
  const { client } = connect(values, io);
  const record = await client.requests.get(id, { signal: io.signal });
  writeLine(io.stdout, JSON.stringify(record, null, 2));
  return EXIT.ok;
}
