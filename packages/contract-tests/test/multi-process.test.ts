// docs/product.md §3, §4, §5, §8 and §10 across processes: several `oisr-server` processes on one PostgreSQL
// database share rate limits, apply every request exactly once, never let a feed poller miss a
// change, survive processes killed under load, and take tokens from the command line. Run on each
// deployment shape: two all-in-one processes straight on PostgreSQL, and (with OISR_PGBOUNCER_URL)
// two API and two worker processes through PgBouncer in transaction mode, LISTEN on a direct
// connection (docs/product.md §10, issue 18). PostgreSQL only: PGlite lives in one process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../src/client.ts";
import { order } from "../src/fixtures.ts";
import { type Client, client, succeeded } from "../src/harness.ts";
import { waitFor } from "../src/poll.ts";
import { drainFeed, type Minter, systemAt } from "../src/processes.ts";
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

/** One account, with a client on each of the given API processes. */
async function accountOn(systems: System[]): Promise<Client[]> {
  const first = systems[0] as System;
  const account = await first.createAccount();
  return systems.map((s) => client(s, account));
}

interface Topology {
  name: string;
  /** The environment of each process, given the database's direct URL. */
  processes(directUrl: string): Record<string, string>[];
}

const TOPOLOGIES: Topology[] = [
  {
    name: "two API + worker processes straight on PostgreSQL",
    processes: (url) => [{ DATABASE_URL: url }, { DATABASE_URL: url }],
  },
  ...(poolerUrl
    ? [
        {
          name: "two API and two worker processes through PgBouncer (transaction pooling)",
          processes: (url: string) => {
            const pooled = {
              DATABASE_URL: pooledUrl(url, poolerUrl),
              OISR_DATABASE_POOLING: "transaction",
              OISR_LISTEN_DATABASE_URL: url,
            };
            return [
              { ...pooled, OISR_ROLE: "api" },
              { ...pooled, OISR_ROLE: "api" },
              { ...pooled, OISR_ROLE: "worker" },
              { ...pooled, OISR_ROLE: "worker" },
            ];
          },
        },
      ]
    : []),
];

