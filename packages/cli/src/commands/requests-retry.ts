// `oisr requests retry`: send a failed or dead request again, or every one of a window, from a
// terminal or a runbook (after an outage made requests die, say). JSON on stdout, as every command
// prints; a one-line summary for a person on stderr.
import { RETRY_BULK_MAX, RETRYABLE_STATUSES } from "@oisr/contract";
import type { RequestKind, RetryRequestsParams } from "@oisr/sdk";
import type { connect } from "../client.ts";
import { type Io, writeLine } from "../io.ts";
import { UsageError } from "../sources/open.ts";

const KINDS = [
  "orders",
  "inventory",
  "shipments",
  "returns",
  "dispositions",
] as const satisfies RequestKind[];
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export interface RetryValues {
  status?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  kind?: string | undefined;
  limit?: string | undefined;
  all?: boolean | undefined;
  "idempotency-key"?: string | undefined;
}

type Client = ReturnType<typeof connect>["client"];

/** One request, by id: prints the new request's acknowledgment. */
export async function retryOne(client: Client, id: string, values: RetryValues, io: Io): Promise<void> {
  if (values.status || values.since || values.until || values.kind || values.limit || values.all)
    throw new UsageError("retry REQUEST_ID takes no --status, --since, --until, --kind, --limit or --all");
  const key = values["idempotency-key"];
  const ack = await client.requests.retry(id, { signal: io.signal, ...(key ? { idempotencyKey: key } : {}) });
  writeLine(io.stdout, JSON.stringify(ack, null, 2));
  writeLine(io.stderr, `Sent ${id} again as ${ack.request_id}.`);
}

/** The bulk selection from the options, checked before anything is sent. */
export function bulkParams(values: RetryValues): RetryRequestsParams {
  const { status, since, until, kind, limit } = values;
  if (!status || !isRetryableStatus(status))
    throw new UsageError(
      `retry needs REQUEST_ID, or --status ${RETRYABLE_STATUSES.join("|")} with --since TIME`,
    );
  if (!since) throw new UsageError("retry --status needs --since TIME (an RFC 3339 date-time)");
  for (const [name, value] of [
    ["--since", since],
    ["--until", until],
  ] as const) {
    if (value !== undefined && (!RFC3339.test(value) || Number.isNaN(Date.parse(value))))
      throw new UsageError(
        `${name} takes an RFC 3339 date-time such as 2026-03-01T00:00:00Z, not "${value}"`,
      );
  }
  if (kind !== undefined && !(KINDS as readonly string[]).includes(kind))
    throw new UsageError(`--kind is one of ${KINDS.join(", ")}, not "${kind}"`);
  const n = limit === undefined ? RETRY_BULK_MAX : Number(limit);
  if (!Number.isInteger(n) || n < 1 || n > RETRY_BULK_MAX)
    throw new UsageError(`--limit is a whole number from 1 to ${RETRY_BULK_MAX}, not "${limit}"`);
  return {
    status,
    accepted_since: since,
    ...(until ? { accepted_until: until } : {}),
    ...(kind ? { kind: kind as RequestKind } : {}),
    limit: n,
  };
}

const isRetryableStatus = (s: string): s is (typeof RETRYABLE_STATUSES)[number] =>
  (RETRYABLE_STATUSES as readonly string[]).includes(s);

/**
 * A window's requests: one call of at most --limit, or with --all one call after another until
 * none is left (each call skips the requests already sent again). Prints each call's answer as one
 * JSON line.
 */
export async function retryMany(client: Client, values: RetryValues, io: Io): Promise<void> {
  const params = bulkParams(values);
  const key = values["idempotency-key"];
  if (values.all && key) throw new UsageError("--all makes several calls: it takes no --idempotency-key");
  let sent = 0;
  for (;;) {
    const result = await client.requests.retryMany(params, {
      signal: io.signal,
      ...(key ? { idempotencyKey: key } : {}),
    });
    writeLine(io.stdout, JSON.stringify(result));
    sent += result.count;
    if (!values.all || !result.has_more || result.count === 0) {
      const more = result.has_more ? `; more match (run again${values.all ? "" : ", or add --all"})` : "";
      writeLine(io.stderr, `Sent ${sent} ${params.status} request${sent === 1 ? "" : "s"} again${more}.`);
      return;
    }
  }
}
