// API keys across processes (decision 013, "Revocation and expiry bound: zero"): no process caches
// keys, so a key revoked, or a secret ended by a rotation, through one API process is refused by
// another on its very next call. Two API processes on one PostgreSQL database, straight and (with
// OISR_PGBOUNCER_URL) through PgBouncer in transaction mode. PostgreSQL only: PGlite lives in one
// process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  clientWith,
  expectExpired,
  expectForbidden,
  expectUnauthorized,
  makeKey,
  ownKeyId,
} from "../src/api-keys.ts";
import { type Client, client, expectProblem } from "../src/harness.ts";
import { type Minter, systemAt } from "../src/processes.ts";
import {
  accountMinter,
  cli,
  freshDatabase,
  pooledUrl,
  type SpawnedServer,
  type System,
  spawnServer,
} from "../src/targets.ts";

const adminUrl = process.env.DATABASE_URL;
const poolerUrl = process.env.OISR_PGBOUNCER_URL;
const REASON = "(PostgreSQL only: needs DATABASE_URL, PGlite cannot be shared by processes)";

const TOPOLOGIES: { name: string; env(directUrl: string): Record<string, string> }[] = [
  { name: "two API processes straight on PostgreSQL", env: (url) => ({ DATABASE_URL: url }) },
  ...(poolerUrl
    ? [
        {
          name: "two API processes through PgBouncer (transaction pooling)",
          env: (url: string) => ({
            DATABASE_URL: pooledUrl(url, poolerUrl),
            OISR_DATABASE_POOLING: "transaction",
            OISR_LISTEN_DATABASE_URL: url,
            OISR_ROLE: "api",
          }),
        },
      ]
    : []),
];

describe.skipIf(!adminUrl).each(TOPOLOGIES)(`API keys across processes: $name ${REASON}`, (topology) => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let minter: Minter;
  const servers: SpawnedServer[] = [];
  let systems: System[] = [];

  beforeAll(async () => {
    db = await freshDatabase(adminUrl as string);
    const env = {
      ...topology.env(db.url),
      OISR_RATE_LIMITS: JSON.stringify({ orders_read: 100_000, api_keys: 100_000 }),
    };
    // One first, so the migrations run once.
    servers.push(spawnServer(env));
    await (servers[0] as SpawnedServer).ready;
    servers.push(spawnServer(env));
    const urls = await Promise.all(servers.map((s) => s.ready));
    minter = await accountMinter(db.url);
    systems = urls.map((url) => systemAt(url, db.url, minter));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await minter?.close();
    await db?.drop();
  });

  /** A fresh account's admin key, as a client on process A and on process B. */
  async function adminOnBoth(): Promise<[Client, Client]> {
    const account = await (systems[0] as System).createAccount();
    return [client(systems[0] as System, account), client(systems[1] as System, account)];
  }

  it("a key made through A works on B at once with its permissions; revoked through A, its very next call on B is 401", async () => {
    const [adminA, adminB] = await adminOnBoth();
    for (let round = 0; round < 5; round++) {
      const { key } = await makeKey(adminA, ["orders:read"], { name: `round ${round}` });
      const onB = clientWith(adminB, key.secret);
      // Used on B first (several times), so anything B could remember about it is warm.
      for (let i = 0; i < 3; i++) expect((await onB.get("/orders")).status).toBe(200);
      expectForbidden(await onB.get("/returns"), "returns:read", key.id);
      const revoked = await adminA.request("DELETE", `/api_keys/${key.id}`);
      expect(revoked.status, revoked.text).toBe(200);
      expectUnauthorized(await onB.get("/orders"));
      expect((await adminB.get(`/api_keys/${key.id}`)).body.status).toBe("revoked");
    }
  });

  it("rotated through A with overlap_seconds 0: the old secret's very next call on B is 401 api_key_expired, the new one works on B", async () => {
    const [adminA, adminB] = await adminOnBoth();
    for (let round = 0; round < 5; round++) {
      const { key } = await makeKey(adminB, ["orders:read"], { name: `round ${round}` });
      const oldOnB = clientWith(adminB, key.secret);
      for (let i = 0; i < 3; i++) expect((await oldOnB.get("/orders")).status).toBe(200);
      const rotated = await adminA.post(`/api_keys/${key.id}/rotate`, { overlap_seconds: 0 });
      expect(rotated.status, rotated.text).toBe(200);
      expectExpired(await oldOnB.get("/orders"), key.id);
      expect((await clientWith(adminB, rotated.body.secret).get("/orders")).status).toBe(200);
    }
  });

  it("the last admin key is kept by every process (409 through each), and an operator's keys revoke ends it everywhere", async () => {
    const [adminA, adminB] = await adminOnBoth();
    const id = await ownKeyId(adminA);
    for (const c of [adminA, adminB]) {
      expectProblem(await c.request("DELETE", `/api_keys/${id}`), 409, "last_admin_key");
    }
    const revoked = await cli(db.url, ["keys", "revoke", id]);
    expect(revoked.code, JSON.stringify(revoked.output)).toBe(0);
    expectUnauthorized(await adminA.get("/orders"));
    expectUnauthorized(await adminB.get("/orders"));
  });
});
