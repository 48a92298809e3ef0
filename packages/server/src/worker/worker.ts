// The worker role: claims queued requests, applies each in one transaction, retries transient
// failures with backoff inside `processing`, buries them as `dead` after the last attempt.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { Services } from "../services.ts";
import { applyClaimed } from "./apply.ts";
import { backoffMs } from "./backoff.ts";
import { type ClaimedRequest, createQueue } from "./queue.ts";

export interface Worker {
  stop(): Promise<void>;
}

/** How often a worker deletes requests past retention and idempotency keys past 24 h. */
const PURGE_EVERY_MS = 10 * 60_000;

/** Longest sleep between queue checks when nothing wakes the worker (a missed notification, a lease expiring). */
const MAX_IDLE_MS = 1000;

export async function startWorker(deps: {
  config: Config;
  logger: Logger;
  services: Services;
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

  async function processOne(claimed: ClaimedRequest): Promise<void> {
    const log = logger.child({ requestId: claimed.id, traceId: claimed.traceId, attempt: claimed.attempts });
    const started = performance.now();
    const { metrics } = services;
    const stopTimer = metrics.processingDuration.startTimer({ kind: claimed.kind });
    try {
      const outcome = await applyClaimed(services, queue, claimed, config);
      stopTimer({ outcome });
      metrics.attempts.inc({ kind: claimed.kind, result: outcome });
      log.info(
        { kind: claimed.kind, outcome, ms: Math.round(performance.now() - started) },
        "request processed",
      );
    } catch (err) {
      const delay = backoffMs(claimed.attempts, config.retryBaseMs);
      const next = await queue
        .retryOrBury(claimed, config.maxAttempts, delay, {
          code: "processing_failed",
          message: "Processing could not complete; nothing was applied. Resubmitting is safe.",
        })
        .catch(() => "lease" as const);
      stopTimer({ outcome: "error" });
      metrics.attempts.inc({ kind: claimed.kind, result: next });
      log.warn({ err, next, delayMs: delay }, "request attempt failed");
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
