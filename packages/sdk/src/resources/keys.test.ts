import { PERMISSIONS } from "@oisr/contract";
import { describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  NotFoundError,
  PermissionError,
  ValidationError,
} from "../errors.ts";
import { client } from "../internal/client-fixtures.ts";
import { json, problem } from "../internal/test-utils.ts";
import type { ApiKey, ApiKeyWithSecret } from "../types.ts";

const KEY = "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD";
const ADMIN = "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P";
// The spec's examples.
const key: ApiKey = {
  id: KEY,
  name: "WMS poller (Leipzig)",
  permissions: ["orders:read", "returns:read", "ingest:write", "requests:read"],
  prefix: "oisr_Q2xvdWR",
  status: "active",
  created_at: "2025-03-20T08:00:00.000Z",
  created_by: ADMIN,
  expires_at: "2026-03-20T08:00:00.000Z",
  last_used_at: null,
  rotated_at: null,
  previous_secret_expires_at: null,
  revoked_at: null,
};
const withSecret: ApiKeyWithSecret = { ...key, secret: "oisr_Q2xvdWR8DevTM6O55Gs0Yrr5j7MTBM8Rq-vA_zLaKcc" };
const pathOf = (url: string | undefined) => new URL(url ?? "").pathname;
const bodyOf = (body: string | undefined) => (body ? JSON.parse(body) : undefined);

