// Applies one claimed request in one transaction: all of it, or nothing.
import { applyBatch, type IngestKind, referencedKeys } from "@oisr/domain";
import { sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Services } from "../services.ts";
import { writeChanges } from "../store/changes.ts";
import { newId } from "../store/ids.ts";
import { loadState } from "../store/state-loader.ts";
import type { ClaimedRequest, Queue } from "./queue.ts";

export type ApplyOutcome = "succeeded" | "failed" | "lease_lost";

export async function applyClaimed(
  services: Services,
  queue: Queue,
  claimed: ClaimedRequest,
  config: Pick<Config, "applyLockTimeoutMs">,
): Promise<ApplyOutcome> {
  const { database } = services;
  let emitted = false;
  const outcome = await database.db.transaction(async (tx): Promise<ApplyOutcome> => {
    if (database.driver === "postgres")
      await tx.execute(sql.raw(`set local lock_timeout = ${Math.floor(config.applyLockTimeoutMs)}`));
    const row = await queue.lockForApply(tx, claimed);
    if (!row) return "lease_lost";
    const kind = row.kind as IngestKind;
    const params = { returnId: (row.params as { return_id?: string } | null)?.return_id };
    const body = row.body as never;
    const state = await loadState(tx, claimed.accountId, referencedKeys(kind, body, params));
    const now = new Date().toISOString();
    const applied = applyBatch(kind, state, body, { now, newId }, params);
    if (applied.status === "failed") {
      await queue.finish(tx, claimed, { status: "failed", errors: applied.errors });
      return "failed";
    }
    const outbox = applied.events.map((e) => ({ type: e.type, object: e.return }));
    await writeChanges(tx, claimed.accountId, applied.changes, outbox, now);
    await queue.finish(tx, claimed, { status: "succeeded", result: applied.result });
    emitted = outbox.length > 0;
    return "succeeded";
  });
  // After commit: wake the webhook dispatcher (on PostgreSQL every process listening hears it).
  if (emitted) await database.notify("oisr_events", claimed.accountId).catch(() => {});
  return outcome;
}
