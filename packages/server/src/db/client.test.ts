// LISTEN/NOTIFY through Database on each driver: workers and the webhook dispatcher wake on
// notifications that statements raise with pg_notify, so both drivers must deliver those, only
// on commit. PGlite always; PostgreSQL as well when DATABASE_URL is set.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, sql } from "./client.ts";
import { freshDatabase } from "./fresh-database.ts";

interface Heard {
  payloads: string[];
  /** Resolves once `payload` has been heard; notifications arrive in commit order. */
  until(payload: string): Promise<void>;
  stop(): Promise<void>;
}

async function hear(database: Database, channel: string): Promise<Heard> {
  const payloads: string[] = [];
  const waiting = new Map<string, () => void>();
  const stop = await database.listen(channel, (payload) => {
    payloads.push(payload);
    waiting.get(payload)?.();
  });
  return {
    payloads,
    stop,
    until: (payload) =>
      payloads.includes(payload)
        ? Promise.resolve()
        : new Promise<void>((resolve, reject) => {
            const timer = setTimeout(
              () => reject(new Error(`${channel}: no "${payload}" within 5 s`)),
              5_000,
            );
            waiting.set(payload, () => {
              clearTimeout(timer);
              resolve();
            });
          }),
  };
}

const drivers: { name: string; open(): Promise<{ database: Database; drop(): Promise<void> }> }[] = [
  {
    name: "pglite",
    open: async () => ({ database: await openDatabase({ dataDir: "memory://" }), drop: async () => {} }),
  },
];
const adminUrl = process.env.DATABASE_URL;
if (adminUrl)
  drivers.push({
    name: "postgres",
    open: async () => {
      const fresh = await freshDatabase(adminUrl);
      return { database: await openDatabase({ databaseUrl: fresh.url }), drop: fresh.drop };
    },
  });

describe.each(drivers)("notify/listen on $name", ({ name, open }) => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await open());
  });
  afterAll(async () => {
    await database?.close();
    await drop?.();
  });

  const notifyIn = (channel: string, payload: string, executor?: Parameters<Database["rows"]>[1]) =>
    database.rows(
      sql`with x as (select 1) select pg_notify(${channel}, ${payload}) from x`,
      executor ?? database.db,
    );

  it("delivers a pg_notify raised inside a statement, and notify() alike", async () => {
    const heard = await hear(database, "oisr_test_statement");
    await notifyIn("oisr_test_statement", "from-sql");
    await heard.until("from-sql");
    await database.notify("oisr_test_statement", "from-js");
    await heard.until("from-js");
    expect(heard.payloads).toEqual(["from-sql", "from-js"]);
    await heard.stop();
  });

  it("delivers a notification from a committed transaction, never one from a rolled-back one", async () => {
    const heard = await hear(database, "oisr_test_tx");
    await database.db.transaction(async (tx) => {
      await notifyIn("oisr_test_tx", "committed", tx);
    });
    await database.db
      .transaction(async (tx) => {
        await notifyIn("oisr_test_tx", "rolled-back", tx);
        throw new Error("roll back");
      })
      .catch(() => {});
    await database.notify("oisr_test_tx", "marker");
    await heard.until("marker");
    expect(heard.payloads).toEqual(["committed", "marker"]);
    await heard.stop();
  });

  it("stops delivering to a listener once it has unlistened, other listeners still hear", async () => {
    const gone = await hear(database, "oisr_test_unlisten");
    const staying = await hear(database, "oisr_test_unlisten");
    await database.notify("oisr_test_unlisten", "before");
    await Promise.all([gone.until("before"), staying.until("before")]);
    await gone.stop();
    await notifyIn("oisr_test_unlisten", "after");
    await staying.until("after");
    expect(gone.payloads).toEqual(["before"]);
    expect(staying.payloads).toEqual(["before", "after"]);
    await staying.stop();
  });

  if (name === "pglite")
    it("refuses a channel name PGlite would case-fold", async () => {
      await expect(database.listen("OISR_Requests", () => {})).rejects.toThrow(/lowercase/);
    });
});
