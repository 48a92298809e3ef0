// The worker role: leases accounts with due work, applies their requests in stages (one
// transaction each, pipelined on PostgreSQL), retries transient failures with backoff inside
// `processing`, buries them as `dead` after the last attempt (decision 009).
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Changes } from "@oisr/domain";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { REQUESTS_CHANNEL } from "../db/channels.ts";
import { type Claimed, createWorkerQueue, type StageLimits, type StartedRequest } from "../queue/index.ts";
import type { Services } from "../services.ts";
import { startStageSpan } from "../telemetry/queue-spans.ts";
import { applyStage, type StageInput } from "./apply.ts";
import { backoffMs } from "./backoff.ts";
import { describeRollback } from "./rollback.ts";

export interface Worker {
  stop(): Promise<void>;
}

/**
 * A stage takes up to 1,000 requests and 4,000 items: one-order requests apply a thousand to a
 * transaction, 1,000-order requests four. Measured in decision 009 (one-order drain rates at 1,000,
 * 2,000 and 4,000 requests a stage were within noise; 1,000-order requests did better four at a time).
 */
export const DEFAULT_STAGE_LIMITS: StageLimits = { maxRequests: 1000, maxItems: 4000 };

/**
 * How long one lease keeps starting stages for its account before the worker hands it back. With
 * several worker processes the busy accounts then spread over them instead of staying with the
 * first claimer; an account that becomes due meanwhile ends every pipeline at once (fairness).
 */
const LEASE_BUDGET_MS = 2000;
const MAX_STAGES_PER_LEASE = 64;

/**
 * Stages that yield (issue 30, decision 017). While an account is alone its stages stay big
 * (DEFAULT_STAGE_LIMITS: that is the drain rate). While an account with short work runs here (a
 * lease of the short lane, SHORT_LANE) or waits for this worker (one became due, by its NOTIFY or
 * startStage's probe of request_queues, and every slot is busy, or the database is PGlite:
 * othersWaitForUs), stages are cut (YIELD_STAGE_ITEMS), for YIELD_WINDOW_MS after the last sign;
 * and while an account waits for a slot, a lease hands its account back after YIELD_TURN_MS. A
 * quiet account's statements then wait behind the JavaScript of a stage of 100–250 requests, not
 * of 1,000 (serialising and writing its rows held the event loop for 20–90 ms at a time).
 */
const YIELD_WINDOW_MS = 1000;
const YIELD_TURN_MS = 100;
/**
 * The items of a cut stage: with one long account leased here, and with several. A stage has about
 * eight round trips whatever its size, so smaller stages drain slower, the more so when one
 * account's pipeline is all there is to overlap them. Same runs against yielding off at a 100,000
 * backlog (decision 017, "Session 18"), quiet account's p99 and the busy drain:
 * - one busy account: 250 items 65–72 ms at 0.92×, 0.94×, 0.72×; 100 items 58–116 ms at
 *   0.34–0.83×;
 * - ten: 100 items 146–161 ms at 0.77–0.84×; 150 items 237–272 ms at 0.91–0.94×; 250 items
 *   343–603 ms at 0.78–0.86×.
 * The quiet account's latency is what yielding is for.
 */
const YIELD_STAGE_ITEMS = { alone: 250, several: 100 };
/** A stage of fewer items than this is a quiet account's: it runs without giving the event loop turns. */
const SHORT_STAGE_ITEMS = YIELD_STAGE_ITEMS.several;

/**
 * Slots kept for short work (queue/leases.ts SHORT_QUEUE) while yielding is on and the worker has
 * at least two: long accounts lease at most the others. Ten busy accounts on four slots otherwise
 * left a quiet account's request waiting for a busy stage to end and its lease to be handed back
 * (accepted → started p50 43–46 ms, p99 151–169 ms at a 100,000 backlog), and cut every busy stage
 * while it waited (drain 0.79–0.80× of yielding off). With a slot of its own it is claimed when its
 * NOTIFY arrives and runs beside the busy stages, as with one busy account (decision 017, "Session
 * 18"). Long accounts then take turns of a lease's budget among themselves.
 */
const SHORT_LANE = 1;

/** Longest sleep between queue checks when nothing wakes the worker (a missed notification, a lease expiring). */
const MAX_IDLE_MS = 1000;

const TRANSIENT = {
  code: "processing_failed",
  message: "Processing could not complete; nothing was applied. Resubmitting is safe.",
};
const WORKER_LOST = {
  code: "processing_failed",
  message:
    "Processing could not complete: the worker applying this request stopped during its last attempt. Nothing was applied.",
};

