// docs/product.md §2, §3 and §6, the security side: tokens and webhook secrets never reach the logs (a
// process at LOG_LEVEL=debug, through auth failures, ingests, reads, webhooks and a 500), and one
// account can never reach another's data through an idempotency key or a webhook subscription.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, type Json } from "../../src/client.ts";
import { order, returnOf } from "../../src/fixtures.ts";
import {
  type Client,
  client,
  expectProblem,
  RELAXED_LIMITS,
  succeeded,
  useSystem,
} from "../../src/harness.ts";
import { sleep, waitFor } from "../../src/poll.ts";
import { adminUrl, type Minter, systemAt } from "../../src/processes.ts";
import {
  accountMinter,
  cli,
  freshDatabase,
  type SpawnedServer,
  type System,
  spawnServer,
  targets,
} from "../../src/targets.ts";
import { type Receiver, startReceiver, verifySignature } from "../../src/webhook-receiver.ts";

const fakeToken = () => `oisr_${randomBytes(24).toString("base64url")}`;

describe("tokens and webhook secrets never appear in the logs (a spawned process at LOG_LEVEL=debug)", () => {
  let server: SpawnedServer;
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let minter: Minter | undefined;
  let receiver: Receiver;
  let system: System;
  /** Everything the process wrote, stdout and stderr, from its start. */
  let log = "";
  /** The development token the embedded-mode banner prints on purpose (PGlite only). */
  let bannerToken: string | undefined;

  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    const env: Record<string, string> = {
      ...RELAXED_LIMITS,
      LOG_LEVEL: "debug",
      OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
      OISR_WEBHOOK_RETRY_SCHEDULE: "100ms,200ms",
    };
    if (adminUrl) {
      db = await freshDatabase(adminUrl);
      env.DATABASE_URL = db.url;
    } else env.OISR_DATA_DIR = "memory://";
    server = spawnServer(env);
    server.child.stdout.on("data", (c: Buffer) => {
      log += c.toString();
    });
    server.child.stderr.on("data", (c: Buffer) => {
      log += c.toString();
    });
    const baseUrl = await server.ready;
    if (db) {
      minter = await accountMinter(db.url);
      system = systemAt(baseUrl, db.url, minter);
    } else {
      // PGlite lives in the server process: the only account is the development one of the banner.
      bannerToken = /Token:\s+(oisr_\S+)/.exec(server.output())?.[1];
      expect(bannerToken).toBeDefined();
      system = {
        baseUrl,
        origin: new URL(baseUrl).origin,
        createAccount: async () => ({ accountId: "development", token: bannerToken as string }),
        revokeToken: async () => {
          throw new Error("no revocation from outside on PGlite");
        },
        close: async () => {},
      };
    }
  });

  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await minter?.close();
    await db?.drop();
  });

  it(`through auth failures (bad${adminUrl ? ", revoked" : ""} tokens), ingests, reads, webhook create + rotate + test delivery${adminUrl ? " and a 500" : " (PGlite: no revoked token and no 500, which need the database from outside)"}`, async () => {
    const c = client(system, await system.createAccount("log-probe"));
    const sent: string[] = [c.token];
    const secrets: string[] = [];

    // Auth failures: unknown tokens of the right shape, malformed headers, and a revoked token.
    const bad = [fakeToken(), fakeToken(), `${fakeToken()}x`];
    sent.push(...bad);
    for (const token of bad) expectProblem(await api(system, token).get("/orders"), 401, "unauthorized");
    for (const header of [
      `Basic ${Buffer.from(`user:${c.token}`).toString("base64")}`,
      `Token ${c.token}`,
      `Bearer${c.token}`,
      c.token,
    ]) {
      expectProblem(await c.get("/orders", { authorization: header }), 401, "unauthorized");
    }
    // The scheme is case-insensitive and may be followed by several spaces (RFC 9110 §11.1, §11.4).
    for (const header of [`bearer ${c.token}`, `BEARER  ${c.token}`]) {
      expect((await c.get("/orders", { authorization: header })).status, header).toBe(200);
    }
    if (db && minter) {
      const second = await cli(db.url, ["tokens", "create", "--account", c.accountId]);
      const revoked = (second.output as { token: string }).token;
      sent.push(revoked);
      expect((await api(system, revoked).get("/orders")).status).toBe(200);
      await system.revokeToken(revoked);
      expectProblem(await api(system, revoked).get("/orders"), 401, "unauthorized");
      expectProblem(await api(system, revoked).post("/ingest/orders", { orders: [order()] }), 401);
      const other = await minter.create("log-probe-b");
      sent.push(other.token);
      const b = client(system, other);
      succeeded(await b.ingestAndWait("/ingest/orders", { orders: [order()] }));
    }

    // Ingests and reads, including an idempotent replay and a validation failure.
    const o = order();
    const ack = await c.ingest("/ingest/orders", { orders: [o] }, { "idempotency-key": "log-probe-1" });
    await c.ingest("/ingest/orders", { orders: [o] }, { "idempotency-key": "log-probe-1" });
    succeeded(await c.wait(ack.body.request_id));
    expect((await c.post("/ingest/orders", { orders: [{ nope: true }] })).status).toBe(400);
    const ret = returnOf(o.external_id);
    succeeded(await c.ingestAndWait("/ingest/returns", { returns: [ret] }));
    for (const path of ["/orders", `/orders/${o.external_id}`, "/returns", "/requests", "/inventory"])
      expect((await c.get(path)).status, path).toBe(200);

    // Webhooks: create, rotate, a test delivery (signed with both secrets), and the attempt list.
    const created = await c.post("/webhook_subscriptions", { url: receiver.url, events: ["return.created"] });
    expect(created.status, created.text).toBe(201);
    secrets.push(created.body.secret);
    const rotated = await c.post(`/webhook_subscriptions/${created.body.id}/rotate_secret`, undefined);
    expect(rotated.status, rotated.text).toBe(200);
    secrets.push(rotated.body.secret);
    expect((await c.post(`/webhook_subscriptions/${created.body.id}/test`, undefined)).status).toBe(202);
    const test = await waitFor(
      async () => receiver.received.find((r) => JSON.parse(r.body).type === "webhook.test"),
      "the test delivery",
    );
    for (const secret of secrets) expect(verifySignature(test, secret)).toBe(true);
    // A return event too (return.updated is not subscribed; it is still written and fanned out).
    succeeded(
      await c.ingestAndWait("/ingest/returns", {
        returns: [{ ...ret, status: "received", source_updated_at: "2025-03-15T00:00:00Z" }],
      }),
    );
    expect((await c.get(`/webhook_subscriptions/${created.body.id}/deliveries`)).status).toBe(200);
    expect((await c.get(`/webhook_subscriptions/${created.body.id}`)).text).not.toContain("whsec_");

    // A 500: the database refuses the write with an error that is not "unavailable".
    if (db) {
      const sql = postgres(db.url, { max: 1, onnotice: () => {} });
      try {
        await sql`alter table webhook_subscriptions add constraint reliability_probe check (false) not valid`;
        expectProblem(
          await c.post("/webhook_subscriptions", { url: receiver.url, events: ["return.created"] }),
          500,
          "internal_error",
        );
        expectProblem(
          await c.post(`/webhook_subscriptions/${created.body.id}/rotate_secret`, undefined),
          500,
          "internal_error",
        );
      } finally {
        await sql`alter table webhook_subscriptions drop constraint if exists reliability_probe`;
        await sql.end({ timeout: 5 });
      }
    }
    // Let the dispatcher log its attempts.
    await sleep(500);

    // The process did log at debug, and logged the 500 (so the check below means something).
    expect(log).toMatch(/"level":20/);
    expect(log).toMatch(/"level":30/);
    if (db) expect(log).toMatch(/"level":50.*"msg":"request failed"/);
    const checked = bannerToken ? log.replace(/^\s+Token:\s+oisr_\S+.*$/m, "") : log;
    const leaks = [
      ...sent.filter((t) => checked.includes(t)).map((t) => `token ${t.slice(0, 9)}…`),
      ...secrets
        .filter((s) => checked.includes(s.slice("whsec_".length)))
        .map((s) => `secret ${s.slice(0, 10)}…`),
    ];
    // Also secrets the client never saw (made by a call that failed).
    const anySecret = /whsec_[A-Za-z0-9+/=]{20,}/.exec(checked);
    if (anySecret) {
      const at = checked.indexOf(anySecret[0]);
      const line = checked.slice(checked.lastIndexOf("\n", at) + 1, checked.indexOf("\n", at));
      leaks.push(`a whsec_ secret in: ${line.slice(0, 400).replace(anySecret[0], "whsec_…")}`);
    }
    expect(leaks, "credentials in the log").toEqual([]);
  });
});

