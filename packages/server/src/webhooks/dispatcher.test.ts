// The dispatcher loop with an injected sender: concurrency bounds, waking on notifications, and
// shutdown that gives unfinished attempts back.
import { eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { configWith } from "../config.ts";
import { EVENTS_CHANNEL } from "../db/channels.ts";
import type { Database } from "../db/client.ts";
import { webhookDeliveries } from "../db/webhook-schema.ts";
import { insertReturnEvents } from "../outbox/test-support.ts";
import { newId } from "../store/ids.ts";
import { startDispatcher } from "./dispatcher.ts";
import type { WebhookSender } from "./http-sender.ts";
import { type AttemptResult, createDeliveryStore, createSubscriptionStore } from "./sql/index.ts";
import { sleep, useFreshDatabase, waitFor } from "./test-support.ts";

let database: Database;
useFreshDatabase((opened) => {
  database = opened;
});

const config = configWith({ webhookAllowPrivateNetworks: true, webhookRetrySchedule: [20] });
const logger = pino({ level: "silent" });

/** Emits events the way the request worker does: commit, then notify. */
async function emit(accountId: string, count: number): Promise<void> {
  await insertReturnEvents(database, accountId, count);
  await database.notify(EVENTS_CHANNEL, accountId);
}

async function subscription() {
  const accountId = newId("acc");
  const sub = await createSubscriptionStore(database).create(accountId, {
    url: "http://127.0.0.1:9/unused",
    events: ["return.created"],
  });
  return { accountId, sub };
}

describe("dispatcher", () => {
  it("delivers everything with at most 4 attempts in flight per subscription", async () => {
    const { accountId } = await subscription();
    let inFlight = 0;
    let peak = 0;
    const sent: string[] = [];
    const send: WebhookSender = async (_url, headers) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await sleep(30);
      inFlight--;
      sent.push(headers["webhook-id"] as string);
      return { ok: true, status: 200, durationMs: 30 };
    };
    const dispatcher = await startDispatcher({ config, database, logger, send });
    try {
      await emit(accountId, 12);
      await waitFor(() => sent.length >= 12 || undefined, "all 12 deliveries");
      expect(new Set(sent).size).toBe(12);
      expect(peak).toBeLessThanOrEqual(4);
      expect(peak).toBeGreaterThan(1);
    } finally {
      await dispatcher.stop();
    }
  });

  it("keeps OISR_WEBHOOK_SUBSCRIPTION_CONCURRENCY attempts in flight per subscription", async () => {
    const { accountId } = await subscription();
    let inFlight = 0;
    let peak = 0;
    let sent = 0;
    const send: WebhookSender = async () => {
      peak = Math.max(peak, ++inFlight);
      await sleep(30);
      inFlight--;
      sent++;
      return { ok: true, status: 200, durationMs: 30 };
    };
    const dispatcher = await startDispatcher({
      config: { ...config, webhookSubscriptionConcurrency: 2 },
      database,
      logger,
      send,
    });
    try {
      await emit(accountId, 8);
      await waitFor(() => sent >= 8 || undefined, "all 8 deliveries");
      expect(peak).toBe(2);
    } finally {
      await dispatcher.stop();
    }
  });

  it("waits out a receiver's Retry-After before the next attempt to that subscription", async () => {
    const { accountId } = await subscription();
    const at: number[] = [];
    const send: WebhookSender = async () => {
      at.push(Date.now());
      return at.length === 1
        ? { ok: false, status: 429, error: "HTTP 429 Too Many Requests", durationMs: 1, retryAfterSeconds: 1 }
        : { ok: true, status: 200, durationMs: 1 };
    };
    const dispatcher = await startDispatcher({ config, database, logger, send });
    try {
      await emit(accountId, 1);
      await waitFor(() => at.length >= 1 || undefined, "the first attempt");
      // A second event during the pause waits too (the schedule alone would retry after 20 ms).
      await emit(accountId, 1);
      await waitFor(() => at.length >= 3 || undefined, "the retry and the second event");
      const [first, ...rest] = at as [number, ...number[]];
      for (const t of rest) expect(t - first).toBeGreaterThanOrEqual(1000);
    } finally {
      await dispatcher.stop();
    }
  });

  it("retries a failed attempt when it comes due", async () => {
    const { accountId } = await subscription();
    const results: AttemptResult[] = [
      { ok: false, status: 503, error: "HTTP 503 Service Unavailable", durationMs: 1 },
      { ok: true, status: 200, durationMs: 1 },
    ];
    let calls = 0;
    const send: WebhookSender = async () => results[calls++] ?? { ok: true, status: 200, durationMs: 1 };
    const dispatcher = await startDispatcher({ config, database, logger, send });
    try {
      await emit(accountId, 1);
      await waitFor(() => calls >= 2 || undefined, "the retry");
    } finally {
      await dispatcher.stop();
    }
  });

  it("gives an attempt cut short by stop() back, due at once and not counted as failed", async () => {
    const { accountId, sub } = await subscription();
    let started = false;
    const send: WebhookSender = (_url, _headers, _body, options) =>
      new Promise<AttemptResult>((resolve) => {
        started = true;
        options.signal?.addEventListener("abort", () =>
          resolve({ ok: false, error: "aborted", durationMs: 1 }),
        );
      });
    const dispatcher = await startDispatcher({ config, database, logger, send, stopGraceMs: 50 });
    await emit(accountId, 1);
    await waitFor(() => started || undefined, "the attempt to start");
    await dispatcher.stop();
    const rows = await database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.subscriptionId, sub.id));
    expect(rows).toEqual([
      expect.objectContaining({ attempt: 1, status: "pending", leaseOwner: null, attemptedAt: null }),
    ]);

    // The next dispatcher makes that attempt.
    let delivered = 0;
    const next = await startDispatcher({
      config,
      database,
      logger,
      send: async () => ({ ok: true, status: 200, durationMs: 1 + delivered++ }),
    });
    try {
      await waitFor(() => delivered > 0 || undefined, "the released attempt");
    } finally {
      await next.stop();
    }
  });

  describe("a receiver's Retry-After puts back the attempts claimed and not sent yet", () => {
    const slowDown: AttemptResult = {
      ok: false,
      status: 429,
      error: "HTTP 429 Too Many Requests",
      durationMs: 1,
      retryAfterSeconds: 30,
    };
    const attemptsOf = (subscriptionId: string) =>
      database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.subscriptionId, subscriptionId));
    const ms = (iso: string | null) => (iso ? new Date(iso).getTime() : Number.NaN);

    it("heard from its own attempt: the others to that receiver stay unsent, due when the pause ends", async () => {
      const { accountId, sub } = await subscription();
      const sent: string[] = [];
      let answered: () => void = () => {};
      const firstAnswered = new Promise<void>((resolve) => {
        answered = resolve;
      });
      let calls = 0;
      // The first attempt is answered 429 at once; the others are still resolving DNS (as sendWebhook
      // does before writing the request) when that answer comes, then look at the hold.
      const send: WebhookSender = async (_url, headers, _body, options) => {
        if (calls++ === 0) {
          setTimeout(answered, 0);
          sent.push(headers["webhook-id"] as string);
          return slowDown;
        }
        await firstAnswered;
        await sleep(20);
        if (options.hold?.aborted) return null;
        sent.push(headers["webhook-id"] as string);
        return { ok: true, status: 200, durationMs: 1 };
      };
      const dispatcher = await startDispatcher({
        config: { ...config, webhookSubscriptionConcurrency: 3 },
        database,
        logger,
        send,
      });
      const started = Date.now();
      try {
        await emit(accountId, 3);
        await waitFor(async () => {
          const rows = await attemptsOf(sub.id);
          return rows.length === 4 && rows.every((r) => r.leaseOwner === null) ? true : undefined;
        }, "the 429 recorded and the two others put back");
      } finally {
        await dispatcher.stop();
      }
      expect(sent).toHaveLength(1);
      const rows = await attemptsOf(sub.id);
      expect(rows.filter((r) => r.status === "failed")).toEqual([
        expect.objectContaining({ responseStatus: 429, retryAfterSeconds: 30 }),
      ]);
      // The 429's retry and the two put back: pending, never attempted, due about 30 s on.
      const pending = rows.filter((r) => r.status === "pending");
      expect(pending).toHaveLength(3);
      for (const r of pending) {
        expect(r).toMatchObject({ attemptedAt: null, leaseOwner: null, responseStatus: null });
        expect(ms(r.nextAttemptAt) - started).toBeGreaterThan(25_000);
        expect(ms(r.nextAttemptAt) - started).toBeLessThan(35_000);
      }
    });

    it("heard from another dispatcher's attempt (WEBHOOK_PAUSES_CHANNEL)", async () => {
      const { accountId, sub } = await subscription();
      const holds: AbortSignal[] = [];
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let sent = 0;
      const send: WebhookSender = async (_url, _headers, _body, options) => {
        if (options.hold) holds.push(options.hold);
        await gate;
        if (options.hold?.aborted) return null;
        sent++;
        return { ok: true, status: 200, durationMs: 1 };
      };
      const dispatcher = await startDispatcher({
        config: { ...config, webhookSubscriptionConcurrency: 2 },
        database,
        logger,
        send,
      });
      try {
        await emit(accountId, 2);
        await waitFor(() => holds.length === 2 || undefined, "both attempts on their way");
        // Another process claims a third attempt to the same receiver and is answered 429.
        await emit(accountId, 1);
        const other = createDeliveryStore(database, "other-process");
        const third = await waitFor(async () => {
          const [claimed] = await other.claim(1, 3, 60_000);
          return claimed?.subscriptionId === sub.id ? claimed : undefined;
        }, "the third attempt, claimed elsewhere");
        const policy = { schedule: [1000], disableAfterFailures: 1000, disableAfterMs: 0 };
        expect(await other.record(third, slowDown, policy)).toBe("retry");
        await waitFor(() => holds.every((h) => h.aborted) || undefined, "the pause to reach this dispatcher");
      } finally {
        release();
        await dispatcher.stop();
      }
      expect(sent).toBe(0);
      const pending = (await attemptsOf(sub.id)).filter((r) => r.status === "pending");
      expect(pending).toHaveLength(3); // the two put back, and the 429's retry
      for (const r of pending) expect(r).toMatchObject({ attemptedAt: null, leaseOwner: null });
    });
  });
});
