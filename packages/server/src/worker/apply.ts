// Applies a stage of one account's requests in one transaction, all-or-nothing per request
// (decisions 007 and 009). The stage's requests were started (marked processing, attempt counted)
// by the queue beforehand; here they are locked, applied one after another over the state in memory
// by the domain, each with its own outcome, and their changes written with one statement per
// table. While a stage writes and commits, the next one locks, reads and applies its requests over
// the state the first is committing; it writes only once the first has committed, and gives up if
// it did not.
import {
  applyChain,
  applyChainSteps,
  type ChainedRequest,
  type ChainResult,
  type Changes,
  mergeReferencedKeys,
  referencedKeys,
  withChanges,
} from "@oisr/domain";
import { sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import { positionBefore, type RequestEventSlots, reserveRequestEvents } from "../outbox/index.ts";
import { LeaseLost, type Outcome, type StartedRequest, type WorkerQueue } from "../queue/index.ts";
import type { Services } from "../services.ts";
import { feedPositions, writeChanges } from "../store/changes.ts";
import { newId } from "../store/ids.ts";
import { loadState } from "../store/state-loader.ts";
import { eventTraceparent } from "../telemetry/traceparent.ts";

export interface StageInput {
  /** The requests startStage started, in queue order. */
  members: StartedRequest[];
  /** The stage before, still being committed: this one reads through its changes and writes after it. */
  previous?: { changes: Changes; committed: Promise<boolean> };
  /** The stage's span (tracing on only): stored with the events it writes, for their deliveries' spans. */
  traceparent?: string;
  /**
   * A short stage (a quiet account's few requests): its JavaScript is brief, so it gives the event
   * loop no extra turns, each of which waited behind whatever the busy stages had queued.
   */
  short?: boolean;
}

export type StageOutcome =
  /** Another worker took the account over: nothing of this stage was applied. */
  | { kind: "lease_lost"; detail: string }
  /** The previous stage did not commit: this one rolled back, its requests never ran. */
  | { kind: "abandoned" }
  | { kind: "applied"; members: (StartedRequest & { outcome: "succeeded" | "failed" })[] };

export interface StageHooks {
  /**
   * The stage applied its requests in memory and the one before it committed; it is about to
   * write. The next stage may start, reading through `changes`.
   */
  onReady?(ready: { lastSeq: number; changes: Changes }): void;
  /** The transaction ended: whether it committed. Called before anything else happens after it. */
  onSettled?(committed: boolean): void;
}

class Abandoned extends Error {}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The longest a big stage's apply runs before it gives the event loop a turn. Applying 1,000
 * one-order requests is one stretch of 2-25 ms of JavaScript on a quiet 2-core machine (scavenges
 * make the spread) and several times that under load; every reply a quiet account's stage or a GET
 * waits for in the same process waited behind it (decision 017, session 15). A turn when nothing
 * else waits costs a few microseconds.
 */
const APPLY_SLICE_MS = 5;

/** applyChain in slices of about APPLY_SLICE_MS, with a turn of the event loop between them. */
async function applyInSlices(...args: Parameters<typeof applyChain>): Promise<ChainResult> {
  const steps = applyChainSteps(...args);
  let sliceStart = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= APPLY_SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
}

/** Applies a started stage in one transaction; transient failures are thrown (the caller settles them). */
export async function applyStage(
  services: Services,
  queue: WorkerQueue,
  accountId: string,
  input: StageInput,
  config: Pick<Config, "applyLockTimeoutMs">,
  hooks: StageHooks = {},
): Promise<StageOutcome> {
  const { database } = services;
  const { members, previous } = input;
  const turn = input.short ? () => undefined : yieldToEventLoop;
  // startStage read the stored calls, so what the stage references is known before its first
  // statement, and the state is read in the lock's round trip.
  const chain: ChainedRequest[] = members.map(({ call }) => ({
    kind: call.kind,
    body: call.body,
    params: { returnId: call.params?.return_id },
  }));
  const keys = mergeReferencedKeys(chain.map((r) => referencedKeys(r.kind, r.body, r.params)));
  try {
    const outcome = await database.db.transaction(async (tx): Promise<StageOutcome> => {
      // Sent together (behind BEGIN), answered in one round trip: postgres.js pipelines them on the
      // transaction's connection in the order they are called, so the lock timeout is in force for
      // the locks (apply.test.ts holds a member's lock to check it), and the state is read once the
      // members are locked, as when it was read a round trip later. All hand their first statement
      // to the driver at once (`database.rows`, `preparedRows`); drizzle's `tx.execute` sent it a
      // turn later, after the lock statement, which then waited without a timeout. A stage's
      // statements run one after another, and each round trip is a turn of an event loop the busy
      // accounts' stages share, which is what a quiet account's request mostly waits for
      // (decision 017). If the lock finds the lease gone, the state read beside it is thrown away
      // with the transaction.
      const [, , loaded] = await Promise.all([
        database.driver === "postgres"
          ? database.rows(sql.raw(`set local lock_timeout = ${Math.floor(config.applyLockTimeoutMs)}`), tx)
          : undefined,
        queue.lockMembers(tx, accountId, members),
        loadState(tx, accountId, keys),
      ]);
      const state = previous ? withChanges(loaded, previous.changes) : loaded;
      // The event loop's turn between the stage's stretches of JavaScript (the state's reply, then
      // applying, in slices): another account's stage, and the API in the same process, run in
      // between instead of after the whole stage.
      await turn();
      const now = new Date().toISOString();
      const context = { now, newId };
      const { results, changes } = input.short
        ? applyChain(state, chain, context)
        : await applyInSlices(state, chain, context);
      await turn();

      // Writes keep commit order: the account's feed positions are taken after the stage before
      // has committed, and nothing is written on top of a stage that rolled back.
      if (previous && !(await previous.committed)) throw new Abandoned();
      hooks.onReady?.({ lastSeq: (members[members.length - 1] as StartedRequest).seq, changes });

      // Each event keeps the trace of the request whose apply wrote it (eventTraceparent).
      const outbox = results.flatMap((r, i) =>
        r.status !== "succeeded"
          ? []
          : r.events.map((e) => ({
              type: e.type,
              object: e.return,
              traceparent: eventTraceparent(input.traceparent, (members[i] as StartedRequest).traceId),
              apiKeyId: (members[i] as StartedRequest).apiKeyId,
            })),
      );
      // One statement takes the feed positions of the stage's changes, return events and request
      // events (outbox/positions.ts): the account row is the first thing it writes (lock order,
      // outbox/index.ts).
      const feedCount = feedPositions(changes, outbox);
      const count = feedCount + results.length;
      // An order the stage's state did not hold (read in this transaction, or written by the stage
      // before) is new to the table: its id was just made.
      const isNewOrder = (id: string) => !state.orderById(id);
      const finished: Outcome[] = results.map((r, i) => {
        const request = members[i] as StartedRequest;
        return r.status === "succeeded"
          ? { request, status: "succeeded", result: r.result }
          : { request, status: "failed", errors: r.errors };
      });
      // The request events' positions follow the changes' and return events'.
      const forEvents = (s: RequestEventSlots): RequestEventSlots => ({
        after: s.after + feedCount,
        subscribed: s.subscribed,
      });
      const finish = (reserved: RequestEventSlots | Promise<RequestEventSlots>) =>
        queue.finishStage(
          tx,
          accountId,
          finished,
          now,
          input.traceparent,
          reserved,
          input.short ? undefined : yieldToEventLoop,
        );
      if (outbox.length === 0) {
        // Without return events the writes read their positions back from the account row the
        // bump locked (positionBefore), so both go out together, one round trip, bump first. When
        // only orders changed, writeChanges sends one statement, and finishStage's update goes out
        // behind it too: the lock order holds (account row, resources, then the queue's rows,
        // outbox/index.ts) because the connection runs them in the order they were sent.
        const reserving = reserveRequestEvents(database, tx, accountId, count);
        const writing = writeChanges(
          tx,
          accountId,
          changes,
          outbox,
          now,
          positionBefore(accountId, count),
          isNewOrder,
        );
        const onlyOrders = changes.returns.length + changes.shipments.length + changes.inventory.length === 0;
        if (onlyOrders) await Promise.all([reserving, writing, finish(reserving.then(forEvents))]);
        else {
          const [slots] = await Promise.all([reserving, writing]);
          await finish(forEvents(slots));
        }
      } else {
        const slots = await reserveRequestEvents(database, tx, accountId, count);
        await writeChanges(tx, accountId, changes, outbox, now, slots.after, isNewOrder);
        await finish(forEvents(slots));
      }
      return {
        kind: "applied",
        members: members.map((m, i) => ({ ...m, outcome: (finished[i] as Outcome).status })),
      };
    });
    // The events' insert woke the dispatchers at commit (outbox/write.ts).
    hooks.onSettled?.(outcome.kind === "applied");
    return outcome;
  } catch (err) {
    hooks.onSettled?.(false);
    if (err instanceof Abandoned) return { kind: "abandoned" };
    if (err instanceof LeaseLost) return { kind: "lease_lost", detail: err.detail };
    throw err;
  }
}
