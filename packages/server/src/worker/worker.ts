// The worker role: claims queued requests, applies each in one transaction, retries transient
// failures with backoff inside `processing`, buries them as `dead` after the last attempt.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Services } from "../services.ts";
import {
  applyStage,
  DEFAULT_GROUP_LIMITS,
  type GroupLimits,
  type StageHooks,
  type StageInput,
} from "./apply.ts";
import { backoffMs } from "./backoff.ts";
import { type ClaimedRequest, createQueue, type GroupMember } from "./queue.ts";

export interface Worker {
  stop(): Promise<void>;
}

/** How often a worker deletes requests past retention and idempotency keys past 24 h. */
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * How long one claim keeps starting stages for its account before the worker returns to claiming.
 * A pipeline ending hands the account back to whichever worker claims it next, so with several
 * worker processes the busy accounts spread over them instead of staying with the first claimer.
 */
const PIPELINE_BUDGET_MS = 2000;
const MAX_STAGES_PER_CLAIM = 64;

/** Longest sleep between queue checks when nothing wakes the worker (a missed notification, a lease expiring). */
const MAX_IDLE_MS = 1000;

export async function startWorker(deps: {
  config: Config;
  logger: Logger;
  services: Services;
  /** Tests and benchmarks only; decision 007 explains the defaults. */
  groupLimits?: GroupLimits;
}): Promise<Worker> {
  const { config, services } = deps;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const logger = deps.logger.child({ worker: workerId });
  const queue = createQueue(services.database, workerId);
  const inFlight = new Set<Promise<void>>();
  let running = true;
  let wake: (() => void) | undefined;
  // A kick that comes while the loop is busy claiming is remembered, so no wake-up is lost.
  let kicked = false;
  const kick = () => {
    if (wake) wake();
    else kicked = true;
  };

  const unlisten = await services.database.listen("oisr_requests", kick);

  const pipelining = services.database.driver === "postgres" && config.maxAttempts >= 2;
  const limits = deps.groupLimits ?? DEFAULT_GROUP_LIMITS;
  const error = {
    code: "processing_failed",
    message: "Processing could not complete; nothing was applied. Resubmitting is safe.",
  };

  /**
   * Applies the claimed request, then keeps going with the requests queued behind it in its
   * account, one stage (transaction) at a time, the next stage preparing while the previous one
   * commits (apply.ts). Returns once every stage it started has ended.
   */
  async function processOne(claimed: ClaimedRequest): Promise<void> {
    const stages: Promise<void>[] = [];
    let taken = 0;
    const until = performance.now() + PIPELINE_BUDGET_MS;
    const start = (input: StageInput) => {
      let committed!: (ok: boolean) => void;
      const done = new Promise<boolean>((resolve) => {
        committed = resolve;
      });
      stages.push(
        runStage(claimed, input, {
          onReady: (ready) => {
            taken += 1;
            if (pipelining && running && taken < MAX_STAGES_PER_CLAIM && performance.now() < until)
              start({ afterSeq: ready.lastSeq, previous: { changes: ready.changes, committed: done } });
          },
          // The next stage may write as soon as this one committed, before its logging.
          onSettled: committed,
        }).then(committed),
      );
    };
    start({ head: claimed });
    // The list grows while earlier stages run.
    for (let i = 0; i < stages.length; i++) await stages[i];
  }

  /** One stage; resolves to whether it committed. */
  async function runStage(
    claimed: ClaimedRequest,
    input: StageInput,
    hooks: Pick<StageHooks, "onReady" | "onSettled">,
  ): Promise<boolean> {
    const started = performance.now();
    const { metrics } = services;
    let locked: GroupMember[] = [];
    try {
      const outcome = await applyStage(services, queue, claimed.accountId, input, config, limits, {
        ...hooks,
        onLocked: (members) => {
          locked = members;
        },
      });
      if (outcome.kind !== "applied") {
        if (outcome.kind === "lease_lost") {
          metrics.attempts.inc({ kind: claimed.kind, result: "lease_lost" });
          logger.info(
            {
              requestId: claimed.id,
              traceId: claimed.traceId,
              outcome: "lease_lost",
              ms: Math.round(performance.now() - started),
            },
            "request processed",
          );
        }
        return false;
      }
      const groupMs = performance.now() - started;
      const size = outcome.members.length;
      // Each request of a stage is charged an equal share of the transaction's time.
      const ms = Math.round(groupMs / size);
      for (const m of outcome.members) {
        metrics.processingDuration.observe({ kind: m.kind, outcome: m.outcome }, groupMs / 1000 / size);
        metrics.attempts.inc({ kind: m.kind, result: m.outcome });
        logger.info(
          {
            requestId: m.id,
            traceId: m.traceId,
            attempt: m.id === claimed.id ? claimed.attempts : 1,
            kind: m.kind,
            outcome: m.outcome,
            ms,
            groupSize: size,
            groupMs: Math.round(groupMs),
          },
          "request processed",
        );
      }
      return true;
    } catch (err) {
      const headed = "head" in input;
      let next: "retry" | "dead" | "lease" = "retry";
      if (headed) {
        next = await queue
          .retryOrBury(claimed, config.maxAttempts, backoffMs(claimed.attempts, config.retryBaseMs), error)
          .catch(() => "lease" as const);
        metrics.attempts.inc({ kind: claimed.kind, result: next });
      }
      // Every other request the failed transaction held used its (first) attempt too.
      const others = locked.filter((m) => !(headed && m.id === claimed.id));
      await queue
        .followersAttempted(
          claimed.accountId,
          others.map((m) => m.id),
          backoffMs(1, config.retryBaseMs),
          error,
        )
        .catch(() => {});
      for (const m of others) metrics.attempts.inc({ kind: m.kind, result: "retry" });
      metrics.processingDuration.observe(
        { kind: claimed.kind, outcome: "error" },
        (performance.now() - started) / 1000,
      );
      logger.warn(
        {
          err,
          requestId: headed ? claimed.id : others[0]?.id,
          traceId: headed ? claimed.traceId : others[0]?.traceId,
          attempt: headed ? claimed.attempts : 1,
          next,
          groupSize: locked.length,
        },
        "request attempt failed",
      );
      return false;
    }
  }

  async function loop(): Promise<void> {
    while (running) {
      kicked = false;
      const free = config.workerConcurrency - inFlight.size;
      let claimed: ClaimedRequest[] = [];
      if (free > 0) {
        try {
          claimed = await queue.claim(free, config.leaseMs);
        } catch (err) {
          logger.warn({ err }, "claim failed; database unavailable?");
        }
      }
      for (const c of claimed) {
        const p = processOne(c).finally(() => {
          inFlight.delete(p);
          // The account's next request may be claimable now, here or in another worker process.
          void services.database.notify("oisr_requests").catch(() => {});
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

  const purge = () =>
    services.requests.purge(config.requestRetentionDays).catch((err) => logger.warn({ err }, "purge failed"));
  const purgeTimer = setInterval(purge, PURGE_EVERY_MS);
  purgeTimer.unref();

  const looping = loop();
  return {
    async stop() {
      running = false;
      clearInterval(purgeTimer);
      kick();
      await looping;
      await Promise.allSettled([...inFlight]);
      await unlisten().catch(() => {});
    },
  };
}