describe.skipIf(!adminUrl).each(TOPOLOGIES)(`$name ${REASON}`, (topology) => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let minter: Minter;
  let servers: SpawnedServer[] = [];
  let systems: System[] = [];
  let directUrl = "";

  beforeAll(async () => {
    db = await freshDatabase(adminUrl as string);
    directUrl = db.url;
    const limits = {
      OISR_RATE_LIMITS: JSON.stringify({ ingest: 20, orders_read: 100_000, requests_read: 100_000 }),
    };
    const envs = topology.processes(db.url).map((env) => ({ ...env, ...limits }));
    // Start one first so the migrations run once, then the others together.
    servers = [spawnServer(envs[0] as Record<string, string>)];
    await (servers[0] as SpawnedServer).ready;
    servers.push(...envs.slice(1).map((env) => spawnServer(env)));
    const urls = await Promise.all(servers.map((s) => s.ready));
    minter = await accountMinter(db.url);
    // Worker-only processes have no API (ready resolves with "").
    systems = urls.filter(Boolean).map((url) => systemAt(url, db.url, minter));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await minter?.close();
    await db?.drop();
  });

  it("the command line mints accounts and tokens that every process accepts, and revokes them for every process", async () => {
    const created = await cli(directUrl, ["accounts", "create", "--name", "cli-test"]);
    expect(created.code).toBe(0);
    expect(created.output).toEqual({
      account_id: expect.stringMatching(/^acc_/),
      name: "cli-test",
      token: expect.stringMatching(/^oisr_/),
      api_key_id: expect.stringMatching(/^key_/),
    });
    const { account_id: accountId, token } = created.output as { account_id: string; token: string };
    const second = await cli(directUrl, ["tokens", "create", "--account", accountId]);
    expect(second).toEqual({
      code: 0,
      output: { token: expect.stringMatching(/^oisr_/), api_key_id: expect.stringMatching(/^key_/) },
    });
    const token2 = (second.output as { token: string }).token;
    // Both tokens name the same account, on both processes.
    const [a1, b1] = systems.map((s) => client(s, { accountId, token }));
    const [a2, b2] = systems.map((s) => client(s, { accountId, token: token2 }));
    const ack = await (a1 as Client).ingest("/ingest/orders", { orders: [order()] });
    for (const c of [a1, b1, a2, b2])
      expect((await (c as Client).get(`/requests/${ack.body.request_id}`)).status).toBe(200);
    expect(await cli(directUrl, ["tokens", "revoke", token])).toEqual({ code: 0, output: { revoked: true } });
    for (const c of [a1, b1]) expect((await (c as Client).get("/orders")).status).toBe(401);
    for (const c of [a2, b2]) expect((await (c as Client).get("/orders")).status).toBe(200);
  });

  it("rate limits are shared: 30 concurrent ingests split across both processes → exactly 20 accepted, 10 refused", async () => {
    const clients = await accountOn(systems);
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (clients[i % 2] as Client).post("/ingest/orders", { orders: [order()] }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    // Both processes refused some or accepted some: the count is global, not per process.
    const list = await (clients[0] as Client).get("/requests?limit=200");
    expect(list.body.data).toHaveLength(20);
  });

  it("many requests from several accounts through both processes each succeed exactly once", async () => {
    const accounts = await Promise.all(Array.from({ length: 4 }, () => accountOn(systems)));
    const submitted: { c: Client; requestId: string; externalIds: string[] }[] = [];
    await Promise.all(
      accounts.map(async (clients) => {
        for (let i = 0; i < 12; i++) {
          const orders = Array.from({ length: 10 }, () => order());
          const c = clients[i % 2] as Client;
          const ack = await c.ingest("/ingest/orders", { orders });
          submitted.push({
            c,
            requestId: ack.body.request_id,
            externalIds: orders.map((o) => o.external_id),
          });
        }
      }),
    );
    for (const s of submitted) {
      const record = await s.c.wait(s.requestId);
      expect(succeeded(record)).toMatchObject({ created: 10, updated: 0, unchanged: 0, stale: 0 });
      expect(record.attempts).toBe(1);
    }
    for (const clients of accounts) {
      const { items } = await drainFeed(clients[1] as Client, undefined);
      expect(items).toHaveLength(120);
      expect(new Set(items.map((o) => o.id)).size).toBe(120);
      expect(items.every((o) => o.version === 1)).toBe(true);
    }
  });

  it("a feed poller running while writers commit through both processes sees every order", async () => {
    const [writerA, writerB] = await accountOn(systems);
    const expected = new Set<string>();
    let writing = true;
    const writers = (async () => {
      // 18 batches of 15 orders, alternating processes, as fast as they are accepted.
      const acks = [];
      for (let i = 0; i < 18; i++) {
        const orders = Array.from({ length: 15 }, () => order());
        for (const o of orders) expected.add(o.external_id);
        acks.push(
          await (i % 2 ? (writerB as Client) : (writerA as Client)).ingest("/ingest/orders", { orders }),
        );
      }
      for (const ack of acks) succeeded(await (writerA as Client).wait(ack.body.request_id));
      writing = false;
    })();
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    let polls = 0;
    let pagesWhileWriting = 0;
    const poller = (async () => {
      // Poll through both processes in turn, following next_cursor, until everything is seen.
      await waitFor(
        async () => {
          const page = await drainFeed(polls++ % 2 ? (writerA as Client) : (writerB as Client), cursor);
          cursor = page.cursor;
          if (writing && page.items.length > 0) pagesWhileWriting++;
          for (const o of page.items) seen.set(o.external_id, (seen.get(o.external_id) ?? 0) + 1);
          return !writing && [...expected].every((id) => seen.has(id)) ? true : undefined;
        },
        "the poller to see every order",
        { intervalMs: 5, timeoutMs: 45_000 },
      );
    })();
    await Promise.all([writers, poller]);
    const missed = [...expected].filter((id) => !seen.has(id));
    expect(missed).toEqual([]);
    // Orders are never updated here, so each must have come exactly once.
    expect([...seen.values()].every((n) => n === 1)).toBe(true);
    // The poller really read while writes were committing.
    expect(pagesWhileWriting).toBeGreaterThan(1);
  });

  it("SIGKILL of one API and one worker process under load: every accepted order is applied exactly once", async () => {
    // Last in this block: it leaves one process of each role (or one all-in-one process) running.
    // Four accounts, a writer per account and API process, one-order calls as shops send them
    // (16 per account, under this block's ingest limit of 20 a minute), each with its own key.
    const accounts = await Promise.all(Array.from({ length: 4 }, () => accountOn(systems)));
    const expected = new Map<string, string>(); // external_id → account token
    const acked: { c: Client; requestId: string }[] = [];
    const unanswered: { c: Client; body: Json; key: string }[] = [];
    let sent = 0;
    const writer = async (c: Client, survivor: Client) => {
      for (let i = 0; i < 8; i++) {
        const body = { orders: [order()] };
        const key = `mp-${sent++}`;
        expected.set(body.orders[0]?.external_id as string, key);
        try {
          const res = await c.post("/ingest/orders", body, { "idempotency-key": key });
          expect([202], res.text).toContain(res.status);
          acked.push({ c: survivor, requestId: res.body.request_id });
        } catch {
          // No answer: the process died with the call in flight. Resend later with the same key.
          unanswered.push({ c: survivor, body, key });
        }
      }
    };
    const load = Promise.all(
      accounts.flatMap((clients) => clients.map((c) => writer(c, clients[0] as Client))),
    );
    await waitFor(async () => (acked.length >= 8 ? true : undefined), "some accepted requests", {
      intervalMs: 2,
      timeoutMs: 30_000,
    });
    // The second API process and the first worker (or the second all-in-one process) die at once.
    const victims = servers.length === 4 ? [servers[1], servers[2]] : [servers[1]];
    for (const victim of victims) victim?.child.kill("SIGKILL");
    await load;
    for (const u of unanswered) {
      const res = await u.c.post("/ingest/orders", u.body, { "idempotency-key": u.key });
      expect([202], res.text).toContain(res.status);
      acked.push({ c: u.c, requestId: res.body.request_id });
    }
    for (const ack of acked) succeeded(await ack.c.wait(ack.requestId, { timeoutMs: 60_000 }));
    const seen: Json[] = [];
    for (const clients of accounts) seen.push(...(await drainFeed(clients[0] as Client, undefined)).items);
    expect(new Set(seen.map((o) => o.external_id))).toEqual(new Set(expected.keys()));
    expect(seen).toHaveLength(expected.size);
    expect(seen.every((o) => o.version === 1)).toBe(true);
  }, 180_000);
});

