// API keys (decision 013), part 1: creating keys, what each permission allows, the order of
// refusals (401, then 403, then 429, then 400/404), no escalation, the rules a new key must meet,
// accounts that cannot see each other's keys, and the key id on request records and events.
// Rotation, revocation and expiry: api-keys-lifecycle.test.ts.
import { describe, expect, it } from "vitest";
import {
  ALL_PERMISSIONS,
  expectForbidden,
  fromNow,
  KEY_ID,
  listKeys,
  makeKey,
  ownKeyId,
  rateLimit,
  SECRET,
} from "../src/api-keys.ts";
import type { Json } from "../src/client.ts";
import { order, returnOf } from "../src/fixtures.ts";
import { expectProblem, RELAXED_LIMITS, succeeded, useSystem } from "../src/harness.ts";
import { waitFor } from "../src/poll.ts";
import { listsInclude } from "../src/replica-lag.ts";
import { targets } from "../src/targets.ts";

/** One call per permission: what a key holding it is answered (never 403), and nothing is stored. */
const PROBES: [permission: string, method: string, path: string, body: unknown, allowed: number][] = [
  ["ingest:write", "POST", "/ingest/orders", { orders: [] }, 400],
  ["orders:read", "GET", "/orders", undefined, 200],
  ["returns:read", "GET", "/returns", undefined, 200],
  ["inventory:read", "GET", "/inventory", undefined, 200],
  ["requests:read", "GET", "/requests", undefined, 200],
  ["events:read", "GET", "/events", undefined, 200],
  ["webhooks:read", "GET", "/webhook_subscriptions", undefined, 200],
  ["webhooks:write", "POST", "/webhook_subscriptions", {}, 400],
  ["api_keys:read", "GET", "/api_keys", undefined, 200],
  ["api_keys:write", "POST", "/api_keys", {}, 400],
];

/** What the spec says a held permission grants: itself, and a :write its resource's :read. */
const GRANTS: Record<string, string[]> = {
  "webhooks:write": ["webhooks:read"],
  "api_keys:write": ["api_keys:read"],
};
const allows = (held: string, needed: string) => held === needed || (GRANTS[held] ?? []).includes(needed);

const MISSING_KEY = "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD";
const DAY = 86_400_000;

