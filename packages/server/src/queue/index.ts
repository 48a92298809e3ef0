// The request queue: every statement on the `requests` and `request_queues` tables lives in this
// folder (decision 009). The API side accepts and reads records; the worker side leases accounts,
// starts, finishes and settles stages.
import type { Database } from "../db/client.ts";
import { isDatabaseUnavailable } from "../db/errors.ts";
import { primaryReads, type ReadSource } from "../db/read-source.ts";
import { createBatcher } from "../store/batcher.ts";
import { type AcceptOutcome, acceptBatch, type NewRequest, publish } from "./accept.ts";
import { createAccountQueueReader } from "./account-queue.ts";
import { createLeases } from "./leases.ts";
import { lockMembers } from "./lock-members.ts";
import { createMaintenance } from "./maintenance.ts";
import { createRecordReader } from "./records.ts";
import { createRetries } from "./retry.ts";
import { createTransitions } from "./transitions.ts";

export type { AcceptOutcome, IngestAck, NewRequest } from "./accept.ts";
export type { Claimed } from "./leases.ts";
export type { QueueStats } from "./maintenance.ts";
export { iso, type RequestRow, requestRecordOfRow } from "./records.ts";
export type { BulkOutcome, RetryCaller, RetryTarget } from "./retry.ts";
export * from "./statuses.ts";
export {
  LeaseLost,
  type Outcome,
  type StageLimits,
  type StageStart,
  type StartedRequest,
} from "./transitions.ts";

/** What the API and the CLI need: accept calls, read records, retention, gauges. */
/** `reads`: where the GET /requests list runs (a replica, decision 021); everything else is on the primary. */
export function createRequestStore(database: Database, reads: ReadSource = primaryReads(database)) {
  const batched = createBatcher<NewRequest, AcceptOutcome | { kind: "error"; error: unknown }>(
    async (items) => {
      try {
        return await acceptBatch(database, items);
      } catch (err) {
        // A call the database refuses (not merely unreachable) must not fail the calls it was
        // batched with: retry each alone, so only the offending one gets the error.
        if (items.length === 1 || isDatabaseUnavailable(err)) throw err;
        return Promise.all(
          items.map((item) =>
            acceptBatch(database, [item]).then(
              (r) => r[0] as AcceptOutcome,
              (error: unknown) => ({ kind: "error" as const, error }),
            ),
          ),
        );
      }
    },
    {
      maxItems: 500,
      // Keep one statement's payload moderate: a batch of 1000-order bodies is split by size.
      maxWeight: 16 * 1024 * 1024,
      weight: (item) => item.bodyJson.length,
      concurrency: 2,
    },
  );

  const store = {
    /**
     * Stores the call durably (with its idempotency record) and answers how to reply. Concurrent
     * calls share one transaction (group commit, store/batcher.ts).
     */
    accept(item: NewRequest): Promise<AcceptOutcome> {
      return publish(item, async (traced) => {
        const outcome = await batched(traced);
        if (outcome.kind === "error") throw outcome.error;
        return outcome;
      });
    },
    ...createRecordReader(database, reads),
    ...createAccountQueueReader(database),
    ...createMaintenance(database),
  };
  return { ...store, ...createRetries(database, store.accept) };
}

export type RequestStore = ReturnType<typeof createRequestStore>;

/** What a worker needs: its leases on accounts and the stage transitions, fenced on them. */
export function createWorkerQueue(database: Database, workerId: string, leaseMs: number) {
  return {
    workerId,
    ...createLeases(database, workerId, leaseMs),
    ...createTransitions(database, workerId, leaseMs),
    lockMembers: (
      tx: Parameters<typeof lockMembers>[1],
      accountId: string,
      members: Parameters<typeof lockMembers>[3],
    ) => lockMembers(database, tx, accountId, members),
  };
}

export type WorkerQueue = ReturnType<typeof createWorkerQueue>;
