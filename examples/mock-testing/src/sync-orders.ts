// Pushes a shop's orders into OISR and says, per order, what happened. The code under test in
// this example: it relies on the API's guarantees, which the mock reproduces offline.
import { type OisrClient, type OrderInput, RequestFailedError } from "@oisr/sdk";

export interface SyncResult {
  synced: string[];
  rejected: { external_id: string; code: string; message: string }[];
  /** Batches resubmitted because their request ended `dead` (nothing applied, safe to resend). */
  resubmitted: number;
}

export async function syncOrders(
  client: OisrClient,
  orders: OrderInput[],
  options: { batchSize?: number; deadRetries?: number } = {},
): Promise<SyncResult> {
  const result: SyncResult = { synced: [], rejected: [], resubmitted: 0 };
  const size = options.batchSize ?? 500;
  for (let start = 0; start < orders.length; start += size) {
    let batch = orders.slice(start, start + size);
    let deadLeft = options.deadRetries ?? 1;
    while (batch.length > 0) {
      try {
        await client.orders.ingestAndWait(batch);
        result.synced.push(...batch.map((o) => o.external_id));
        break;
      } catch (error) {
        if (!(error instanceof RequestFailedError)) throw error;
        const { record } = error;
        if (record.status === "dead" && deadLeft-- > 0) {
          result.resubmitted += 1;
          continue;
        }
        if (record.status === "dead") throw error;
        // `failed`: nothing was applied; set the orders named by the errors aside, resend the rest.
        const bad = new Map<number, { code: string; message: string }>();
        for (const e of record.errors) {
          const index = Number(/^\/orders\/(\d+)/.exec(e.pointer)?.[1]);
          if (Number.isInteger(index) && !bad.has(index))
            bad.set(index, { code: e.code, message: e.message });
        }
        if (bad.size === 0) throw error;
        for (const [index, reason] of bad) {
          result.rejected.push({ external_id: (batch[index] as OrderInput).external_id, ...reason });
        }
        batch = batch.filter((_, i) => !bad.has(i));
      }
    }
  }
  return result;
}