describe.each(targets)("API keys: permissions and creation — $name", (target) => {
  const h = useSystem(target, {
    // api_keys keeps its default (60), which the rate-limit test below reads.
    OISR_RATE_LIMITS: JSON.stringify({
      ...JSON.parse(RELAXED_LIMITS.OISR_RATE_LIMITS),
      events_read: 100_000,
    }),
  });

  it("an account's first key holds every permission; a restricted key is 201 with Location and its secret once, listed and read without it", async () => {
    const admin = await h.account();
    const [first] = await listKeys(admin);
    expect(first).toMatchObject({ permissions: ALL_PERMISSIONS, status: "active", created_by: null });
    expect(first.id).toMatch(KEY_ID);
    const before = Date.now();
    const { key, res } = await makeKey(admin, ["requests:read", "ingest:write", "orders:read"], {
      name: "Shop connector",
    });
    expect(res.headers.get("location")).toBe(`/v2/api_keys/${key.id}`);
    expect(key.secret).toMatch(SECRET);
    expect(key).toEqual({
      id: expect.stringMatching(KEY_ID),
      name: "Shop connector",
      // In the spec's order, whatever the order asked.
      permissions: ["ingest:write", "orders:read", "requests:read"],
      prefix: key.secret.slice(0, 12),
      status: "active",
      created_at: expect.any(String),
      created_by: first.id,
      expires_at: null,
      last_used_at: null,
      rotated_at: null,
      previous_secret_expires_at: null,
      revoked_at: null,
      secret: key.secret,
    });
    expect(Date.parse(key.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(key.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
    const { secret, ...shown } = key;
    const got = await admin.get(res.headers.get("location") as string);
    expect(got.status, got.text).toBe(200);
    expect(got.body).toEqual(shown);
    const list = await admin.get("/api_keys");
    expect(list.body.data.map((k: Json) => k.id)).toEqual([key.id, first.id]); // newest first
    expect(list.body.data[0]).toEqual(shown);
    for (const text of [got.text, list.text]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('"secret"');
    }
  });

  it("each permission allows exactly its calls; a :write includes its :read, nothing else implies anything", async () => {
    const admin = await h.account();
    for (const held of ALL_PERMISSIONS) {
      const { key, as } = await makeKey(admin, [held], { name: `only ${held}` });
      for (const [needed, method, path, body, allowed] of PROBES) {
        const res = await as.request(method, path, { body });
        if (allows(held, needed))
          expect(res.status, `${held} → ${method} ${path}: ${res.text}`).toBe(allowed);
        else expectForbidden(res, needed, key.id);
      }
    }
    // inventory:read is its own permission although /inventory shares returns_read's rate limit.
    const { key, as } = await makeKey(admin, ["returns:read"]);
    expectForbidden(await as.get("/inventory?sku=S"), "inventory:read", key.id);
    // Nothing was stored by any of those calls.
    expect((await admin.get("/requests")).body.data).toEqual([]);
    expect((await admin.get("/webhook_subscriptions")).body.data).toEqual([]);
    expect(await listKeys(admin)).toHaveLength(ALL_PERMISSIONS.length + 2);
  });

  it("webhooks:write manages subscriptions and reads them back; ingest:write does not read its requests", async () => {
    const admin = await h.account();
    const hooks = await makeKey(admin, ["webhooks:write"]);
    const sub = await hooks.as.post("/webhook_subscriptions", {
      url: "http://127.0.0.1:9/oisr",
      events: ["return.created"],
    });
    expect(sub.status, sub.text).toBe(201);
    expect((await hooks.as.get(`/webhook_subscriptions/${sub.body.id}`)).status).toBe(200);
    expect((await hooks.as.get(`/webhook_subscriptions/${sub.body.id}/deliveries`)).status).toBe(200);
    expect((await hooks.as.get("/webhook_subscriptions")).body.data).toHaveLength(1);
    const ingest = await makeKey(admin, ["ingest:write"]);
    const ack = await ingest.as.ingest("/ingest/orders", { orders: [order()] });
    expectForbidden(await ingest.as.get(`/requests/${ack.body.request_id}`), "requests:read", ingest.key.id);
    expect((await admin.get(`/requests/${ack.body.request_id}`)).status).toBe(200);
  });

  it("a refused call is neither stored nor counted: a key without ingest:write sends an order", async () => {
    const admin = await h.account();
    const { key, as } = await makeKey(admin, ["orders:read", "requests:read"]);
    const first = rateLimit(await admin.post("/ingest/orders", { orders: [order()] }));
    for (let i = 0; i < 3; i++) {
      const res = await as.post("/ingest/orders", { orders: [order()] }, { "idempotency-key": `k-${i}` });
      expectForbidden(res, "ingest:write", key.id);
      expect(res.text).not.toContain("request_id");
    }
    // The admin's next ingest is the second one counted in the account's window.
    const second = await admin.post("/ingest/orders", { orders: [order()] });
    expect(rateLimit(second)).toMatchObject({
      limit: first.limit,
      remaining: first.remaining - 1,
    });
    // A list that lags (a read replica) shows the refused calls, had any been stored, once it
    // shows the call after them.
    await listsInclude(admin, second.body.request_id);
    const requests = (await admin.get("/requests")).body.data;
    expect(requests).toHaveLength(2);
    expect(requests.every((r: Json) => r.api_key_id !== key.id)).toBe(true);
    // The restricted key's own reads count in their scope as usual.
    expect(rateLimit(await as.get("/orders")).remaining).toBe(
      rateLimit(await as.get("/orders")).remaining + 1,
    );
  });

  it("403 wins over 400 (invalid body, malformed JSON) and over 404 (unknown ids): the reason is never hidden", async () => {
    const admin = await h.account();
    const { key, as } = await makeKey(admin, ["returns:read"]);
    expectForbidden(await as.post("/ingest/orders", { orders: [] }), "ingest:write", key.id);
    const malformed = { "content-type": "application/json" };
    expectForbidden(await as.post("/ingest/orders", "{not json", malformed), "ingest:write", key.id);
    expectForbidden(await as.post("/api_keys", { name: "" }), "api_keys:write", key.id);
    expectForbidden(await as.get("/orders/NO-SUCH-ORDER"), "orders:read", key.id);
    expectForbidden(await as.get("/orders/ord_01JP9YVEKTNDE3MZX9B154EWRG"), "orders:read", key.id);
    expectForbidden(await as.get("/requests/019593ed-b960-7678-bfcc-cf7dbea23c69"), "requests:read", key.id);
    expectForbidden(await as.request("DELETE", `/api_keys/${MISSING_KEY}`), "api_keys:write", key.id);
    expectForbidden(await as.get("/orders?limit=0"), "orders:read", key.id);
    // …while a call it may make gets the 404 and 400 it earns.
    expectProblem(await as.get("/returns/NO-SUCH-RMA"), 404, "not_found");
    expectProblem(await as.get("/returns?limit=0"), 400, "validation_failed");
  });

  it("a key never grants more than it holds: asking for events:read with api_keys:write + orders:read is 403 naming it, and nothing is created", async () => {
    const admin = await h.account();
    const { key, as } = await makeKey(admin, ["api_keys:write", "orders:read"]);
    const refused = await as.post("/api_keys", {
      name: "escalation",
      permissions: ["orders:read", "events:read", "webhooks:write"],
    });
    const problem = expectForbidden(refused, "events:read", key.id, { afterBody: true });
    expect(problem.detail).toContain("events:read");
    expect(await listKeys(admin)).toHaveLength(2);
    // What it holds, it may grant; the new key names it as its creator.
    const made = await makeKey(as, ["orders:read", "api_keys:read"]);
    expect(made.key.created_by).toBe(key.id);
    expect((await made.as.get("/orders")).status).toBe(200);
    expect(await listKeys(admin)).toHaveLength(3);
  });

  describe("a new key's rules: a clear 400 with a pointer, and nothing created", () => {
    const cases: [string, () => Json, string, string][] = [
      [
        "an unknown permission",
        () => ({ name: "k", permissions: ["orders:write"] }),
        "/permissions/0",
        "enum",
      ],
      ["no permission", () => ({ name: "k", permissions: [] }), "/permissions", "minItems"],
      [
        "a permission twice",
        () => ({ name: "k", permissions: ["orders:read", "orders:read"] }),
        "/permissions",
        "uniqueItems",
      ],
      ["no permissions member", () => ({ name: "k" }), "/permissions", "required"],
      ["an empty name", () => ({ name: "", permissions: ["orders:read"] }), "/name", "minLength"],
      [
        "a name of 101 characters",
        () => ({ name: "n".repeat(101), permissions: ["orders:read"] }),
        "/name",
        "maxLength",
      ],
      [
        "a secret of one's choosing",
        () => ({ name: "k", permissions: ["orders:read"], secret: `oisr_${"a".repeat(43)}` }),
        "/secret",
        "additionalProperties",
      ],
      [
        "expires_at that is not a date-time",
        () => ({ name: "k", permissions: ["orders:read"], expires_at: "tomorrow" }),
        "/expires_at",
        "format",
      ],
      [
        "expires_at in the past",
        () => ({ name: "k", permissions: ["orders:read"], expires_at: fromNow(-60_000) }),
        "/expires_at",
        "out_of_range",
      ],
      [
        "expires_at 367 days ahead",
        () => ({ name: "k", permissions: ["orders:read"], expires_at: fromNow(367 * DAY) }),
        "/expires_at",
        "out_of_range",
      ],
    ];

    it.each(cases)("%s", async (_name, body, pointer, code) => {
      const admin = await h.account();
      const problem = expectProblem(await admin.post("/api_keys", body()), 400, "validation_failed");
      expect(problem.errors).toContainEqual({ pointer, code, message: expect.any(String) });
      expect(await listKeys(admin)).toHaveLength(1);
    });

    it("expires_at 365 days ahead is accepted as sent", async () => {
      const admin = await h.account();
      const expiresAt = fromNow(365 * DAY);
      expect((await makeKey(admin, ["orders:read"], { expires_at: expiresAt })).key.expires_at).toBe(
        expiresAt,
      );
    });

    it("a key that expires cannot create a key without expiry or one that outlives it (out_of_range at /expires_at)", async () => {
      const admin = await h.account();
      const expiresAt = fromNow(3_600_000);
      const { as } = await makeKey(admin, ["api_keys:write", "orders:read"], { expires_at: expiresAt });
      for (const body of [
        { name: "forever", permissions: ["orders:read"] },
        { name: "longer", permissions: ["orders:read"], expires_at: fromNow(7_200_000) },
      ]) {
        const problem = expectProblem(await as.post("/api_keys", body), 400, "validation_failed");
        expect(problem.errors).toEqual([
          { pointer: "/expires_at", code: "out_of_range", message: expect.any(String) },
        ]);
      }
      expect(await listKeys(admin)).toHaveLength(2);
      const within = await makeKey(as, ["orders:read"], { expires_at: fromNow(1_800_000) });
      expect(within.key.status).toBe("active");
      expect(await listKeys(admin)).toHaveLength(3);
    });
  });

  it("another account's key is 404 to GET, rotate and DELETE, like a key that does not exist, and stays untouched", async () => {
    const [a, b] = [await h.account(), await h.account()];
    const { key, as } = await makeKey(a, ["orders:read"]);
    const calls: [string, (id: string) => string, unknown][] = [
      ["GET", (id) => `/api_keys/${id}`, undefined],
      ["POST", (id) => `/api_keys/${id}/rotate`, { overlap_seconds: 0 }],
      ["DELETE", (id) => `/api_keys/${id}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const theirs = expectProblem(await b.request(method, path(key.id), { body }), 404, "not_found");
      const missing = expectProblem(await b.request(method, path(MISSING_KEY), { body }), 404, "not_found");
      expect(String(theirs.detail).replaceAll(key.id, "<id>")).toBe(
        String(missing.detail).replaceAll(MISSING_KEY, "<id>"),
      );
    }
    expect((await listKeys(b)).map((k) => k.id)).not.toContain(key.id);
    const after = (await a.get(`/api_keys/${key.id}`)).body;
    expect(after).toMatchObject({ status: "active", rotated_at: null, revoked_at: null, prefix: key.prefix });
    expect((await as.get("/orders")).status).toBe(200);
  });

  it("request records and events name the key that submitted the request (api_key_id)", async () => {
    const admin = await h.account();
    const adminId = await ownKeyId(admin);
    const { key, as } = await makeKey(admin, ["ingest:write", "requests:read"]);
    const o = order();
    succeeded(await as.ingestAndWait("/ingest/orders", { orders: [o] }));
    const ret = await as.ingestAndWait("/ingest/returns", { returns: [returnOf(o.external_id)] });
    succeeded(ret);
    const byAdmin = await admin.ingestAndWait("/ingest/orders", { orders: [order()] });
    expect(ret.api_key_id).toBe(key.id);
    expect(byAdmin.api_key_id).toBe(adminId);
    const listed = (await admin.get("/requests")).body.data as Json[];
    expect(listed.map((r) => r.api_key_id).sort()).toEqual([key.id, key.id, adminId].sort());
    const events = (await admin.get("/events?limit=200")).body.data as Json[];
    const ofRequest = (id: string) =>
      events.find((e) => e.type.startsWith("request.") && e.data.object.request_id === id);
    expect(ofRequest(ret.request_id)).toMatchObject({
      api_key_id: key.id,
      data: { object: { api_key_id: key.id } },
    });
    expect(ofRequest(byAdmin.request_id)).toMatchObject({
      api_key_id: adminId,
      data: { object: { api_key_id: adminId } },
    });
    const created = events.filter((e) => e.type === "return.created");
    expect(created).toHaveLength(1);
    expect(created[0].api_key_id).toBe(key.id);
  });

  it("last_used_at is null until the key is used, then set within seconds", async () => {
    const admin = await h.account();
    const { key, as } = await makeKey(admin, ["orders:read"]);
    expect((await admin.get(`/api_keys/${key.id}`)).body.last_used_at).toBeNull();
    const before = Date.now();
    expect((await as.get("/orders")).status).toBe(200);
    const usedAt = await waitFor(
      async () => {
        const res = await admin.get(`/api_keys/${key.id}`);
        expect(res.status, res.text).toBe(200);
        return (res.body.last_used_at as string | null) ?? undefined;
      },
      "last_used_at to be set",
      { timeoutMs: 10_000, intervalMs: 250 },
    );
    // Recorded to the minute at most once a minute: never later than now, never a minute before the call.
    expect(Date.parse(usedAt)).toBeGreaterThanOrEqual(before - 60_000);
    expect(Date.parse(usedAt)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("/api_keys calls count in the api_keys scope (60 a minute) and say so in X-RateLimit-*, errors included; a 403 does not count", async () => {
    const admin = await h.account();
    const adminId = await ownKeyId(admin);
    const start = rateLimit(await admin.get("/api_keys"));
    expect(start.limit).toBe(60);
    const { key, res, as } = await makeKey(admin, ["orders:read"]);
    expect(rateLimit(res)).toMatchObject({ limit: 60, remaining: start.remaining - 1 });
    const steps = [
      () => admin.get(`/api_keys/${key.id}`),
      () => admin.get(`/api_keys/${MISSING_KEY}`),
      () => admin.request("DELETE", `/api_keys/${adminId}`),
      () => admin.post(`/api_keys/${key.id}/rotate`, { overlap_seconds: -1 }),
    ];
    let remaining = start.remaining - 1;
    for (const step of steps) {
      const r = await step();
      expect(rateLimit(r), `${r.status} ${r.text}`).toMatchObject({ limit: 60, remaining: --remaining });
    }
    expectForbidden(await as.get("/api_keys"), "api_keys:read", key.id);
    expect(rateLimit(await admin.get("/api_keys"))).toMatchObject({ remaining: remaining - 1 });
    // Other scopes are untouched by key management: this is the account's first webhooks call.
    const webhooks = rateLimit(await admin.get("/webhook_subscriptions"));
    expect(webhooks.remaining).toBe(webhooks.limit - 1);
  });
});