describe("keys.create", () => {
  it("POSTs name, permissions and expires_at and resolves to the key with its secret, Location reachable", async () => {
    const location = `/v2/api_keys/${KEY}`;
    const { client: c, calls } = client({ "POST /api_keys": json(withSecret, 201, { location }) });
    const { data, response } = await c.keys
      .create({
        name: key.name,
        permissions: key.permissions,
        expiresAt: "2026-03-20T08:00:00.000Z",
      })
      .withResponse();
    expect(data).toEqual(withSecret);
    expect(response.status).toBe(201);
    expect(response.headers.get("location")).toBe(location);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe("POST");
    expect(pathOf(calls[0]?.url)).toBe("/v2/api_keys");
    expect(bodyOf(calls[0]?.body)).toEqual({
      name: key.name,
      permissions: key.permissions,
      expires_at: "2026-03-20T08:00:00.000Z",
    });
    // Not an ingest call: no Idempotency-Key.
    expect(calls[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("sends a Date as RFC 3339 and leaves expires_at out when none is given", async () => {
    const { client: c, calls } = client({ "POST /api_keys": json(withSecret, 201) });
    await c.keys.create({
      name: "ERP",
      permissions: ["orders:read"],
      expiresAt: new Date("2026-01-02T03:04:05Z"),
    });
    await c.keys.create({ name: "forever", permissions: PERMISSIONS });
    expect(bodyOf(calls[0]?.body)).toEqual({
      name: "ERP",
      permissions: ["orders:read"],
      expires_at: "2026-01-02T03:04:05.000Z",
    });
    expect(bodyOf(calls[1]?.body)).toEqual({ name: "forever", permissions: [...PERMISSIONS] });
  });

  it("asking for a permission the calling key lacks is a PermissionError naming the permission and the key", async () => {
    const detail = `API key ${ADMIN} lacks the permission webhooks:write, which POST /v2/api_keys needs.`;
    const { client: c } = client({
      "POST /api_keys": problem(
        403,
        "insufficient_permission",
        { "www-authenticate": 'Bearer error="insufficient_scope", scope="webhooks:write"' },
        { detail, permission: "webhooks:write", api_key_id: ADMIN },
      ),
    });
    const err = await c.keys
      .create({ name: "hooks", permissions: ["webhooks:write"] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermissionError);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as PermissionError;
    expect(e.name).toBe("PermissionError");
    expect(e.status).toBe(403);
    expect(e.code).toBe("insufficient_permission");
    expect(e.permission).toBe("webhooks:write");
    expect(e.apiKeyId).toBe(ADMIN);
    expect(e.message).toContain(detail);
    expect(e.headers.get("www-authenticate")).toContain("insufficient_scope");
  });

  it("is sent once after a network error or a 500 (a second call could make a second key)", async () => {
    const network = client({ "POST /api_keys": new TypeError("fetch failed") });
    const err = await network.client.keys.create({ name: "x", permissions: ["orders:read"] }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(network.calls).toHaveLength(1);
    const failed = client({ "POST /api_keys": problem(500, "internal_error") });
    await expect(
      failed.client.keys.create({ name: "x", permissions: ["orders:read"] }),
    ).rejects.toMatchObject({
      status: 500,
    });
    expect(failed.calls).toHaveLength(1);
  });
});

describe("keys.list, iterate and get", () => {
  it("list sends the query and resolves to the page", async () => {
    const page = { data: [key], next_cursor: "c1", has_more: false };
    const { client: c, calls } = client({ "GET /api_keys": json(page) });
    expect(await c.keys.list({ limit: 1 })).toEqual(page);
    expect(new URL(calls[0]?.url ?? "").search).toBe("?limit=1");
  });

  it("iterate follows next_cursor while has_more and keeps the filters", async () => {
    const second = { ...key, id: ADMIN, name: "Admin" };
    const { client: c, calls } = client({
      "GET /api_keys": [
        json({ data: [key], next_cursor: "c1", has_more: true }),
        json({ data: [second], next_cursor: "c2", has_more: false }),
      ],
    });
    const ids: string[] = [];
    for await (const k of c.keys.iterate({ limit: 1 })) ids.push(k.id);
    expect(ids).toEqual([KEY, ADMIN]);
    expect(calls.map((call) => new URL(call.url).search)).toEqual(["?limit=1", "?limit=1&cursor=c1"]);
  });

  it("get reads one key; an unknown one is a NotFoundError", async () => {
    const { client: c, calls } = client({
      [`GET /api_keys/${KEY}`]: json(key),
      "GET /api_keys/*": problem(404, "not_found"),
    });
    expect(await c.keys.get(KEY)).toEqual(key);
    expect(pathOf(calls[0]?.url)).toBe(`/v2/api_keys/${KEY}`);
    await expect(c.keys.get("key_missing")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("keys.rotate", () => {
  const rotated = {
    ...withSecret,
    rotated_at: "2025-03-25T08:00:00.000Z",
    previous_secret_expires_at: "2025-03-26T08:00:00.000Z",
  };

  it("sends no body without an overlap (the API's default applies)", async () => {
    const { client: c, calls } = client({ "POST /api_keys/*/rotate": json(rotated) });
    const { data, response } = await c.keys.rotate(KEY).withResponse();
    expect(data).toEqual(rotated);
    expect(response.status).toBe(200);
    expect(calls[0]?.method).toBe("POST");
    expect(pathOf(calls[0]?.url)).toBe(`/v2/api_keys/${KEY}/rotate`);
    expect(calls[0]?.body).toBe("");
    expect(calls[0]?.headers.has("content-type")).toBe(false);
    await c.keys.rotate(KEY, {});
    expect(calls[1]?.body).toBe("");
  });

  it("sends overlap_seconds, 0 included", async () => {
    const { client: c, calls } = client({ "POST /api_keys/*/rotate": json(rotated) });
    await c.keys.rotate(KEY, { overlapSeconds: 3600 });
    await c.keys.rotate(KEY, { overlapSeconds: 0 });
    expect(calls.map((call) => bodyOf(call.body))).toEqual([
      { overlap_seconds: 3600 },
      { overlap_seconds: 0 },
    ]);
    expect(calls[0]?.headers.get("content-type")).toContain("application/json");
  });

  it("a revoked or expired key is a ConflictError (api_key_inactive); a network error is not retried", async () => {
    const { client: c } = client({
      "POST /api_keys/*/rotate": problem(409, "api_key_inactive", {}, { api_key_id: KEY }),
    });
    const err = await c.keys.rotate(KEY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ status: 409, code: "api_key_inactive", problem: { api_key_id: KEY } });

    const network = client({ "POST /api_keys/*/rotate": new TypeError("fetch failed") });
    await expect(network.client.keys.rotate(KEY)).rejects.toBeInstanceOf(ConnectionError);
    expect(network.calls).toHaveLength(1);
  });

  it("an overlap out of range is a ValidationError", async () => {
    const { client: c } = client({ "POST /api_keys/*/rotate": problem(400, "validation_failed") });
    await expect(c.keys.rotate(KEY, { overlapSeconds: 10_000_000 })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe("keys.revoke", () => {
  it("DELETEs the key and resolves to it revoked", async () => {
    const revoked = { ...key, status: "revoked", revoked_at: "2025-03-25T08:10:44.120Z" };
    const { client: c, calls } = client({ "DELETE /api_keys/*": json(revoked) });
    const { data, response } = await c.keys.revoke(KEY).withResponse();
    expect(data).toEqual(revoked);
    expect(response.status).toBe(200);
    expect(calls[0]?.method).toBe("DELETE");
    expect(pathOf(calls[0]?.url)).toBe(`/v2/api_keys/${KEY}`);
  });

  it.each(["api_key_inactive", "last_admin_key"] as const)("a 409 %s is a ConflictError", async (code) => {
    const { client: c } = client({ "DELETE /api_keys/*": problem(409, code, {}, { api_key_id: KEY }) });
    const err = await c.keys.revoke(KEY).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConflictError);
    expect(err).toMatchObject({ status: 409, code });
  });
});

describe("key errors on any call", () => {
  it("a 403 is a PermissionError whose message names the permission and the key", async () => {
    const detail = `API key ${KEY} lacks the permission events:read, which GET /v2/events needs.`;
    const { client: c, calls } = client({
      "GET /events": problem(
        403,
        "insufficient_permission",
        {},
        { detail, permission: "events:read", api_key_id: KEY },
      ),
    });
    const err = (await c.events.list().catch((e: unknown) => e)) as PermissionError;
    expect(err).toBeInstanceOf(PermissionError);
    expect(err.permission).toBe("events:read");
    expect(err.apiKeyId).toBe(KEY);
    expect(err.message).toBe(
      `403 insufficient_permission: ${detail} (trace 0af7651916cd43dd8448eb211c80319c)`,
    );
    // Never retried: no retry can give the key a permission.
    expect(calls).toHaveLength(1);
  });

  it("a 403 that is not the API's problem (a proxy's page) is still a PermissionError, without permission", async () => {
    const { client: c } = client({
      "GET /orders/*": () => new Response("<h1>Forbidden</h1>", { status: 403, statusText: "Forbidden" }),
    });
    const err = (await c.orders.get("A-1").catch((e: unknown) => e)) as PermissionError;
    expect(err).toBeInstanceOf(PermissionError);
    expect(err.code).toBeUndefined();
    expect(err.permission).toBeUndefined();
    expect(err.apiKeyId).toBeUndefined();
  });

  it("a 401 api_key_expired is an AuthenticationError with expiredAt and apiKeyId; its message is the detail", async () => {
    const detail = `API key ${KEY} expired at 2026-03-20T08:00:00.000Z.`;
    const { client: c, calls } = client({
      "GET /orders/*": problem(
        401,
        "api_key_expired",
        { "www-authenticate": "Bearer" },
        { detail, api_key_id: KEY, expired_at: "2026-03-20T08:00:00.000Z" },
      ),
    });
    const err = (await c.orders.get("A-1").catch((e: unknown) => e)) as AuthenticationError;
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.code).toBe("api_key_expired");
    expect(err.expiredAt).toBe("2026-03-20T08:00:00.000Z");
    expect(err.apiKeyId).toBe(KEY);
    expect(err.message).toContain(detail);
    expect(calls).toHaveLength(1);
  });

  it("a plain 401 has no expiredAt", async () => {
    const { client: c } = client({ "GET /orders/*": problem(401, "unauthorized") });
    const err = (await c.orders.get("A-1").catch((e: unknown) => e)) as AuthenticationError;
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err.expiredAt).toBeUndefined();
  });
});
