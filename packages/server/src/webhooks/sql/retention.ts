// Retention of the webhook history (decision 004): finished attempts and recoveries; the `events`
// outbox rows nobody needs any more are pruned by outbox/prune.ts, with the same options. Every delete
// is a small batch in its own statement, so a large backlog never holds locks for long, and rows
// another dispatcher is pruning are skipped, not waited for.
import { retentionCutoff } from "@oisr/contract";
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { DEFAULT_BATCH, type PruneOptions } from "../../outbox/index.ts";

/** Runs `deleteBatch` (one statement deleting at most `batch` rows) until a batch comes back short. */
async function deleteInBatches(
  options: PruneOptions,
  deleteBatch: (cutoff: string, batch: number) => Promise<unknown[]>,
  retentionDays: number,
): Promise<number> {
  const batch = options.batchSize ?? DEFAULT_BATCH;
  const cutoff = retentionCutoff(options.now ?? new Date(), retentionDays).toISOString();
  let total = 0;
  while (!options.shouldStop?.()) {
    const rows = await deleteBatch(cutoff, batch);
    total += rows.length;
    if (rows.length < batch) break;
  }
  return total;
}

/**
 * Deletes finished attempts (not `pending`) made before the retention period; returns how many.
 * Uses the index on `created_at`.
 */
export function pruneAttempts(
  database: Database,
  retentionDays: number,
  options: PruneOptions = {},
): Promise<number> {
  return deleteInBatches(
    options,
    (cutoff, batch) =>
      database.rows(
        sql`delete from webhook_deliveries
             where (account_id, id) in (
               select account_id, id from webhook_deliveries
                where created_at < ${cutoff} and status <> 'pending'
                limit ${batch}
                for update skip locked)
            returning id`,
      ),
    retentionDays,
  );
}

/**
 * Deletes recoveries (POST …/recover) made before the retention period, finished or not: one that
 * old could only still be running if its window's events were gone, so there is nothing left for it
 * to send. A running one a dispatcher is stepping through is skipped, and pruned on a later pass.
 * Returns how many.
 */
export function pruneRecoveries(
  database: Database,
  retentionDays: number,
  options: PruneOptions = {},
): Promise<number> {
  return deleteInBatches(
    options,
    (cutoff, batch) =>
      database.rows(
        sql`delete from webhook_recoveries
             where (account_id, id) in (
               select account_id, id from webhook_recoveries
                where created_at < ${cutoff}
                limit ${batch}
                for update skip locked)
            returning id`,
      ),
    retentionDays,
  );
}
