// API keys on the mock (docs/decisions/013-api-keys.md): every token is an admin key; keys made
// through /api_keys have their own permissions, expiry and secrets on the mock clock; a call is
// refused 401, then 403, then 429 in that order; request records and events name the key.
import {
  apiKeyExpired,
  apiKeyInactive,
  apiKeyNotFound,
  BodyValidator,
  insufficientPermission,
  lastAdminKey,
  openapiDocument,
  PERMISSIONS,
  type Permission,
  unauthorized,
} from "@oisr/contract";
import { describe, expect, it } from "vitest";
import { type Answer, type Call, client, frozenMock, order, returnOf } from "./support.ts";

const validator = new BodyValidator(openapiDocument);
const matches = (schema: string, value: unknown) =>
  validator.validate({ $ref: `#/components/schemas/${schema}` }, structuredClone(value));

const HOUR = 3_600_000;
const START = Date.parse("2025-06-01T12:00:00Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** A fresh account on a frozen clock, its admin key's id, and a way to make keys as that admin. */
function setup(options: Parameters<typeof frozenMock>[0] = {}) {
  const mock = frozenMock({ webhooks: { deliver: false }, ...options }).mock;
  const admin = mock.controls.createAccount("keys");
  const call = client(mock, admin.token);
  async function makeKey(
    permissions: Permission[],
    extra: { expires_at?: string; name?: string } = {},
    as: Call = call,
  ) {
    const created = await as("POST", "/api_keys", {
      name: extra.name ?? "restricted",
      permissions,
      ...extra,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return {
      id: created.body.id as string,
      secret: created.body.secret as string,
      call: client(mock, created.body.secret),
    };
  }
  return { mock, admin, call, makeKey };
}

function expectProblem(
  answer: Answer,
  problem: { status: number; code: string; message: string; extensions: object },
) {
  expect(answer.status).toBe(problem.status);
  expect(answer.body).toMatchObject({ code: problem.code, detail: problem.message, ...problem.extensions });
  expect(matches("Problem", answer.body)).toBeNull();
}

describe("the account's tokens", () => {
  it("are admin keys holding every permission, made by the operator, used just now", async () => {
    const { mock, admin, call } = setup();
    const list = await call("GET", "/api_keys");
    expect(list.status).toBe(200);
    expect(list.headers.get("x-ratelimit-limit")).toBe("60");
    expect(matches("ApiKeyPage", list.body)).toBeNull();
    expect(list.body.data).toEqual([
      {
        id: admin.apiKeyId,
        name: "mock",
        permissions: [...PERMISSIONS],
        prefix: admin.token.slice(0, 12),
        status: "active",
        created_at: iso(START),
        created_by: null,
        expires_at: null,
        last_used_at: iso(START),
        rotated_at: null,
        previous_secret_expires_at: null,
        revoked_at: null,
      },
    ]);
    // Any new oisr_ token is an account of its own with one such key; a prefix that is not a
    // secret's shape is not shown.
    const first = await client(mock, "oisr_test")("GET", "/api_keys");
    expect(first.body.data).toHaveLength(1);
    expect(first.body.data[0]).toMatchObject({ name: "mock", prefix: null, created_by: null });
    expect(first.body.data[0].id).not.toBe(admin.apiKeyId);
    // Another token of the account is another admin key.
    mock.controls.createToken(admin.accountId);
    expect((await call("GET", "/api_keys")).body.data).toHaveLength(2);
    expect(
      mock.store
        .account(admin.token)
        .apiKeys()
        .map((k) => k.id)[0],
    ).toBe(admin.apiKeyId);
  });
});

describe("creating keys", () => {
  it("answers 201 with the secret once, a Location, and created_by the calling key", async () => {
    const { mock, admin, call } = setup();
    const expires = iso(START + 30 * 24 * HOUR);
    const created = await call("POST", "/api_keys", {
      name: "WMS poller",
      permissions: ["requests:read", "orders:read"],
      expires_at: expires,
    });
    expect(created.status).toBe(201);
    expect(matches("ApiKeyWithSecret", created.body)).toBeNull();
    expect(created.headers.get("location")).toBe(`/v2/api_keys/${created.body.id}`);
    expect(created.body).toMatchObject({
      name: "WMS poller",
      permissions: ["orders:read", "requests:read"],
      prefix: created.body.secret.slice(0, 12),
      status: "active",
      created_by: admin.apiKeyId,
      expires_at: expires,
      last_used_at: null,
    });
    const got = await call("GET", `/api_keys/${created.body.id}`);
    const { secret, ...shown } = created.body;
    expect(got.body).toEqual(shown);
    expect(mock.store.account(admin.token).tokens).toContain(secret);
    // Newest first.
    expect((await call("GET", "/api_keys")).body.data.map((k: { id: string }) => k.id)).toEqual([
      created.body.id,
      admin.apiKeyId,
    ]);
  });

  it("never grants more than the calling key, nor outlives it", async () => {
    const { call, makeKey } = setup();
    const manager = await makeKey(["api_keys:write", "orders:read", "webhooks:write"], {
      expires_at: iso(START + 10 * 24 * HOUR),
    });
    const escalation = await manager.call("POST", "/api_keys", {
      name: "more",
      permissions: ["orders:read", "events:read"],
      expires_at: iso(START + HOUR),
    });
    expect(escalation.status).toBe(403);
    expect(escalation.body).toMatchObject({
      code: "insufficient_permission",
      permission: "events:read",
      api_key_id: manager.id,
    });
    const forever = await manager.call("POST", "/api_keys", {
      name: "forever",
      permissions: ["orders:read"],
    });
    expect(forever.status).toBe(400);
    expect(forever.body.errors[0]).toMatchObject({ pointer: "/expires_at", code: "out_of_range" });
    // A :write grants its :read.
    await makeKey(["webhooks:read"], { expires_at: iso(START + HOUR) }, manager.call);
    expect((await call("GET", "/api_keys")).body.data).toHaveLength(3);
  });
});

describe("permissions", () => {
  it("refuse a call the key may not make with 403, before 404, 429 or the body, and count it nowhere", async () => {
    const { mock, call, makeKey } = setup();
    const poller = await makeKey(["orders:read", "requests:read"]);
    expect((await poller.call("GET", "/orders")).status).toBe(200);

    const refused = await poller.call("GET", "/events");
    expectProblem(refused, insufficientPermission(poller.id, "events:read", "GET /v2/events"));
    expect(refused.headers.get("www-authenticate")).toBe(
      'Bearer realm="oisr", error="insufficient_scope", scope="events:read"',
    );
    expect(refused.headers.get("x-ratelimit-limit")).toBeNull();
    // Not counted: the account's first counted call to /events has 99 of 100 left.
    const allowed = await call("GET", "/events");
    expect(allowed.headers.get("x-ratelimit-remaining")).toBe(
      String(Number(allowed.headers.get("x-ratelimit-limit")) - 1),
    );

    // Before the rate limit, the route and the body: nothing is stored.
    mock.controls.exhaustRateLimit("events_read");
    expect((await poller.call("GET", "/events")).status).toBe(403);
    expect((await poller.call("GET", "/webhook_subscriptions/whs_nope")).status).toBe(403);
    const ingest = await poller.call("POST", "/ingest/orders", "{not json", {
      "content-type": "application/json",
    });
    expectProblem(ingest, insufficientPermission(poller.id, "ingest:write", "POST /v2/ingest/orders"));
    expect(mock.controls.requests()).toEqual([]);
    // A :write includes its :read; a key without api_keys:read cannot list keys.
    const hooks = await makeKey(["webhooks:write"]);
    expect((await hooks.call("GET", "/webhook_subscriptions")).status).toBe(200);
    expect((await poller.call("GET", "/api_keys")).status).toBe(403);
    expect((await poller.call("POST", `/api_keys/${poller.id}/rotate`)).status).toBe(403);
    // A method the path does not have needs what the path's reads need, then is 405.
    expect((await poller.call("PUT", "/orders")).status).toBe(405);
    expect((await hooks.call("PUT", "/orders")).status).toBe(403);
  });
});

describe("expiry", () => {
  it("follows the mock clock: 401 api_key_expired after expires_at, listed as expired, not rotatable", async () => {
    const { mock, call, makeKey } = setup();
    const expiresAt = START + HOUR;
    const temp = await makeKey(["orders:read"], { expires_at: iso(expiresAt) });
    mock.controls.clock.advance(HOUR - 1);
    expect((await temp.call("GET", "/orders")).status).toBe(200);
    mock.controls.clock.advance(1);
    const expired = await temp.call("GET", "/orders");
    expectProblem(expired, apiKeyExpired(temp.id, expiresAt, false));
    expect(expired.body.expired_at).toBe(iso(expiresAt));
    expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await call("GET", `/api_keys/${temp.id}`)).body).toMatchObject({
      status: "expired",
      last_used_at: iso(expiresAt - 1),
    });
    const rotate = await call("POST", `/api_keys/${temp.id}/rotate`);
    expectProblem(rotate, apiKeyInactive({ id: temp.id, expiresAt, revokedAt: null }));
  });
});

describe("rotation", () => {
  it("keeps the replaced secret working for the overlap asked, each replaced secret until its own end", async () => {
    const { mock, admin, call, makeKey } = setup();
    const key = await makeKey(["orders:read"]);
    const hour = await call("POST", `/api_keys/${key.id}/rotate`, { overlap_seconds: 3600 });
    expect(hour.status).toBe(200);
    expect(matches("ApiKeyWithSecret", hour.body)).toBeNull();
    expect(hour.body).toMatchObject({
      id: key.id,
      rotated_at: iso(START),
      previous_secret_expires_at: iso(START + HOUR),
      prefix: hour.body.secret.slice(0, 12),
    });
    expect(hour.body.secret).not.toBe(key.secret);
    const second = client(mock, hour.body.secret);

    mock.controls.clock.advance(HOUR / 2);
    // No body and no Content-Type: the default overlap of 24 h.
    const response = await mock.handle(
      new Request(`${mock.baseUrl}/api_keys/${key.id}/rotate`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin.token}` },
      }),
    );
    const bare = { status: response?.status, body: await response?.json() };
    expect(bare.status).toBe(200);
    expect(bare.body.previous_secret_expires_at).toBe(iso(START + HOUR / 2 + 24 * HOUR));
    const third = client(mock, bare.body.secret);

    expect((await key.call("GET", "/orders")).status).toBe(200);
    expect((await second("GET", "/orders")).status).toBe(200);
    mock.controls.clock.advance(HOUR / 2);
    // The first secret's own end has come; the second keeps its 24 h.
    expectProblem(await key.call("GET", "/orders"), apiKeyExpired(key.id, START + HOUR, true));
    expect((await second("GET", "/orders")).status).toBe(200);
    expect((await third("GET", "/orders")).status).toBe(200);

    // 0 refuses the replaced secret at once.
    const now = mock.controls.clock.now();
    const leak = await call("POST", `/api_keys/${key.id}/rotate`, { overlap_seconds: 0 });
    expect(leak.status).toBe(200);
    expectProblem(await third("GET", "/orders"), apiKeyExpired(key.id, now, true));
    expect((await client(mock, leak.body.secret)("GET", "/orders")).status).toBe(200);
    // Too long an overlap is the schema's 400.
    expect((await call("POST", `/api_keys/${key.id}/rotate`, { overlap_seconds: 604_801 })).status).toBe(400);
  });

  it("is allowed for the account's last admin key, which then calls with its new secret", async () => {
    const { mock, admin, call } = setup();
    const rotated = await call("POST", `/api_keys/${admin.apiKeyId}/rotate`, { overlap_seconds: 0 });
    expect(rotated.status).toBe(200);
    expect((await call("GET", "/api_keys")).status).toBe(401);
    expect((await client(mock, rotated.body.secret)("GET", "/api_keys")).status).toBe(200);
  });
});

describe("revocation", () => {
  it("is immediate and final; the secrets never become an account again", async () => {
    const { mock, call, makeKey } = setup();
    const key = await makeKey(["orders:read"]);
    const rotated = await call("POST", `/api_keys/${key.id}/rotate`);
    const revoked = await call("DELETE", `/api_keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(matches("ApiKey", revoked.body)).toBeNull();
    expect(revoked.body).toMatchObject({
      status: "revoked",
      revoked_at: iso(START),
      previous_secret_expires_at: null,
    });
    for (const secret of [key.secret, rotated.body.secret]) {
      const refused = await client(mock, secret)("GET", "/orders");
      expectProblem(refused, unauthorized(true));
    }
    const again = await call("DELETE", `/api_keys/${key.id}`);
    expectProblem(again, apiKeyInactive({ id: key.id, expiresAt: null, revokedAt: START }));
    expect((await call("POST", `/api_keys/${key.id}/rotate`)).status).toBe(409);
    // A reset forgets keys made through the API; their secrets stay refused.
    mock.controls.reset();
    expect((await client(mock, key.secret)("GET", "/orders")).status).toBe(401);
    expect((await call("GET", "/api_keys")).body.data).toHaveLength(1);
  });

  it("never takes the account's last admin key; a key may revoke itself when another admin remains", async () => {
    const { mock, admin, call, makeKey } = setup();
    const reader = await makeKey(["orders:read"]);
    expect((await call("DELETE", `/api_keys/${reader.id}`)).status).toBe(200);
    expectProblem(await call("DELETE", `/api_keys/${admin.apiKeyId}`), lastAdminKey(admin.apiKeyId));
    // A key holding only api_keys:read does not count, nor does an admin key that expired.
    await makeKey(["api_keys:read"]);
    await makeKey([...PERMISSIONS], { expires_at: iso(START + HOUR) });
    mock.controls.clock.advance(HOUR);
    expect((await call("DELETE", `/api_keys/${admin.apiKeyId}`)).status).toBe(409);
    const other = await makeKey([...PERMISSIONS]);
    const self = await call("DELETE", `/api_keys/${admin.apiKeyId}`);
    expect(self.body).toMatchObject({ id: admin.apiKeyId, status: "revoked" });
    expect((await call("GET", "/api_keys")).status).toBe(401);
    expectProblem(await other.call("DELETE", `/api_keys/${other.id}`), lastAdminKey(other.id));
  });

  it("through the test controls revokes the token's key, even the last admin key; reset forgets that", async () => {
    const { mock, admin, call } = setup({ acceptAnyToken: false });
    mock.controls.revokeToken(admin.token);
    expect((await call("GET", "/orders")).status).toBe(401);
    expect(mock.store.accounts().find((a) => a.id === admin.accountId)?.tokens).toEqual([]);
    mock.controls.reset();
    expect((await call("GET", "/api_keys")).body.data[0]).toMatchObject({
      id: admin.apiKeyId,
      status: "active",
    });
  });
});

describe("keys of another account", () => {
  it("are not found", async () => {
    const { mock, makeKey } = setup();
    const key = await makeKey(["orders:read"]);
    const stranger = client(mock, mock.controls.createAccount("other").token);
    for (const [method, path] of [
      ["GET", `/api_keys/${key.id}`],
      ["DELETE", `/api_keys/${key.id}`],
      ["POST", `/api_keys/${key.id}/rotate`],
    ] as const) {
      expectProblem(await stranger(method, path), apiKeyNotFound(key.id));
    }
    expect((await stranger("GET", "/api_keys")).body.data).toHaveLength(1);
    expect((await key.call("GET", "/orders")).status).toBe(200);
  });
});

describe("api_key_id", () => {
  it("names the submitting key on request records and on every event the request causes", async () => {
    const { mock, admin, call, makeKey } = setup();
    mock.controls.seed({ orders: [order("SO-1"), order("SO-2")] }, { token: admin.token });
    const integration = await makeKey(["ingest:write", "requests:read"]);
    const ack = await integration.call("POST", "/ingest/returns", { returns: [returnOf("RMA-1", "SO-1")] });
    expect(ack.status).toBe(202);
    await mock.controls.flush();
    const record = await integration.call("GET", `/requests/${ack.body.request_id}`);
    expect(record.body).toMatchObject({ status: "succeeded", api_key_id: integration.id });
    expect(mock.controls.requests()[0]?.api_key_id).toBe(integration.id);
    const events = (await call("GET", "/events")).body.data;
    expect(events.map((e: { type: string }) => e.type)).toEqual(["return.created", "request.succeeded"]);
    for (const event of events) expect(event.api_key_id).toBe(integration.id);

    // webhook.test: the key that called …/test.
    const hooks = await makeKey(["webhooks:write"]);
    const subscription = await hooks.call("POST", "/webhook_subscriptions", {
      url: "https://example.com/hook",
      events: ["return.created"],
    });
    expect((await hooks.call("POST", `/webhook_subscriptions/${subscription.body.id}/test`)).status).toBe(
      202,
    );
    expect(mock.controls.events({ type: "webhook.test" }).map((e) => e.api_key_id)).toEqual([hooks.id]);
    // Events seeded with events: true name the seeding token's key.
    mock.controls.seed({ returns: [returnOf("RMA-2", "SO-2")] }, { token: admin.token, events: true });
    expect(mock.controls.events({ type: "return.created" }).map((e) => e.api_key_id)).toEqual([
      integration.id,
      admin.apiKeyId,
    ]);
  });
});
