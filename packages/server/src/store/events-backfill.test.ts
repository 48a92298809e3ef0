// Migration 0009 gives the events written before it their GET /events positions: after everything
// their account had handed out, in insertion order, with the account's counter moved past them so
// new positions never collide. Run on a bare PGlite, migration by migration.
import { PGlite } from "@electric-sql/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { ulid } from "ulidx";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "../db/database.ts";

const migrations = readMigrationFiles({ migrationsFolder });
const FEED = migrations.findIndex((m) => m.sql.some((s) => s.includes('ADD COLUMN "feed_seq" bigint')));

// Event ids are `evt_<ULID>` (the later migration 0015 places events in time partitions by it and
// refuses any other id); their order here is the order of insertion, not of the ids.
const at = Date.now() - 60_000;
const [e1, e2, e3] = [`evt_${ulid(at + 1)}`, `evt_${ulid(at + 2)}`, `evt_${ulid(at + 3)}`];

const pg = new PGlite();
afterAll(() => pg.close());

async function run(index: number): Promise<void> {
  for (const statement of migrations[index]?.sql ?? []) await pg.exec(statement);
}

describe("migration 0009 (events feed positions)", () => {
  it("numbers each account's existing events after its feed counter, leaving test events out", async () => {
    expect(FEED).toBeGreaterThan(0);
    for (let i = 0; i < FEED; i++) await run(i);
    await pg.exec(`
      insert into accounts (id, name, feed_seq) values ('acc_a', 'a', 5), ('acc_b', 'b', 0), ('acc_c', 'c', 9);
      insert into events (account_id, id, type, payload) values
        ('acc_a', '${e3}', 'return.created', '{}'),
        ('acc_b', '${e1}', 'return.created', '{}'),
        ('acc_a', '${e2}', 'webhook.test', '{}'),
        ('acc_a', '${e1}', 'return.updated', '{}');`);
    await run(FEED);
    const events = await pg.query<{ id: string; account_id: string; feed_seq: number | null }>(
      "select account_id, id, feed_seq::int as feed_seq from events order by account_id, seq",
    );
    expect(events.rows).toEqual([
      { account_id: "acc_a", id: e3, feed_seq: 6 },
      { account_id: "acc_a", id: e2, feed_seq: null },
      { account_id: "acc_a", id: e1, feed_seq: 7 },
      { account_id: "acc_b", id: e1, feed_seq: 1 },
    ]);
    const accounts = await pg.query<{ id: string; feed_seq: number }>(
      "select id, feed_seq::int as feed_seq from accounts order by id",
    );
    expect(accounts.rows).toEqual([
      { id: "acc_a", feed_seq: 7 },
      { id: "acc_b", feed_seq: 1 },
      { id: "acc_c", feed_seq: 9 },
    ]);
    // Every later migration applies over these rows (0015 moves them into time partitions).
    for (let i = FEED + 1; i < migrations.length; i++) await run(i);
    const moved = await pg.query<{ n: number }>("select count(*)::int as n from events");
    expect(moved.rows[0]?.n).toBe(4);
  });
});
