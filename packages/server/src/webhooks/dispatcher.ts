// The webhook dispatcher (worker role): fans outbox events out into deliveries and sends them,
// with bounded concurrency overall and per subscription. It wakes on EVENTS_CHANNEL notifications
// (db/channels.ts; sent by whoever commits events) and on a timer for retries coming due. It hears
// WEBHOOK_PAUSES_CHANNEL too: a receiver's Retry-After, recorded by any dispatcher, puts back the
// attempts of that subscription this one claimed and has not sent yet (sql/pauses.ts).
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import {
  backpressurePauseMs,
  DEFAULT_DISABLE_POLICY,
  type DisablePolicy,
  signedWebhookHeaders,
} from "@oisr/contract";
import type { Logger } from "pino";
import { type Config, webhookTiming } from "../config.ts";
import { EVENTS_CHANNEL, WEBHOOK_PAUSES_CHANNEL } from "../db/channels.ts";
import type { Database } from "../db/client.ts";
import { untracedDeliveryTraceparent } from "../telemetry/traceparent.ts";
import { startDeliverySpan } from "../telemetry/webhook-spans.ts";
import { sendWebhook, type WebhookSender } from "./http-sender.ts";
import {
  type AttemptResult,
  type ClaimedDelivery,
  createDeliveryStore,
  fanOut,
  PausedSubscriptions,
  type PauseNotice,
  pauseNotice,
  pruneRecoveries,
  type RecordOutcome,
  runRecoveryStep,
  type Succeeded,
} from "./sql/index.ts";
import type { Resolver } from "./ssrf-guard.ts";

export interface DispatcherOptions {
  /** Resolved once, in config.ts (configWith fills in what a test leaves out). */
  config: Pick<
    Config,
    | "webhookAllowPrivateNetworks"
    | "webhookRetrySchedule"
    | "webhookSubscriptionConcurrency"
    | "webhookLeaseMs"
    | "requestRetentionDays"
  >;
  database: Database;
  logger: Logger;
  /** Attempts in flight in this process. */
  maxInFlight?: number;
  /** How long stop() lets attempts in flight finish before aborting and releasing them. */
  stopGraceMs?: number;
  disablePolicy?: DisablePolicy;
  /** Rows deleted per statement when pruning. */
  pruneBatchSize?: number;
  send?: WebhookSender;
  resolve?: Resolver;
  /** Counts each recorded attempt by outcome (Prometheus). */
  onAttempt?: (outcome: "succeeded" | "failed") => void;
}

/** An attempt on its way: `abort` cuts it short (shutdown), `hold` keeps it from going out (a pause). */
interface InFlight {
  claimed: ClaimedDelivery;
  abort: AbortController;
  hold: AbortController;
}

export interface Dispatcher {
  stop(): Promise<void>;
}

/** Longest sleep between checks when nothing wakes the dispatcher (a missed notification, a lease expiring). */
const MAX_IDLE_MS = 1000;
const BUSY_RECHECK_MS = 250;
/**
 * A finished attempt frees one slot and kicks the loop. A claim costs about the same for 1 attempt
 * as for 8 (its probes visit every subscription in every partition: ~50 x 36 index descents), so
 * while fewer than half the slots are free the loop waits this long for more to finish first.
 */
const CLAIM_GATHER_MS = 20;
/** Successes wait this long for others to share their transaction (sql/succeeded.ts); a full batch goes at once. */
const RECORD_BATCH_MS = 2;
const RECORD_BATCH_MAX = 32;
const PRUNE_EVERY_MS = 3_600_000;