export async function startWorker(deps: {
  config: Config;
  logger: Logger;
  services: Services;
  /** Tests and benchmarks only. */
  stageLimits?: StageLimits;
}): Promise<Worker> {
  const { config, services } = deps;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const logger = deps.logger.child({ worker: workerId });
  const queue = createWorkerQueue(services.database, workerId, config.leaseMs);
  const { metrics } = services;
  const inFlight = new Set<Promise<void>>();
  // The leases of accounts claimed as long work (how many of them may run at once: longSlots) and
  // as short work. Counted before each lease's first stage asks for its limits, which inFlight,
  // added to once runAccount has returned its promise, is not.
  let longInFlight = 0;
  let shortInFlight = 0;
  const longSlots =
    config.stageYield && config.workerConcurrency > SHORT_LANE
      ? config.workerConcurrency - SHORT_LANE
      : config.workerConcurrency;
  let running = true;
  let wake: (() => void) | undefined;
  // A kick that comes while the loop is busy claiming is remembered, so no wake-up is lost.
  let kicked = false;
  // An idle account became due while every slot was busy: pipelines end after their current stage.
  let contended = false;
  const kick = () => {
    if (wake) wake();
    else kicked = true;
  };
  // When another account last showed it wanted a worker.
  let othersSeenAt = Number.NEGATIVE_INFINITY;

  /**
   * Whether an account that is due now waits for the stages running here. On PostgreSQL only when
   * every slot is busy: with a slot free it is claimed at once and its stage runs beside the busy
   * ones, sharing no rows with them, so smaller busy stages only cost drain rate (one busy account
   * at a 100,000 backlog: 0.62–0.69× the drain with the quiet account's p99 within the rounds'
   * spread, decision 017). On PGlite always: its one connection runs every stage in turn.
   */
  const othersWaitForUs = () =>
    services.database.driver !== "postgres" || inFlight.size >= config.workerConcurrency;

  // An empty payload: an accepted request made an idle account due. Otherwise a worker handed
  // back an account that still has work.
  const unlisten = await services.database.listen(REQUESTS_CHANNEL, (payload) => {
    if (payload === "") {
      // The account that woke runs in no worker yet: the stages running here now are another's.
      if (inFlight.size > 0 && othersWaitForUs()) othersSeenAt = performance.now();
      if (inFlight.size >= config.workerConcurrency) contended = true;
    }
    kick();
  });

  const group = config.maxAttempts >= 2;
  const pipelining = services.database.driver === "postgres" && group;
  const limits = deps.stageLimits ?? DEFAULT_STAGE_LIMITS;
  // Short stages: fewer than SHORT_STAGE_ITEMS items, a quiet account's, never a busy one's yielded stage.
  const isShort = (members: StartedRequest[]) =>
    members.length < SHORT_STAGE_ITEMS && members.reduce((n, m) => n + m.itemCount, 0) < SHORT_STAGE_ITEMS;

  /** The next stage's limits: the full ones while the account is alone, YIELD_STAGE_ITEMS while short work runs or waits. */
  const stageLimits = (): StageLimits => {
    if (!config.stageYield) return limits;
    if (shortInFlight > 0) othersSeenAt = performance.now();
    else if (performance.now() - othersSeenAt >= YIELD_WINDOW_MS) return limits;
    const items = longInFlight > 1 ? YIELD_STAGE_ITEMS.several : YIELD_STAGE_ITEMS.alone;
    return { maxRequests: Math.min(limits.maxRequests, items), maxItems: Math.min(limits.maxItems, items) };
  };

  /** Stages for one leased account until its queue is empty, the lease's budget is spent or a stage fails. */
  async function runAccount(accountId: string): Promise<void> {
    const leasedAt = performance.now();
    const until = leasedAt + LEASE_BUDGET_MS;
    let stages = 0;
    // Another account waits for a slot (the last stage started saw it): this turn ends soon.
    let othersWaiting = false;
    const keepGoing = () =>
      running &&
      !contended &&
      stages < MAX_STAGES_PER_LEASE &&
      performance.now() < (othersWaiting ? Math.min(until, leasedAt + YIELD_TURN_MS) : until);
    const counted = (othersDue: boolean) => {
      stages += 1;
      if (othersDue && config.stageYield && othersWaitForUs()) {
        othersWaiting = true;
        othersSeenAt = performance.now();
      }
    };
    try {
      let more = true;
      while (more && keepGoing()) {
        // PGlite runs in this thread and its promises resolve without a turn of the event loop, so
        // a worker draining a backlog would keep HTTP calls and timers waiting until it is done.
        // On PostgreSQL every stage waits for the database, and this turn only delayed a quiet
        // account's first statement behind the busy stages' queued work.
        if (!pipelining) await new Promise<void>((resolve) => setImmediate(resolve));
        more = await runChain(accountId, counted, keepGoing);
        // With every slot busy, another account that waits gets this one's slot now. On PostgreSQL
        // the wake-up says so (`contended`); PGlite delivers it only after the stages that hold its
        // one connection, so there the queue is asked.
        if (more && !pipelining && inFlight.size >= config.workerConcurrency && (await queue.othersDue()))
          break;
      }
    } catch (err) {
      logger.warn({ err, accountId }, "stage could not start; database unavailable?");
    }
    await queue
      .release(accountId)
      .catch((err: unknown) =>
        logger.warn({ err, accountId }, "could not hand the account back; its lease will run out"),
      );
  }

  /**
   * One chain of stages from the account's first open request: each next stage starts while the
   * one before writes and commits (PostgreSQL). Resolves to whether its last stage committed and
   * saw more open requests after its own, so the account may have more.
   */
  async function runChain(
    accountId: string,
    counted: (othersDue: boolean) => void,
    keepGoing: () => boolean,
  ): Promise<boolean> {
    const ends: Promise<boolean>[] = [];
    let startFailure: unknown;
    const launch = (afterSeq: number, previous?: StageInput["previous"]) => {
      // Whether the stage saw open requests after its own (startStage's moreAfter): if not, no next
      // stage is asked for and the chain ends with it.
      let moreAfter = true;
      let settled!: (committed: boolean) => void;
      const committed = new Promise<boolean>((resolve) => {
        settled = resolve;
      });
      const stage = async (): Promise<boolean> => {
        const start = await queue.startStage(accountId, afterSeq, {
          first: previous === undefined,
          group,
          maxAttempts: config.maxAttempts,
          limits: stageLimits(),
        });
        if (start.kind === "exhausted") {
          await queue.settleFailed(
            accountId,
            [{ id: start.request.id, dead: true, delayMs: 0 }],
            WORKER_LOST,
          );
          metrics.attempts.inc({ kind: start.request.kind, result: "dead" });
          metrics.completed.inc({ kind: start.request.kind, status: "dead" });
          logger.warn(
            { requestId: start.request.id, traceId: start.request.traceId },
            "request dead: its worker stopped in its last attempt",
          );
          return true;
        }
        if (start.kind !== "started") return false;
        moreAfter = start.moreAfter;
        counted(start.othersDue);
        return runStage(
          accountId,
          { members: start.members, previous },
          (ready) => {
            if (pipelining && keepGoing() && moreAfter)
              launch(ready.lastSeq, { changes: ready.changes, committed });
          },
          settled,
        );
      };
      ends.push(
        stage().then(
          (ok) => {
            settled(ok);
            return ok && moreAfter;
          },
          (err: unknown) => {
            startFailure = err;
            settled(false);
            return false;
          },
        ),
      );
    };
    launch(0);
    let last = false;
    // The list grows while earlier stages run.
    for (let i = 0; i < ends.length; i++) last = await (ends[i] as Promise<boolean>);
    if (startFailure) throw startFailure;
    return last;
  }

  /** One started stage; resolves to whether it committed. Transient failures are settled here. */
  async function runStage(
    accountId: string,
    input: StageInput,
    onReady: (ready: { lastSeq: number; changes: Changes }) => void,
    onSettled: (committed: boolean) => void,
  ): Promise<boolean> {
    const started = performance.now();
    const { members } = input;
    // Undefined with tracing off; otherwise the events this stage writes carry its context.
    const span = startStageSpan(accountId, members);
    try {
      const outcome = await applyStage(
        services,
        queue,
        accountId,
        { ...input, traceparent: span?.traceparent, short: isShort(members) },
        config,
        { onReady, onSettled },
      );
      if (outcome.kind !== "applied") span?.gaveUp(outcome.kind);
      if (outcome.kind === "abandoned") {
        metrics.stageRollbacks.inc({ reason: "abandoned" });
        logger.info(
          { accountId, reason: "abandoned", groupSize: members.length },
          "stage rolled back: the stage before it did not commit",
        );
        await queue.unstart(
          accountId,
          members.map((m) => m.id),
        );
        return false;
      }
      if (outcome.kind === "lease_lost") {
        metrics.stageRollbacks.inc({ reason: "lease_lost" });
        for (const m of members) metrics.attempts.inc({ kind: m.kind, result: "lease_lost" });
        // A warning: its requests keep the attempt and start again, so a caller sees `attempts: 2`.
        logger.warn(
          { accountId, requestIds: members.map((m) => m.id), outcome: "lease_lost", detail: outcome.detail },
          "stage rolled back: lease lost",
        );
        return false;
      }
      logApplied(outcome.members, performance.now() - started);
      if (span) {
        const succeeded = outcome.members.filter((m) => m.outcome === "succeeded").length;
        span.applied({ succeeded, failed: outcome.members.length - succeeded });
      }
      return true;
    } catch (err) {
      span?.fail(err);
      const rollback = describeRollback(err);
      metrics.stageRollbacks.inc({ reason: rollback.reason });
      logger.warn(
        {
          accountId,
          reason: rollback.reason,
          sqlstate: rollback.sqlstate,
          statement: rollback.statement,
          error: rollback.message,
          groupSize: members.length,
          firstSeq: members[0]?.seq,
        },
        "stage rolled back",
      );
      await settleTransient(accountId, members, err).catch((e: unknown) =>
        logger.warn({ err: e, accountId }, "could not record a failed attempt; the lease will run out"),
      );
      metrics.processingDuration.observe(
        { kind: (members[0] as StartedRequest).kind, outcome: "error" },
        (performance.now() - started) / 1000,
      );
      return false;
    }
  }

  async function settleTransient(accountId: string, members: StartedRequest[], err: unknown): Promise<void> {
    const settled = members.map((m) => ({
      id: m.id,
      dead: m.attempts >= config.maxAttempts,
      delayMs: backoffMs(m.attempts, config.retryBaseMs),
    }));
    await queue.settleFailed(accountId, settled, TRANSIENT);
    members.forEach((m, i) => {
      const next = settled[i]?.dead ? "dead" : "retry";
      metrics.attempts.inc({ kind: m.kind, result: next });
      if (next === "dead") metrics.completed.inc({ kind: m.kind, status: "dead" });
      logger.warn(
        { err, requestId: m.id, traceId: m.traceId, attempt: m.attempts, next, groupSize: members.length },
        "request attempt failed",
      );
    });
  }

  function logApplied(
    members: (StartedRequest & { outcome: "succeeded" | "failed" })[],
    groupMs: number,
  ): void {
    const size = members.length;
    // Each request of a stage is charged an equal share of the transaction's time.
    const ms = Math.round(groupMs / size);
    for (const m of members) {
      metrics.processingDuration.observe({ kind: m.kind, outcome: m.outcome }, groupMs / 1000 / size);
      metrics.attempts.inc({ kind: m.kind, result: m.outcome });
      metrics.completed.inc({ kind: m.kind, status: m.outcome });
      logger.info(
        {
          requestId: m.id,
          traceId: m.traceId,
          attempt: m.attempts,
          kind: m.kind,
          outcome: m.outcome,
          ms,
          groupSize: size,
          groupMs: Math.round(groupMs),
        },
        "request processed",
      );
    }
  }

  async function loop(): Promise<void> {
    while (running) {
      kicked = false;
      const free = config.workerConcurrency - inFlight.size;
      let claimed: Claimed[] = [];
      if (free > 0) {
        contended = false;
        try {
          claimed = await queue.claim(free, longSlots - longInFlight);
        } catch (err) {
          logger.warn({ err }, "claim failed; database unavailable?");
        }
      }
      for (const { accountId, long } of claimed) {
        if (long) longInFlight += 1;
        else shortInFlight += 1;
        const p = runAccount(accountId).finally(() => {
          inFlight.delete(p);
          if (long) longInFlight -= 1;
          else shortInFlight -= 1;
          kick();
        });
        inFlight.add(p);
      }
      if (free > 0 && claimed.length === free) continue;
      // Work that is due now but was not claimed waits for something to finish (a kick); only
      // retries and leases running out later need a timer.
      if (kicked) continue;
      const dueIn = await queue.nextDueInMs().catch(() => null);
      if (kicked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(MAX_IDLE_MS, dueIn ?? MAX_IDLE_MS));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  const looping = loop();
  return {
    async stop() {
      running = false;
      kick();
      await looping;
      await Promise.allSettled([...inFlight]);
      await unlisten().catch(() => {});
    },
  };
}
