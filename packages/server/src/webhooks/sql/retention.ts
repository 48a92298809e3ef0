// Retention of webhook recoveries (decision 004). Attempts (`webhook_deliveries`) and the `events`
// outbox are time-partitioned and leave with their partitions (partitions/retention.ts, decision
// 020); recoveries stay a plain table deleted row by row: one row per POST …/recover, a few per
// subscription, so their delete is small, and a running one must outlive the partition its
// created_at would name. Every delete is a small batch in its own statement, so a large backlog
// never holds locks for long, and rows another dispatcher is pruning are skipped, not waited for.
import { retentionCutoff } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

/** How the retention of recoveries deletes. */
export interface PruneOptions {
  /** Rows deleted per statement. */
  batchSize?: number;
  now?: Date;
  /** Checked between batches: a dispatcher that is stopping does not finish a long prune. */
  shouldStop?: () => boolean;
}

export const DEFAULT_BATCH = 5000;

/**
 * Deletes recoveries (POST …/recover) made before the retention period, finished or not: one that
 * old could only still be running if its window's events were gone, so there is nothing left for it
 * to send. A running one a dispatcher is stepping through is skipped, and pruned on a later pass.
 * Returns how many.
 */
export async function pruneRecoveries(
  database: Database,
  retentionDays: number,
  options: PruneOptions = {},
): Promise<number> {
  const batch = options.batchSize ?? DEFAULT_BATCH;
  const cutoff = retentionCutoff(options.now ?? new Date(), retentionDays).toISOString();
  let total = 0;
  while (!options.shouldStop?.()) {
    const rows = await database.rows(
      sql`delete from webhook_recoveries
           where (account_id, id) in (
             select account_id, id from webhook_recoveries
              where created_at < ${cutoff}
              limit ${batch}
              for update skip locked)
          returning id`,
    );
    total += rows.length;
    if (rows.length < batch) break;
  }
  return total;
}
