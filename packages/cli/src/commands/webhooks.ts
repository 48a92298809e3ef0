// `oisr webhooks recover|retry`: send webhook events again after a receiver's outage, from a
// terminal or a runbook, without writing a script against the API.
import { parseArgs } from "node:util";
import { CONNECTION_OPTIONS, connect } from "../client.ts";
import { EXIT, type Io, writeLine } from "../io.ts";
import { UsageError } from "../sources/open.ts";

export const WEBHOOKS_HELP = `Usage: oisr webhooks recover SUBSCRIPTION_ID --since TIME [--until TIME] [--wait]
       oisr webhooks retry SUBSCRIPTION_ID DELIVERY_ID
       [--base-url URL] [--token TOKEN]

recover  queues, for the subscription, every event it receives that was created in the window
         (since ≤ created_at < until; until defaults to now), and prints the recovery as JSON.
         With --wait, waits until every event of the window is queued and prints it completed.
retry    sends the event of one delivery again (a new sending, same webhook-id) and prints the
         new attempt as JSON.

TIME is an RFC 3339 date-time, at most the retention period (30 days by default) ago.

Examples:
  oisr webhooks recover whs_01JN8S7QQT86WJ5VH5F0CXSRN7 --since 2025-03-26T00:00:00Z --wait
  oisr webhooks retry whs_01JN8S7QQT86WJ5VH5F0CXSRN7 whd_01JQD2B8M4ZJ2W6Q7N3V5X9K1R`;

/** How often --wait asks for the recovery's progress. */
const WAIT_INTERVAL_MS = 500;

export async function webhooksCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      since: { type: "string" },
      until: { type: "string" },
      wait: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    writeLine(io.stdout, WEBHOOKS_HELP);
    return EXIT.ok;
  }
  const [action, subscriptionId, deliveryId, ...extra] = positionals;
  if (action === "recover" && subscriptionId && !deliveryId) {
    if (!values.since) throw new UsageError("recover needs --since TIME (an RFC 3339 date-time)");
    const { client } = connect(values, io);
    const window = values.until ? { since: values.since, until: values.until } : { since: values.since };
    let recovery = await client.webhooks.recover(subscriptionId, window, { signal: io.signal });
    while (values.wait && recovery.status === "running") {
      await new Promise((resolve) => setTimeout(resolve, WAIT_INTERVAL_MS));
      io.signal.throwIfAborted();
      recovery = await client.webhooks.getRecovery(subscriptionId, recovery.id, { signal: io.signal });
    }
    writeLine(io.stdout, JSON.stringify(recovery, null, 2));
    return EXIT.ok;
  }
  if (action === "retry" && subscriptionId && deliveryId && extra.length === 0) {
    if (values.since || values.until || values.wait)
      throw new UsageError("retry takes no --since, --until or --wait");
    const { client } = connect(values, io);
    const attempt = await client.webhooks.retryDelivery(subscriptionId, deliveryId, { signal: io.signal });
    writeLine(io.stdout, JSON.stringify(attempt, null, 2));
    return EXIT.ok;
  }
  throw new UsageError(
    "expected: oisr webhooks recover SUBSCRIPTION_ID --since TIME, or oisr webhooks retry SUBSCRIPTION_ID DELIVERY_ID",
  );
}
