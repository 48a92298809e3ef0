// Retiring a partition without locking its parent (partitions/retention.ts): a claim left by a pass
// that died is finished by a later one from the step the catalog shows, a live claim is left alone,
// and inserts go on while a detach waits for a reader. PGlite, or PostgreSQL with DATABASE_URL.
import { DAY_MS } from "@oisr/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { sql } from "../db/client.ts";
import type { Services } from "../services.ts";
import { enqueueRequests, insertRequestAt, useFreshServices } from "../test-services.ts";
import { ensurePartitions } from "./retention.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const ORDER = { kind: "orders", body: { orders: [{}] } };
/** Past every partition of today, as in retention.test.ts. */
const later = () => new Date(Date.now() + 31 * DAY_MS + 60_000);

beforeEach(async () => {
  await ensurePartitions(services.database, { now: new Date(), intervalMs: DAY_MS, behindMs: 2 * DAY_MS });
  await services.database.rows(sql`update oisr_partitions set detach_started_at = null`);
});

/** Today's `requests` partition, holding one finished request (so no open row keeps it). */
async function todaysPartition(): Promise<string> {
  const a = (await services.accounts.createAccount("detach")).account_id;
  const [id] = await enqueueRequests(services, a, ORDER);
  await services.database.rows(sql`update requests set status = 'succeeded' where status <> 'succeeded'`);
  const [row] = await services.database.rows<{ p: string }>(
    sql`select tableoid::regclass::text as p from requests where id = ${id as string}`,
  );
  if (!row) throw new Error("request not stored");
  return row.p;
}

const listed = async (name: string) =>
  (await services.database.rows(sql`select 1 from oisr_partitions where name = ${name}`)).length > 0;
const exists = async (name: string) =>
  (await services.database.rows<{ ok: boolean }>(sql`select to_regclass(${name}) is not null as ok`))[0]?.ok;

const claim = (name: string, ago: string) =>
  services.database.rows(
    sql`update oisr_partitions set detach_started_at = now() - ${sql.raw(`interval '${ago}'`)} where name = ${name}`,
  );

describe("a partition claimed by another pass", () => {
  it.each([
    {
      state: "claimed an hour ago and still attached (its pass died before detaching)",
      prepare: (name: string) => claim(name, "1 hour"),
      dropped: true,
    },
    {
      state: "claimed an hour ago and detached (its pass died before dropping)",
      prepare: async (name: string) => {
        await claim(name, "1 hour");
        await services.database.rows(sql`alter table requests detach partition ${sql.identifier(name)}`);
      },
      dropped: true,
    },
    {
      state: "claimed a second ago (another pass is at work on it)",
      prepare: (name: string) => claim(name, "1 second"),
      dropped: false,
    },
  ])("$state: dropped by this pass is $dropped", async ({ prepare, dropped }) => {
    const name = await todaysPartition();
    await prepare(name);
    const pass = await services.retention.run(later());
    expect(pass.tables.requests.error).toBeUndefined();
    expect(pass.tables.requests.dropped.includes(name)).toBe(dropped);
    expect(await listed(name)).toBe(!dropped);
    expect(await exists(name)).toBe(!dropped);
  });
});

describe.runIf(process.env.DATABASE_URL)("detaching beside live traffic (PostgreSQL)", () => {
  it("accepts into the parent while a detach waits for an open reader, and drops once it ends", async () => {
    const name = await todaysPartition();
    const { db } = services.database;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reading!: () => void;
    const reader = new Promise<void>((resolve) => {
      reading = resolve;
    });
    // A reader of the parent, as a feed page or a worker stage is: it holds the parent's and the
    // partitions' ACCESS SHARE locks until it ends. A plain DROP queued for the parent's ACCESS
    // EXCLUSIVE lock behind it, and every insert queued behind the DROP.
    const open = db.transaction(async (tx) => {
      await services.database.rows(sql`select count(*) from requests`, tx);
      reading();
      await held;
    });
    await reader;
    try {
      await detachBesideReader(name, open, release);
    } finally {
      release();
      await open.catch(() => {});
    }
  });
});

/** A pass far ahead while `open` reads `requests`: the accept goes through, the drop waits for it. */
async function detachBesideReader(name: string, open: Promise<void>, release: () => void): Promise<void> {
  let passDone = false;
  const pass = services.retention.run(later()).then((p) => {
    passDone = true;
    return p;
  });
  await expect
    .poll(
      async () =>
        (
          await services.database.rows<{ pending: boolean }>(
            sql`select coalesce(bool_or(inhdetachpending), false) as pending from pg_inherits`,
          )
        )[0]?.pending,
      { timeout: 10_000 },
    )
    .toBe(true);
  // The pass's first detach (of the oldest partition, made two days back) waits for the reader; an
  // accept into a partition the pass made ahead goes through meanwhile.
  const a = (await services.accounts.createAccount("beside")).account_id;
  const id = await insertRequestAt(services, a, Date.now() + 32 * DAY_MS);
  expect(passDone).toBe(false);
  release();
  await open;
  const done = await pass;
  expect(done.tables.requests.dropped).toContain(name);
  expect(await exists(name)).toBe(false);
  expect(await services.requests.get(a, id)).toBeDefined();
}