export async function startDispatcher(options: DispatcherOptions): Promise<Dispatcher> {
  const { config, database } = options;
  const maxInFlight = options.maxInFlight ?? 16;
  // Attempts in flight per subscription, across every dispatcher: one slow receiver cannot take every slot.
  const perSubscription = config.webhookSubscriptionConcurrency;
  const { leaseMs, timeoutMs } = webhookTiming(config);
  const send = options.send ?? sendWebhook;
  const policy = {
    ...(options.disablePolicy ?? DEFAULT_DISABLE_POLICY),
    schedule: config.webhookRetrySchedule,
  };
  const dispatcherId = `${hostname()}:${process.pid}:whd:${randomBytes(3).toString("hex")}`;
  const logger = options.logger.child({ dispatcher: dispatcherId });
  const store = createDeliveryStore(database, dispatcherId);
  const inFlight = new Map<Promise<void>, InFlight>();
  const paused = new PausedSubscriptions();
  let running = true;
  let wake: (() => void) | undefined;
  // A kick that arrives while the loop is busy is remembered, so a notification is never lost.
  let kicked = false;
  const kick = () => {
    if (wake) wake();
    else kicked = true;
  };
  // Fan-out and recovery steps run when events were committed (EVENTS_CHANNEL), when the last pass
  // found work for them, and at least every MAX_IDLE_MS (a missed notification, a running
  // recovery): not after every finished attempt, which only frees a slot for the claim.
  let outboxDue = true;
  let lastOutboxPass = 0;
  const onEvents = () => {
    outboxDue = true;
    kick();
  };

  /** A receiver's pause, heard from this dispatcher's own record() or another's: holds back what is not sent yet. */
  function pause(notice: PauseNotice): void {
    paused.add(notice);
    const key = PausedSubscriptions.key(notice);
    for (const attempt of inFlight.values())
      if (PausedSubscriptions.key(attempt.claimed) === key) attempt.hold.abort();
  }

  const unlisten = await database.listen(EVENTS_CHANNEL, onEvents);
  const unlistenPauses = await database
    .listen(WEBHOOK_PAUSES_CHANNEL, (payload) => {
      const notice = pauseNotice.read(payload);
      if (notice) pause(notice);
    })
    .catch(async (err: unknown) => {
      await unlisten().catch(() => {});
      throw err;
    });

  let successes: { done: Succeeded; settle: (o: RecordOutcome) => void; fail: (e: unknown) => void }[] = [];
  let flushTimer: ReturnType<typeof setTimeout> | undefined;
  function flushSuccesses(): void {
    clearTimeout(flushTimer);
    flushTimer = undefined;
    const batch = successes;
    successes = [];
    store.recordSucceeded(batch.map((b) => b.done)).then(
      (recorded) => {
        for (const b of batch) b.settle(recorded.has(b.done.claimed.id) ? "succeeded" : "lease_lost");
      },
      (err: unknown) => {
        for (const b of batch) b.fail(err);
      },
    );
  }
  /** A 2xx, recorded with the others finishing within RECORD_BATCH_MS: one transaction for all of them. */
  function recordSuccess(
    claimed: ClaimedDelivery,
    result: AttemptResult & { ok: true },
  ): Promise<RecordOutcome> {
    return new Promise((settle, fail) => {
      successes.push({ done: { claimed, result, at: new Date() }, settle, fail });
      if (successes.length >= RECORD_BATCH_MAX) flushSuccesses();
      else flushTimer ??= setTimeout(flushSuccesses, RECORD_BATCH_MS);
    });
  }

  /** Gives a claimed attempt back unsent when its subscription is paused; false when it is not. */
  async function putBack(claimed: ClaimedDelivery, log: Logger): Promise<boolean> {
    const until = paused.until(claimed);
    if (until === undefined) return false;
    await store.release(claimed, until);
    log.debug(
      { pausedUntil: new Date(until).toISOString() },
      "webhook attempt put back: the receiver paused",
    );
    return true;
  }

  async function deliver({ claimed, abort, hold }: InFlight): Promise<void> {
    const log = logger.child({
      deliveryId: claimed.id,
      eventId: claimed.eventId,
      subscriptionId: claimed.subscriptionId,
      attempt: claimed.attempt,
    });
    try {
      // The payload as stored (servedEventBody fills in an old one's api_key_id); the signature covers these bytes.
      const body = JSON.stringify(claimed.payload);
      const headers = await signedWebhookHeaders({
        id: claimed.eventId,
        body,
        secrets: claimed.secrets,
        now: new Date(),
      });
      // Claimed before a pause committed (the claim skips paused subscriptions): it goes back, not out.
      if (await putBack(claimed, log)) return;
      // With tracing on, the attempt is a CLIENT span and the receiver gets its traceparent; off,
      // one carrying the trace id of the request that caused the event.
      const span = startDeliverySpan({ ...claimed, deliveryId: claimed.id });
      const traceparent = span?.headers.traceparent ?? untracedDeliveryTraceparent(claimed.traceparent);
      const result = await send(claimed.url, { ...headers, traceparent }, body, {
        allowPrivateNetworks: config.webhookAllowPrivateNetworks,
        timeoutMs,
        resolve: options.resolve,
        signal: abort.signal,
        hold: hold.signal,
      });
      if (result === null) {
        // Held back before its request went out: the pause that held it is in `paused`.
        span?.end({ ok: false, error: "put back: the receiver paused the subscription" });
        if (!(await putBack(claimed, log))) await store.release(claimed);
        return;
      }
      span?.end(result);
      // This dispatcher's other attempts to the receiver hear its pause now, not at the NOTIFY's round trip.
      const pauseMs = result.ok ? 0 : backpressurePauseMs(result.retryAfterSeconds);
      if (pauseMs > 0) pause({ ...claimed, untilMs: Date.now() + pauseMs });
      if (abort.signal.aborted && !result.ok) {
        // Cut short by stop(): not the receiver's fault, so it is neither counted nor recorded.
        await store.release(claimed);
        return;
      }
      const next = result.ok
        ? await recordSuccess(claimed, result)
        : await store.record(claimed, result, policy);
      options.onAttempt?.(result.ok ? "succeeded" : "failed");
      log[result.ok ? "debug" : "info"](
        {
          status: result.status,
          error: result.ok ? undefined : result.error,
          ms: Math.round(result.durationMs),
          next,
        },
        "webhook attempt",
      );
    } catch (err) {
      // A database error while recording: the lease runs out and the attempt is made again (at-least-once).
      log.warn({ err }, "webhook attempt could not be recorded");
    }
  }

  let lastPrune = 0;
  let pruning: Promise<void> | undefined;
  /**
   * Keeps recoveries to the retention period (retention.ts), hourly in every dispatcher, beside
   * the loop. Attempts and outbox events are time-partitioned and go with their partitions
   * (partitions/retention.ts, decision 020); recoveries are one row per POST …/recover, too few
   * to partition.
   */
  function pruneNow(): void {
    if (pruning || Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    // Recoveries follow the request records' retention (30 days by default).
    const retentionDays = config.requestRetentionDays;
    const batch = { batchSize: options.pruneBatchSize, shouldStop: () => !running };
    pruning = (async () => {
      const recoveries = await pruneRecoveries(database, retentionDays, batch);
      if (recoveries > 0) logger.info({ recoveries }, "old webhook recoveries pruned");
    })()
      .catch((err) => logger.warn({ err }, "webhook history prune failed"))
      .finally(() => {
        pruning = undefined;
      });
  }

  async function loop(): Promise<void> {
    while (running) {
      kicked = false;
      pruneNow();
      if (!outboxDue && Date.now() - lastOutboxPass >= MAX_IDLE_MS) outboxDue = true;
      // Woken by a finished attempt only, with most slots busy: gather a few more before claiming.
      if (!outboxDue && inFlight.size > 0 && maxInFlight - inFlight.size < Math.ceil(maxInFlight / 2))
        await new Promise((resolve) => setTimeout(resolve, CLAIM_GATHER_MS));
      let fanned = 0;
      let recovering = false;
      let claimed: ClaimedDelivery[] = [];
      const free = maxInFlight - inFlight.size;
      try {
        if (outboxDue) {
          outboxDue = false;
          lastOutboxPass = Date.now();
          fanned = (await fanOut(database)).events;
          // One step of a running recovery (recoveries.ts) per pass: a large window is queued a batch at a time.
          recovering = await runRecoveryStep(database);
          if (fanned > 0 || recovering) outboxDue = true;
        }
        if (free > 0) claimed = await store.claim(free, perSubscription, leaseMs);
      } catch (err) {
        logger.warn({ err }, "webhook dispatch failed; database unavailable?");
      }
      for (const c of claimed) {
        const attempt: InFlight = { claimed: c, abort: new AbortController(), hold: new AbortController() };
        const p: Promise<void> = deliver(attempt).finally(() => {
          inFlight.delete(p);
          kick();
        });
        inFlight.set(p, attempt);
      }
      if (!running) break;
      if (fanned > 0 || recovering || (free > 0 && claimed.length === free)) continue;
      // Every slot busy: a finishing attempt kicks us; nothing to ask the database until then.
      const dueIn = free > 0 ? await store.nextDueInMs().catch(() => null) : null;
      // Due now yet not claimed: that subscription's slots are busy (a finishing attempt kicks us) or
      // another dispatcher holds the rows; look again soon rather than spin.
      const sleep =
        dueIn === null ? MAX_IDLE_MS : dueIn === 0 ? BUSY_RECHECK_MS : Math.min(MAX_IDLE_MS, dueIn);
      if (kicked) {
        kicked = false;
        continue;
      }
      const timedOut = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), Math.max(sleep, 5));
        wake = () => {
          clearTimeout(timer);
          resolve(false);
        };
      });
      wake = undefined;
      // Nothing woke us: look at the outbox too (a notification may have been missed).
      if (timedOut) outboxDue = true;
    }
  }

  const looping = loop();
  return {
    async stop() {
      running = false;
      kick();
      await looping;
      await pruning;
      const all = [...inFlight.keys()];
      const grace = setTimeout(() => {
        for (const attempt of inFlight.values()) attempt.abort.abort();
      }, options.stopGraceMs ?? 2000);
      await Promise.allSettled(all);
      clearTimeout(grace);
      await unlisten().catch(() => {});
      await unlistenPauses().catch(() => {});
    },
  };
}
