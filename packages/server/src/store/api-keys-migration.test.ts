// Migration 0011 turns every token made before API keys into a key of its own: every permission,
// revoked if the token was, its creation time kept, no prefix (only the hash was stored), and an id
// that is a ULID of that time. Run on a bare PGlite, migration by migration, with tokens stored by
// the schema before it; then the new authorize statement must treat them as the old one did.
import { PGlite } from "@electric-sql/pglite";
import { PERMISSIONS } from "@oisr/contract";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { decodeTime } from "ulidx";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "../db/database.ts";

const migrations = readMigrationFiles({ migrationsFolder });
const KEYS = migrations.findIndex((m) => m.sql.some((s) => s.includes('CREATE TABLE "api_keys"')));

const pg = new PGlite();
afterAll(() => pg.close());

async function run(index: number): Promise<void> {
  for (const statement of migrations[index]?.sql ?? []) await pg.exec(statement);
}

describe("migration 0011 (API keys)", () => {
  it("makes each existing token a key holding every permission, revoked with its token", async () => {
    expect(KEYS).toBeGreaterThan(0);
    for (let i = 0; i < KEYS; i++) await run(i);
    await pg.exec(`
      insert into accounts (id, name) values ('acc_a', 'a'), ('acc_b', 'b');
      insert into api_tokens (token_hash, account_id, created_at, revoked_at) values
        ('hash_live', 'acc_a', '2025-01-02T03:04:05.678Z', null),
        ('hash_revoked', 'acc_a', '2025-02-03T04:05:06.789Z', '2025-03-01T00:00:00Z'),
        ('hash_other', 'acc_b', '2025-01-02T03:04:05.678Z', null);
      insert into requests (account_id, id, kind, status, trace_id, body, item_count)
        values ('acc_a', '0195938b-9d40-7000-8000-000000000001', 'orders', 'succeeded', 't', '{}', 0);`);
    await run(KEYS);

    const keys = await pg.query<{
      token_hash: string;
      id: string;
      account_id: string;
      name: string;
      permissions: string[];
      prefix: string | null;
      created_by: string | null;
      created_ms: number;
      revoked_ms: number | null;
      expires_at: string | null;
      last_used_at: string | null;
      rotated_at: string | null;
    }>(
      `select t.token_hash, k.id, k.account_id, k.name, k.permissions, k.prefix, k.created_by,
              extract(epoch from k.created_at)::float8 * 1000 as created_ms,
              extract(epoch from k.revoked_at)::float8 * 1000 as revoked_ms,
              k.expires_at, k.last_used_at, k.rotated_at
         from api_tokens t join api_keys k on k.id = t.key_id order by t.token_hash`,
    );
    expect(keys.rows.map((k) => k.token_hash)).toEqual(["hash_live", "hash_other", "hash_revoked"]);
    const [live, other, revoked] = keys.rows;
    for (const key of keys.rows) {
      expect(key).toMatchObject({
        name: "Token made before API keys",
        permissions: [...PERMISSIONS],
        prefix: null,
        created_by: null,
        expires_at: null,
        last_used_at: null,
        rotated_at: null,
      });
      expect(key.id).toMatch(/^key_[0-9A-HJKMNP-TV-Z]{26}$/);
      // A ULID of the token's creation: keys list in the order their tokens were made.
      expect(decodeTime(key.id.slice(4))).toBe(key.created_ms);
    }
    expect(live).toMatchObject({ account_id: "acc_a", created_ms: Date.parse("2025-01-02T03:04:05.678Z") });
    expect(live?.revoked_ms).toBeNull();
    expect(other?.account_id).toBe("acc_b");
    // Same creation time, yet ids of their own.
    expect(other?.id).not.toBe(live?.id);
    expect(revoked?.revoked_ms).toBe(Date.parse("2025-03-01T00:00:00Z"));
    // Requests accepted before keys show none.
    const requests = await pg.query<{ api_key_id: string | null }>("select api_key_id from requests");
    expect(requests.rows).toEqual([{ api_key_id: null }]);
    // Every secret now has its key.
    await expect(
      pg.exec(`insert into api_tokens (token_hash, account_id) values ('hash_keyless', 'acc_a')`),
    ).rejects.toThrow(/key_id/);

    for (let i = KEYS + 1; i < migrations.length; i++) await run(i);
    const authorized = await pg.query<{ i: number; key_id: string; verdict: string }>(
      `select i, key_id, verdict from oisr_authorize_keys(
         '{hash_live,hash_revoked,hash_other}'::text[], '{"orders_read","orders_read",""}'::text[],
         '{"orders:read","orders:read",""}'::text[], '{"orders_read": 150}'::jsonb, ${Date.now()}::bigint)
        where i is not null order by i`,
    );
    // The revoked token's key has no row: 401 as before.
    expect(authorized.rows).toEqual([
      { i: 1, key_id: live?.id, verdict: "ok" },
      { i: 3, key_id: other?.id, verdict: "ok" },
    ]);
  });
});
