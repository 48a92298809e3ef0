// Applies queued requests of one account in transactions that are each all-or-nothing per request
// (decision 007). A stage is one transaction: the claimed head (fenced on its lease) or the
// requests queued right after the previous stage, plus up to a few never-attempted requests behind
// it. The domain applies them one after another over the state in memory, each with its own
// outcome, and their changes are written with one statement per table. While a stage writes and
// commits, the next one locks, reads and applies its requests over the state the first is
// committing; it writes only once the first has committed, and gives up if it did not.
import {
  applyChain,
  type ChainedRequest,
  type Changes,
  type IngestKind,
  mergeReferencedKeys,
  referencedKeys,
  withChanges,
} from "@oisr/domain";
import { sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import type { Services } from "../services.ts";
import { writeChanges } from "../store/changes.ts";
import { newId } from "../store/ids.ts";
import { loadState } from "../store/state-loader.ts";
import type { ClaimedRequest, FinishedRequest, GroupMember, Queue } from "./queue.ts";

export type ApplyOutcome = "succeeded" | "failed" | "lease_lost";

/** How many requests, and items in all, one stage takes on at most. */
export interface GroupLimits {
  maxRequests: number;
  maxItems: number;
}

export const DEFAULT_GROUP_LIMITS: GroupLimits = { maxRequests: 4, maxItems: 4000 };

export type StageInput =
  /** The claimed request, and (on its first attempt) never-attempted requests behind it. */
  | { head: ClaimedRequest }
  /** Never-attempted requests queued after `afterSeq`, behind a stage still being committed. */
  | { afterSeq: number; previous: { changes: Changes; committed: Promise<boolean> } };

export type StageOutcome =
  | { kind: "lease_lost" }
  /** No request to take on behind the previous stage. */
  | { kind: "empty" }
  /** The previous stage did not commit: this one rolled back, no request of it was attempted. */
  | { kind: "abandoned" }
  | { kind: "applied"; members: (GroupMember & { outcome: "succeeded" | "failed" })[] };

export interface StageHooks {
  /** The requests the stage locked: after a transient failure, each of them used an attempt. */
  onLocked?(members: GroupMember[]): void;
  /**
   * The stage applied its requests in memory and the one before it committed; it is about to
   * write. The next stage may start, reading through `changes`.
   */
  onReady?(ready: { lastSeq: number; changes: Changes }): void;
  /** The transaction ended: whether it committed. Called before anything else happens after it. */
  onSettled?(committed: boolean): void;
}

class Abandoned extends Error {}

export async function applyStage(
  services: Services,
  queue: Queue,
  accountId: string,
  input: StageInput,
  config: Pick<Config, "applyLockTimeoutMs" | "maxAttempts">,
  limits: GroupLimits = DEFAULT_GROUP_LIMITS,
  hooks: StageHooks = {},
): Promise<StageOutcome> {
  const { database } = services;
  const groups = config.maxAttempts >= 2 && limits.maxRequests > 1;
  let emitted = false;
  try {
    const outcome = await database.db.transaction(async (tx): Promise<StageOutcome> => {
      if (database.driver === "postgres")
        await tx.execute(sql.raw(`set local lock_timeout = ${Math.floor(config.applyLockTimeoutMs)}`));
      let members: GroupMember[];
      let headId: string | null = null;
      if ("head" in input) {
        const { head } = input;
        const locked = await queue.lockForApply(tx, head);
        if (!locked) return { kind: "lease_lost" };
        headId = head.id;
        // Only a request's first attempt may carry followers: after a failed group each member's
        // further attempts are its own, so a request that keeps failing cannot use up its
        // neighbours' attempts (and with one attempt allowed, nobody is grouped at all).
        const followers =
          groups && head.attempts === 1
            ? await queue.lockFollowers(
                tx,
                accountId,
                locked.seq,
                limits.maxRequests - 1,
                limits.maxItems - locked.itemCount,
              )
            : [];
        members = [{ id: head.id, seq: locked.seq, kind: head.kind, traceId: head.traceId }, ...followers];
      } else {
        members = await queue.lockFollowers(
          tx,
          accountId,
          input.afterSeq,
          limits.maxRequests,
          limits.maxItems,
        );
        if (members.length === 0) return { kind: "empty" };
      }
      hooks.onLocked?.(members);

      const stored = await queue.bodies(
        tx,
        accountId,
        members.map((m) => m.id),
      );
      const chain: ChainedRequest[] = stored.map((r) => ({
        kind: r.kind as IngestKind,
        body: r.body as never,
        params: { returnId: r.params?.return_id },
      }));
      const keys = mergeReferencedKeys(chain.map((r) => referencedKeys(r.kind, r.body, r.params)));
      const loaded = await loadState(tx, accountId, keys);
      const previous = "previous" in input ? input.previous : undefined;
      const state = previous ? withChanges(loaded, previous.changes) : loaded;
      const now = new Date().toISOString();
      const { results, changes, events } = applyChain(state, chain, { now, newId });

      // Writes keep commit order: the account's feed positions are taken after the stage before
      // has committed, and nothing is written on top of a stage that rolled back.
      if (previous && !(await previous.committed)) throw new Abandoned();
      hooks.onReady?.({ lastSeq: (members[members.length - 1] as GroupMember).seq, changes });

      const outbox = events.map((e) => ({ type: e.type, object: e.return }));
      await writeChanges(tx, accountId, changes, outbox, now);
      const finished: FinishedRequest[] = results.map((r, i) => {
        const id = (members[i] as GroupMember).id;
        return r.status === "succeeded"
          ? { id, status: "succeeded", result: r.result }
          : { id, status: "failed", errors: r.errors };
      });
      await queue.finish(tx, accountId, headId, finished);
      emitted = outbox.length > 0;
      return {
        kind: "applied",
        members: members.map((m, i) => ({ ...m, outcome: (finished[i] as FinishedRequest).status })),
      };
    });
    hooks.onSettled?.(outcome.kind === "applied");
    // After commit: wake the webhook dispatcher (on PostgreSQL every process listening hears it).
    if (emitted) await database.notify("oisr_events", accountId).catch(() => {});
    return outcome;
  } catch (err) {
    hooks.onSettled?.(false);
    if (err instanceof Abandoned) return { kind: "abandoned" };
    throw err;
  }
}