describe.each(targets)("one account never reaches another's resources — $name", (target) => {
  const h = useSystem(target, { OISR_WEBHOOK_RETRY_SCHEDULE: "100ms,200ms" });

  it("by idempotency key: the same key in account B is a new request of B's (same body: no replay; other body: no 422), and A's stays A's", async () => {
    const [a, b] = [await h.account(), await h.account()];
    const body = { orders: [order()] };
    const key = `shared-${randomBytes(4).toString("hex")}`;
    const ra = await a.ingest("/ingest/orders", body, { "idempotency-key": key });
    // Same body, same key, other account: a new request, not A's replay.
    const rb = await b.ingest("/ingest/orders", body, { "idempotency-key": key });
    expect(rb.headers.get("idempotent-replayed")).toBeNull();
    expect(rb.body.request_id).not.toBe(ra.body.request_id);
    // Other body, same key, in a third account: accepted, not 422.
    const c3 = await h.account();
    const rc = await c3.ingest("/ingest/orders", { orders: [order()] }, { "idempotency-key": key });
    expect(rc.headers.get("idempotent-replayed")).toBeNull();
    expect(new Set([ra, rb, rc].map((r) => r.body.request_id)).size).toBe(3);
    // Each record is its owner's only.
    expectProblem(await b.get(`/requests/${ra.body.request_id}`), 404, "not_found");
    expectProblem(await a.get(`/requests/${rb.body.request_id}`), 404, "not_found");
    const recordA = succeeded(await a.wait(ra.body.request_id));
    const recordB = succeeded(await b.wait(rb.body.request_id));
    expect(recordA.items[0].id).not.toBe(recordB.items[0].id);
    expect((await b.wait(rb.body.request_id)).idempotency_key).toBe(key);
    // A replay in A is still A's original, after B used the key.
    const again = await a.ingest("/ingest/orders", body, { "idempotency-key": key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.request_id).toBe(ra.body.request_id);
    const listA = (await a.get("/requests")).body.data.map((r: Json) => r.request_id);
    expect(listA).toEqual([ra.body.request_id]);
  });

  it("by webhook: A's subscription id is 404 for B on every operation, absent from B's list, and B's events never reach A's receiver", async () => {
    const [a, b] = [await h.account(), await h.account()];
    const receivers: Receiver[] = [];
    try {
      const [ra, rb] = [await startReceiver(() => 200), await startReceiver(() => 200)];
      receivers.push(ra, rb);
      const events = ["return.created", "return.updated"];
      const subA = await a.post("/webhook_subscriptions", { url: ra.url, events });
      expect(subA.status, subA.text).toBe(201);
      const id = subA.body.id as string;
      const calls: [string, string, unknown][] = [
        ["GET", `/webhook_subscriptions/${id}`, undefined],
        ["PATCH", `/webhook_subscriptions/${id}`, { description: "taken over" }],
        ["PATCH", `/webhook_subscriptions/${id}`, { url: rb.url }],
        ["POST", `/webhook_subscriptions/${id}/rotate_secret`, undefined],
        ["POST", `/webhook_subscriptions/${id}/test`, undefined],
        ["GET", `/webhook_subscriptions/${id}/deliveries`, undefined],
        ["DELETE", `/webhook_subscriptions/${id}`, undefined],
      ];
      for (const [method, path, body] of calls) {
        const res = await b.request(method, path, { body });
        expectProblem(res, 404, "not_found");
        expect(res.text, `${method} ${path}`).not.toContain("whsec_");
      }
      expect((await b.get("/webhook_subscriptions")).body.data).toEqual([]);
      // A's subscription is untouched.
      const still = await a.get(`/webhook_subscriptions/${id}`);
      expect(still.body).toMatchObject({
        id,
        url: ra.url,
        status: "enabled",
        description: subA.body.description,
      });

      const subB = await b.post("/webhook_subscriptions", { url: rb.url, events });
      expect(subB.status, subB.text).toBe(201);
      // Both accounts use the same external ids: still two separate worlds.
      const shared = order();
      const rma = `RMA-${randomBytes(4).toString("hex")}`;
      for (const c of [a, b] as Client[]) {
        succeeded(await c.ingestAndWait("/ingest/orders", { orders: [shared] }));
        succeeded(
          await c.ingestAndWait("/ingest/returns", {
            returns: [returnOf(shared.external_id, { external_id: rma })],
          }),
        );
      }
      const returnA = (await a.get(`/returns/${rma}`)).body;
      const returnB = (await b.get(`/returns/${rma}`)).body;
      expect(returnA.id).not.toBe(returnB.id);
      const created = (r: Receiver) =>
        r.received.map((d) => JSON.parse(d.body)).filter((e) => e.type === "return.created");
      await waitFor(
        async () => (created(ra).length > 0 && created(rb).length > 0 ? true : undefined),
        "each receiver to get its account's return.created",
        { timeoutMs: 20_000 },
      );
      // Give a misrouted delivery time to show up.
      await sleep(300);
      expect(created(ra).map((e) => e.data.object.id)).toEqual([returnA.id]);
      expect(created(rb).map((e) => e.data.object.id)).toEqual([returnB.id]);
      for (const d of ra.received) expect(verifySignature(d, subA.body.secret)).toBe(true);
      for (const d of rb.received) expect(verifySignature(d, subB.body.secret)).toBe(true);
      // A's deliveries list holds only A's events.
      const attempts = (await a.get(`/webhook_subscriptions/${id}/deliveries`)).body.data as Json[];
      const eventIdsA = new Set(ra.received.map((d) => d.headers["webhook-id"]));
      expect(attempts.every((x) => eventIdsA.has(x.event_id))).toBe(true);
    } finally {
      for (const r of receivers) await r.close();
    }
  });
});