describe.skipIf(!adminUrl)(`a worker killed mid-request ${REASON}`, () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let minter: Minter;
  const servers: SpawnedServer[] = [];

  beforeAll(async () => {
    db = await freshDatabase(adminUrl as string);
    minter = await accountMinter(db.url);
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await minter?.close();
    await db?.drop();
  });

  it("SIGKILL of the worker while a 1000-order request is processing: another worker finishes it, exactly once", async () => {
    const common = {
      DATABASE_URL: db.url,
      OISR_LEASE_MS: "1000",
      OISR_RATE_LIMITS: JSON.stringify({ orders_read: 100_000, requests_read: 100_000 }),
    };
    const apiProcess = spawnServer({ ...common, OISR_ROLE: "api" });
    servers.push(apiProcess);
    const baseUrl = await apiProcess.ready;
    const system = systemAt(baseUrl, db.url, minter);
    const [c] = await accountOn([system]);
    const api = c as Client;

    // Queue the work before any worker runs, so the kill cannot come too late.
    const batches = Array.from({ length: 2 }, () => Array.from({ length: 1000 }, () => order()));
    const acks = [];
    for (const orders of batches) acks.push(await api.ingest("/ingest/orders", { orders }));

    const doomed = spawnServer({ ...common, OISR_ROLE: "worker" });
    servers.push(doomed);
    await doomed.ready;
    const victim = await waitFor(
      async () => {
        const res = await api.get("/requests?status=processing");
        return res.body.data[0] as Json | undefined;
      },
      "a request to be processing",
      { intervalMs: 2, timeoutMs: 30_000 },
    );
    doomed.child.kill("SIGKILL");
    await new Promise((resolve) => doomed.child.once("exit", resolve));
    const atKill = (await api.get(`/requests/${victim.request_id}`)).body;

    const replacement = spawnServer({ ...common, OISR_ROLE: "worker" });
    servers.push(replacement);
    await replacement.ready;

    const records = [];
    for (const ack of acks) records.push(await api.wait(ack.body.request_id, { timeoutMs: 45_000 }));
    for (const record of records) {
      expect(succeeded(record)).toMatchObject({ created: 1000, updated: 0, unchanged: 0, stale: 0 });
    }
    const finalVictim = records.find((r) => r.request_id === victim.request_id);
    if (atKill.status === "processing") {
      // The killed worker never committed it: the replacement took it after the lease, as attempt 2.
      expect(finalVictim.attempts).toBe(2);
    }
    const { items } = await drainFeed(api, undefined);
    expect(items).toHaveLength(2000);
    expect(new Set(items.map((o) => o.external_id)).size).toBe(2000);
    expect(items.every((o) => o.version === 1)).toBe(true);
  });
});
