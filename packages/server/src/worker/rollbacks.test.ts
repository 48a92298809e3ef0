// Issue 30: with two API and two worker processes on one PostgreSQL, a few requests once showed
// `attempts: 2` although nothing was killed: a stage had rolled back and been retried, silently.
// Every rollback is now counted (oisr_stage_rollbacks_total, by reason). This runs that shape long
// enough to matter (two request stores accepting concurrently, as two API processes do, and two
// workers, each over its own connection pool) and asserts the count, not a time: 0 rollbacks, and
// every request succeeded on its first attempt.
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { sql } from "../db/client.ts";
import { openServices, type Services } from "../services.ts";
import { oneOrderCall } from "../test-services.ts";
import { freshDatabaseEnv } from "../webhooks/test-support.ts";
import { startWorker, type Worker } from "./worker.ts";

const REASON = "(PostgreSQL only: PGlite has one connection, so nothing can deadlock)";
const ROUNDS = 5;
const PER_ROUND = 600;
const BURST = 50;

describe.skipIf(!process.env.DATABASE_URL)(
  `two accepting stores and two workers on one database ${REASON}`,
  () => {
    let drop: (() => Promise<void>) | undefined;
    const opened: Services[] = [];
    const workers: Worker[] = [];

    beforeAll(async () => {
      const db = await freshDatabaseEnv();
      drop = db.drop;
      for (let i = 0; i < 4; i++)
        opened.push(await openServices({ databaseUrl: db.env.DATABASE_URL, dataDir: "memory://" }));
      for (const services of opened.slice(2))
        workers.push(
          await startWorker({
            config: loadConfig({ DATABASE_URL: db.env.DATABASE_URL as string, OISR_WORKER_CONCURRENCY: "2" }),
            logger: pino({ level: "silent" }),
            services,
          }),
        );
    });

    afterAll(async () => {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(opened.map((s) => s.database.close()));
      await drop?.();
    });

    it(`${ROUNDS} × ${PER_ROUND} one-order requests of two accounts in bursts across both stores: 0 stage rollbacks, every request applied on its first attempt`, {
      timeout: 300_000,
    }, async () => {
      const [a, b] = opened as [Services, Services, Services, Services];
      const accounts = [
        (await a.accounts.createAccount("rollbacks-1")).account_id,
        (await a.accounts.createAccount("rollbacks-2")).account_id,
      ];
      // Request events are subscribed to, so the stages write events that await fan-out too.
      for (const accountId of accounts)
        await a.webhookSubscriptions.create(accountId, {
          url: "https://example.test/hook",
          events: ["request.succeeded", "order.created"],
        });
      let n = 0;
      // Half the calls carry a key: their batches are transactions (idempotency claim, then insert).
      const call = (accountId: string, keyed: boolean) => {
        n += 1;
        return oneOrderCall(accountId, `RB-${n}`, keyed ? `k-${n}` : null);
      };
      for (let round = 0; round < ROUNDS; round++)
        for (let sent = 0; sent < PER_ROUND; sent += BURST)
          await Promise.all(
            Array.from({ length: BURST }, (_, i) =>
              (i % 2 ? b : a).requests.accept(call(accounts[i % 4 < 2 ? 0 : 1] as string, i % 3 === 0)),
            ),
          );

      const open = async () =>
        Number(
          (
            await a.database.rows<{ n: string }>(
              sql`select count(*) as n from requests where status in ('pending', 'processing')`,
            )
          )[0]?.n,
        );
      while ((await open()) > 0) await new Promise((r) => setTimeout(r, 50));

      const rollbacks = (
        await Promise.all(opened.slice(2).map(async (s) => (await s.metrics.stageRollbacks.get()).values))
      )
        .flat()
        .filter((v) => v.value > 0)
        .map((v) => `${v.labels.reason}: ${v.value}`);
      expect(rollbacks).toEqual([]);
      const byOutcome = await a.database.rows<{ status: string; attempts: number; n: string }>(
        sql`select status, attempts, count(*) as n from requests group by status, attempts`,
      );
      expect(byOutcome.map((r) => ({ ...r, n: Number(r.n) }))).toEqual([
        { status: "succeeded", attempts: 1, n: ROUNDS * PER_ROUND },
      ]);
    });
  },
);
