// API keys over HTTP (decision 013): /api_keys, the order of refusals (401, 403, 429, then the
// rest), expiry and replaced secrets, the last admin key, last_used_at, and the key id on request
// records and events. An in-process server (API and worker) with responses validated against the
// spec; PGlite, or PostgreSQL when DATABASE_URL is set.
import { PERMISSIONS } from "@oisr/contract";
import { order } from "@oisr/contract/fixtures";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../src/db/client.ts";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";
import { oneOrderCall } from "../src/test-services.ts";
import { freshDatabaseEnv, waitFor } from "../src/webhooks/test-support.ts";

let server: RunningServer;
let drop: () => Promise<void>;

beforeAll(async () => {
  const db = await freshDatabaseEnv();
  drop = db.drop;
  server = await startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      OISR_VALIDATE_RESPONSES: "1",
      OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
      ...db.env,
    }),
  );
});

afterAll(async () => {
  await server?.close();
  await drop?.();
});

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are read loosely
  body: any;
}

/** A call with `secret`; `body` undefined sends no body and no Content-Type. */
async function call(secret: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

async function account(name = "api-keys-test") {
  const created = await server.services.accounts.createAccount(name);
  return {
    ...created,
    as: (secret: string) => call.bind(null, secret),
    admin: call.bind(null, created.token),
  };
}

/** A key made through the API by the account's admin key. */
async function keyWith(admin: Awaited<ReturnType<typeof account>>, permissions: string[], extra = {}) {
  const res = await admin.admin("POST", "/api_keys", { name: "restricted", permissions, ...extra });
  expect(res.status).toBe(201);
  return res.body as { id: string; secret: string };
}

const KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

describe("/api_keys", () => {
  it("creates a key: 201 with Location, the secret once, created_by the calling key, in the spec's order", async () => {
    const a = await account();
    const res = await a.admin("POST", "/api_keys", {
      name: "WMS poller",
      permissions: ["requests:read", "orders:read", "ingest:write"],
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: "WMS poller",
      permissions: ["ingest:write", "orders:read", "requests:read"],
      status: "active",
      created_by: a.api_key_id,
      last_used_at: null,
      rotated_at: null,
      previous_secret_expires_at: null,
      revoked_at: null,
    });
    expect(res.body.id).toMatch(KEY_ID);
    expect(res.body.secret).toMatch(/^oisr_[A-Za-z0-9_-]{43}$/);
    expect(res.body.prefix).toBe(res.body.secret.slice(0, 12));
    expect(res.headers.get("location")).toBe(`/v2/api_keys/${res.body.id}`);
    // The secret works, for what it grants.
    expect((await call(res.body.secret, "GET", "/orders")).status).toBe(200);
    // Shown once: never again.
    const got = await a.admin("GET", `/api_keys/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty("secret");
    expect(got.body).toEqual({ ...res.body, secret: undefined, last_used_at: got.body.last_used_at });
  });

  it("never grants more than the calling key: 403 for a permission it lacks, 400 for an expiry it cannot give", async () => {
    const a = await account();
    const manager = await keyWith(a, ["api_keys:write", "orders:read"], {
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const lacking = await call(manager.secret, "POST", "/api_keys", {
      name: "x",
      permissions: ["orders:read", "returns:read"],
      expires_at: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(lacking.status).toBe(403);
    expect(lacking.body).toMatchObject({
      code: "insufficient_permission",
      permission: "returns:read",
      api_key_id: manager.id,
    });
    // Without expiry, or after its own: 400 at /expires_at.
    for (const expires of [undefined, new Date(Date.now() + 7_200_000).toISOString()]) {
      const res = await call(manager.secret, "POST", "/api_keys", {
        name: "x",
        permissions: ["orders:read"],
        ...(expires ? { expires_at: expires } : {}),
      });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        expect.objectContaining({ pointer: "/expires_at", code: "out_of_range" }),
      ]);
    }
    // The schema's rules, as for every body.
    const invalid = await a.admin("POST", "/api_keys", { name: "", permissions: ["orders:write"] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("validation_failed");
    const keys = await a.admin("GET", "/api_keys");
    expect(keys.body.data).toHaveLength(2);
  });

  it("lists keys newest first, a page at a time, revoked ones included", async () => {
    const a = await account();
    const one = await keyWith(a, ["orders:read"]);
    const two = await keyWith(a, ["returns:read"]);
    await a.admin("DELETE", `/api_keys/${one.id}`);
    const first = await a.admin("GET", "/api_keys?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.data.map((k: { id: string }) => k.id)).toEqual([two.id, one.id]);
    expect(first.body.data[1].status).toBe("revoked");
    expect(first.body.has_more).toBe(true);
    const second = await a.admin("GET", `/api_keys?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.data.map((k: { id: string }) => k.id)).toEqual([a.api_key_id]);
    expect(second.body.has_more).toBe(false);
    expect(first.headers.get("x-ratelimit-limit")).toBe("60");
  });

  it("answers 404 for another account's key and for an unknown one", async () => {
    const a = await account();
    const b = await account("other");
    for (const id of [b.api_key_id, "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD"]) {
      for (const [method, path] of [
        ["GET", `/api_keys/${id}`],
        ["DELETE", `/api_keys/${id}`],
        ["POST", `/api_keys/${id}/rotate`],
      ] as const) {
        const res = await a.admin(method, path);
        expect(res.status).toBe(404);
        expect(res.body.detail).toBe(`No API key ${id} in this account.`);
      }
    }
    expect((await b.admin("GET", `/api_keys/${b.api_key_id}`)).body.status).toBe("active");
  });

  it("rotates without a body: a new secret, and the old one works for 24 hours", async () => {
    const a = await account();
    const before = Date.now();
    const res = await a.admin("POST", `/api_keys/${a.api_key_id}/rotate`);
    expect(res.status).toBe(200);
    expect(res.body.secret).not.toBe(a.token);
    expect(res.body.prefix).toBe(res.body.secret.slice(0, 12));
    const overlapEnd = Date.parse(res.body.previous_secret_expires_at);
    expect(overlapEnd).toBeGreaterThanOrEqual(before + 86_400_000);
    expect(overlapEnd).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect(Date.parse(res.body.rotated_at)).toBeGreaterThanOrEqual(before);
    for (const secret of [a.token, res.body.secret]) {
      expect((await call(secret, "GET", "/orders")).status).toBe(200);
    }
  });

  it("rotates with overlap 0: the old secret is refused at once, 401 api_key_expired naming the key", async () => {
    const a = await account();
    const reader = await keyWith(a, ["orders:read"]);
    const res = await a.admin("POST", `/api_keys/${reader.id}/rotate`, { overlap_seconds: 0 });
    expect(res.status).toBe(200);
    expect(res.body.previous_secret_expires_at).toBeNull();
    const old = await call(reader.secret, "GET", "/orders");
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ code: "api_key_expired", api_key_id: reader.id });
    expect(old.body.detail).toContain("replaced by a rotation");
    expect(Date.parse(old.body.expired_at)).toBeLessThanOrEqual(Date.now());
    expect(old.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await call(res.body.secret, "GET", "/orders")).status).toBe(200);
    // Out of range overlaps are the schema's.
    const tooLong = await a.admin("POST", `/api_keys/${reader.id}/rotate`, { overlap_seconds: 604_801 });
    expect(tooLong.status).toBe(400);
  });

  it("rotates only keys that grant nothing the calling key lacks: rotation hands over a secret", async () => {
    const a = await account();
    const manager = await keyWith(a, ["api_keys:write", "orders:read"]);
    const admin = await call(manager.secret, "POST", `/api_keys/${a.api_key_id}/rotate`);
    expect(admin.status).toBe(403);
    expect(admin.body).toMatchObject({
      code: "insufficient_permission",
      permission: "ingest:write",
      api_key_id: manager.id,
    });
    expect(admin.headers.get("www-authenticate")).toContain('scope="ingest:write"');
    // The admin's secret still works: nothing was rotated.
    expect((await a.admin("GET", `/api_keys/${a.api_key_id}`)).body.rotated_at).toBeNull();
    const reader = await keyWith(a, ["orders:read"]);
    expect((await call(manager.secret, "POST", `/api_keys/${reader.id}/rotate`)).status).toBe(200);
    expect((await call(manager.secret, "POST", `/api_keys/${manager.id}/rotate`)).status).toBe(200);
  });

  it("refuses an expired key with 401 api_key_expired, and 409 for rotating it; it may still be revoked", async () => {
    const a = await account();
    const { key, secret } = await server.services.apiKeys.insert({
      accountId: a.account_id,
      name: "expired",
      permissions: ["orders:read"],
      expiresAtMs: Date.now() - 1000,
      createdBy: null,
    });
    const res = await call(secret, "GET", "/orders");
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({
      code: "api_key_expired",
      api_key_id: key.id,
      expired_at: new Date(key.expiresAt as number).toISOString(),
    });
    const rotate = await a.admin("POST", `/api_keys/${key.id}/rotate`);
    expect(rotate.status).toBe(409);
    expect(rotate.body).toMatchObject({ code: "api_key_inactive", api_key_id: key.id });
    expect((await a.admin("GET", `/api_keys/${key.id}`)).body.status).toBe("expired");
    expect((await a.admin("DELETE", `/api_keys/${key.id}`)).status).toBe(200);
  });

  it("revokes at once and for good; the last admin key stays; a key may revoke itself", async () => {
    const a = await account();
    const reader = await keyWith(a, ["orders:read"]);
    const revoked = await a.admin("DELETE", `/api_keys/${reader.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: reader.id, status: "revoked" });
    expect(revoked.body.revoked_at).not.toBeNull();
    const refused = await call(reader.secret, "GET", "/orders");
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("unauthorized");
    const again = await a.admin("DELETE", `/api_keys/${reader.id}`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "api_key_inactive", api_key_id: reader.id });

    const last = await a.admin("DELETE", `/api_keys/${a.api_key_id}`);
    expect(last.status).toBe(409);
    expect(last.body).toMatchObject({ code: "last_admin_key", api_key_id: a.api_key_id });
    // With a second admin key, the first may revoke itself.
    const second = await keyWith(a, [...PERMISSIONS]);
    expect((await a.admin("DELETE", `/api_keys/${a.api_key_id}`)).status).toBe(200);
    expect((await a.admin("GET", "/api_keys")).status).toBe(401);
    expect((await call(second.secret, "DELETE", `/api_keys/${second.id}`)).body.code).toBe("last_admin_key");
  });
});

describe("the order of refusals", () => {
  it("401 before 403, 403 before 404, and a refused call counts toward nothing", async () => {
    const a = await account();
    const reader = await keyWith(a, ["returns:read"]);
    expect((await call("oisr_unknown", "GET", "/orders/ord_missing")).status).toBe(401);
    const forbidden = await call(reader.secret, "GET", "/orders/ord_missing");
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toMatchObject({
      code: "insufficient_permission",
      permission: "orders:read",
      api_key_id: reader.id,
      detail: `API key ${reader.id} lacks the permission orders:read, which GET /v2/orders/ord_missing needs.`,
    });
    expect(forbidden.headers.get("www-authenticate")).toBe(
      'Bearer realm="oisr", error="insufficient_scope", scope="orders:read"',
    );
    // A :write includes its :read, nothing more.
    const hooks = await keyWith(a, ["webhooks:write"]);
    expect((await call(hooks.secret, "GET", "/webhook_subscriptions")).status).toBe(200);
    expect((await call(hooks.secret, "GET", "/returns")).status).toBe(403);
    // 403 before the body is looked at, and nothing is stored.
    const ingest = await call(reader.secret, "POST", "/ingest/orders", { orders: "not even valid" });
    expect(ingest.status).toBe(403);
    expect(ingest.body.permission).toBe("ingest:write");
    const counted = await server.services.database.rows<{ scope: string }>(
      sql`select distinct scope from rate_limit_buckets where account_id = ${a.account_id}`,
    );
    // Only the calls let through: the admin's key creations and the webhook list.
    expect(counted.map((r) => r.scope).sort()).toEqual(["api_keys", "webhooks"]);
    expect((await a.admin("GET", "/requests")).body.data).toEqual([]);
  });

  it("403 before 429: a key without the permission is refused for it even when the limit is spent", async () => {
    const a = await account();
    const reader = await keyWith(a, ["returns:read"]);
    await server.services.accounts.setRateLimits(a.account_id, { orders_read: 1 });
    expect((await a.admin("GET", "/orders")).status).toBe(200);
    expect((await a.admin("GET", "/orders")).status).toBe(429);
    expect((await call(reader.secret, "GET", "/orders")).status).toBe(403);
  });
});

describe("traceability", () => {
  it("records the calling key on the request, its events and webhook.test events; older rows show null", async () => {
    const a = await account();
    const ingester = await keyWith(a, ["ingest:write", "requests:read", "events:read", "webhooks:write"]);
    const ack = await call(ingester.secret, "POST", "/ingest/orders", {
      orders: [order({ external_id: "K-1" })],
    });
    expect(ack.status).toBe(202);
    const record = await waitFor(async () => {
      const r = await call(ingester.secret, "GET", `/requests/${ack.body.request_id}`);
      return r.body.status === "succeeded" ? r.body : undefined;
    }, "the request to succeed");
    expect(record.api_key_id).toBe(ingester.id);
    const events = await call(ingester.secret, "GET", "/events");
    expect(events.body.data).toEqual([
      expect.objectContaining({ type: "request.succeeded", api_key_id: ingester.id }),
    ]);

    const subscription = await call(ingester.secret, "POST", "/webhook_subscriptions", {
      url: "http://127.0.0.1:9/hooks",
      events: ["return.created"],
    });
    expect((await a.admin("POST", `/webhook_subscriptions/${subscription.body.id}/test`)).status).toBe(202);
    const [test] = await server.services.database.rows<{ payload: { api_key_id: string } }>(
      sql`select payload from events where account_id = ${a.account_id} and type = 'webhook.test'`,
    );
    expect(test?.payload.api_key_id).toBe(a.api_key_id);

    // A request and an event stored before API keys: no api_key_id on the row or in the body.
    const old = await server.services.requests.accept(oneOrderCall(a.account_id, "K-0"));
    if (old.kind !== "accepted") throw new Error(old.kind);
    const oldRecord = await call(ingester.secret, "GET", `/requests/${old.ack.request_id}`);
    expect(oldRecord.body.api_key_id).toBeNull();
    await server.services.database.rows(
      sql`update events set payload = payload - 'api_key_id' where account_id = ${a.account_id}`,
    );
    const oldEvents = await call(ingester.secret, "GET", "/events");
    expect(oldEvents.body.data.length).toBeGreaterThan(0);
    for (const event of oldEvents.body.data) expect(event.api_key_id).toBeNull();
    const one = await call(ingester.secret, "GET", `/events/${oldEvents.body.data[0].id}`);
    expect(one.body.api_key_id).toBeNull();
  });

  it("shows when a key was first used within a couple of seconds", async () => {
    const a = await account();
    const reader = await keyWith(a, ["orders:read"]);
    expect((await a.admin("GET", `/api_keys/${reader.id}`)).body.last_used_at).toBeNull();
    const before = Date.now();
    expect((await call(reader.secret, "GET", "/orders")).status).toBe(200);
    const lastUsed = await waitFor(
      async () => (await a.admin("GET", `/api_keys/${reader.id}`)).body.last_used_at ?? undefined,
      "last_used_at",
      3000,
    );
    expect(Date.parse(lastUsed)).toBeGreaterThanOrEqual(before - 1);
  });
});
