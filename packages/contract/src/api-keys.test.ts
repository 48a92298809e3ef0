import { describe, expect, it } from "vitest";
import {
  apiKeyExpired,
  apiKeyInactive,
  grants,
  insufficientPermission,
  lastAdminKey,
  newKeyProblem,
  PERMISSIONS,
  type Permission,
  permissionFor,
  rotateKeyProblem,
  rotationOverlapMs,
  type StoredApiKey,
  toApiKey,
  toApiKeyWithSecret,
} from "./api-keys.ts";
import { BodyValidator } from "./body-validator.ts";
import { problemBody } from "./problems.ts";
import { openapiDocument } from "./spec.ts";

const validator = new BodyValidator(openapiDocument);
const schemaProblems = (schema: string, value: unknown) =>
  validator.validate({ $ref: `#/components/schemas/${schema}` }, structuredClone(value));

const NOW = Date.parse("2026-01-01T10:00:00.000Z");
const DAY = 86_400_000;
const ADMIN = { id: "key_A", permissions: [...PERMISSIONS], expiresAtMs: null };

describe("the permission a call needs", () => {
  it.each([
    ["POST", "/ingest/orders", "ingest:write"],
    ["POST", "/ingest/returns/RMA-1/dispositions", "ingest:write"],
    ["GET", "/ingest/orders", "ingest:write"],
    ["GET", "/orders", "orders:read"],
    ["HEAD", "/orders/ord_1", "orders:read"],
    ["PUT", "/orders", "orders:read"],
    ["GET", "/returns/RMA-1", "returns:read"],
    ["GET", "/inventory", "inventory:read"],
    ["GET", "/requests/abc", "requests:read"],
    ["GET", "/events/evt_1", "events:read"],
    ["GET", "/webhook_subscriptions/whs_1/deliveries", "webhooks:read"],
    ["POST", "/webhook_subscriptions/whs_1/test", "webhooks:write"],
    ["DELETE", "/webhook_subscriptions/whs_1", "webhooks:write"],
    ["GET", "/api_keys", "api_keys:read"],
    ["POST", "/api_keys/key_1/rotate", "api_keys:write"],
    ["GET", "/Orders/", "orders:read"],
    ["GET", "/openapi.json", null],
    ["GET", "/ordersx", null],
    ["GET", "/nope", null],
  ])("%s %s needs %s", (method, path, permission) => {
    expect(permissionFor(method, path)).toBe(permission);
  });

  it("agrees with every operation's security requirement in the spec", () => {
    let operations = 0;
    for (const [template, item] of Object.entries(openapiDocument.paths as Record<string, object>)) {
      const path = template.replaceAll(/\{[^}]+\}/g, "x");
      for (const [method, operation] of Object.entries(
        item as Record<string, { security?: { bearerAuth?: string[] }[] }>,
      )) {
        const requirement = operation.security;
        if (!Array.isArray(requirement) || requirement.length === 0) continue;
        operations++;
        expect(requirement, `${method} ${template}`).toEqual([{ bearerAuth: [permissionFor(method, path)] }]);
      }
    }
    expect(operations).toBeGreaterThan(25);
  });

  it("lists every permission of the spec's enum", () => {
    const schemas = (openapiDocument.components as { schemas: Record<string, { enum?: string[] }> }).schemas;
    expect([...PERMISSIONS]).toEqual(schemas.Permission?.enum);
  });
});

describe("what permissions grant", () => {
  it.each<[Permission[], Permission, boolean]>([
    [["orders:read"], "orders:read", true],
    [["orders:read"], "returns:read", false],
    [["webhooks:write"], "webhooks:read", true],
    [["webhooks:read"], "webhooks:write", false],
    [["api_keys:write"], "api_keys:read", true],
    [["ingest:write"], "requests:read", false],
    [[], "orders:read", false],
  ])("%j grants %s: %s", (held, needed, expected) => {
    expect(grants(held, needed)).toBe(expected);
  });
});

describe("the rules of a new key", () => {
  it("allows any subset to an admin key without expiry, with or without an expiry", () => {
    expect(newKeyProblem(ADMIN, { permissions: ["orders:read"] }, NOW)).toBeNull();
    const in30 = new Date(NOW + 30 * DAY).toISOString();
    expect(newKeyProblem(ADMIN, { permissions: ["orders:read"], expires_at: in30 }, NOW)).toBeNull();
  });

  it("refuses, with 403 naming it, the first permission the caller does not hold", () => {
    const caller = { id: "key_B", permissions: ["api_keys:write", "orders:read"], expiresAtMs: null };
    const problem = newKeyProblem(
      caller,
      { permissions: ["orders:read", "events:read", "ingest:write"] },
      NOW,
    );
    expect(problem?.status).toBe(403);
    expect(problem?.code).toBe("insufficient_permission");
    expect(problem?.extensions).toEqual({ permission: "events:read", api_key_id: "key_B" });
    expect(problem?.headers["WWW-Authenticate"]).toContain('scope="events:read"');
    // webhooks:write grants webhooks:read, so a key holding it may hand out the read.
    const writer = { id: "key_C", permissions: ["api_keys:write", "webhooks:write"], expiresAtMs: null };
    expect(newKeyProblem(writer, { permissions: ["webhooks:read"] }, NOW)).toBeNull();
  });

  it.each([
    ["in the past", NOW - 1000, null],
    ["now", NOW, null],
    ["more than 366 days ahead", NOW + 367 * DAY, null],
    ["after the calling key's expiry", NOW + 10 * DAY, NOW + 5 * DAY],
    ["left out by a calling key that expires", undefined, NOW + 5 * DAY],
  ])("refuses an expires_at %s with 400 out_of_range at /expires_at", (_name, at, callerExpiry) => {
    const caller = { ...ADMIN, expiresAtMs: callerExpiry };
    const expires_at = at === undefined ? undefined : new Date(at).toISOString();
    const problem = newKeyProblem(caller, { permissions: ["orders:read"], expires_at }, NOW);
    expect(problem?.status).toBe(400);
    expect(problem?.errors?.[0]).toMatchObject({ pointer: "/expires_at", code: "out_of_range" });
  });

  it("lets a key rotate only keys that grant nothing it lacks", () => {
    const keyAdmin = { id: "key_K", permissions: ["api_keys:write", "orders:read"] };
    expect(rotateKeyProblem(keyAdmin, { id: "key_R", permissions: ["orders:read"] })).toBeNull();
    expect(rotateKeyProblem(keyAdmin, { id: "key_R", permissions: ["api_keys:read"] })).toBeNull();
    const problem = rotateKeyProblem(keyAdmin, { id: "key_A", permissions: [...PERMISSIONS] });
    expect(problem?.status).toBe(403);
    expect(problem?.extensions).toEqual({ permission: "ingest:write", api_key_id: "key_K" });
    expect(rotateKeyProblem(ADMIN, { id: "key_A", permissions: [...PERMISSIONS] })).toBeNull();
  });

  it("takes the default rotation overlap of 24 h when none is asked", () => {
    expect(rotationOverlapMs(undefined)).toBe(DAY);
    expect(rotationOverlapMs({})).toBe(DAY);
    expect(rotationOverlapMs({ overlap_seconds: 0 })).toBe(0);
  });
});

describe("the key as the API shows it", () => {
  const stored: StoredApiKey = {
    id: "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD",
    name: "poller",
    permissions: ["requests:read", "orders:read"],
    prefix: "oisr_Q2xvdWR",
    createdAt: NOW - DAY,
    createdBy: null,
    expiresAt: new Date(NOW + DAY).toISOString(),
    lastUsedAt: null,
    rotatedAt: NOW - 1000,
    previousSecretExpiresAt: NOW + 1000,
    revokedAt: null,
  };

  it("derives the status, orders permissions as the spec does, and matches the schema", () => {
    const key = toApiKey(stored, NOW);
    expect(key.status).toBe("active");
    expect(key.permissions).toEqual(["orders:read", "requests:read"]);
    expect(key.previous_secret_expires_at).toBe(new Date(NOW + 1000).toISOString());
    expect(schemaProblems("ApiKey", key)).toBeNull();
    const secret = `oisr_${"a".repeat(43)}`;
    expect(schemaProblems("ApiKeyWithSecret", toApiKeyWithSecret(stored, secret, NOW))).toBeNull();
  });

  it("is expired after expires_at, revoked once revoked, and shows no overlap that has ended", () => {
    expect(toApiKey(stored, NOW + 2 * DAY).status).toBe("expired");
    expect(toApiKey(stored, NOW + 2000).previous_secret_expires_at).toBeNull();
    expect(toApiKey({ ...stored, revokedAt: NOW }, NOW).status).toBe("revoked");
  });
});

describe("the problems of keys match the spec's Problem", () => {
  it.each([
    ["403", insufficientPermission("key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD", "events:read", "GET /v2/events")],
    ["401 expired", apiKeyExpired("key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD", NOW, false)],
    ["401 replaced secret", apiKeyExpired("key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD", NOW, true)],
    [
      "409 inactive",
      apiKeyInactive({ id: "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD", expiresAt: null, revokedAt: NOW }),
    ],
    ["409 last admin", lastAdminKey("key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD")],
  ])("%s", (_name, problem) => {
    const body = problemBody(problem, "4bf92f3577b34da6a3ce929d0e0e4736");
    expect(schemaProblems("Problem", body)).toBeNull();
    expect(body.api_key_id).toBe("key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD");
  });

  it("403 says which permission and which key, in the body and in WWW-Authenticate", () => {
    const problem = insufficientPermission("key_1", "events:read", "GET /v2/events");
    expect(problem.message).toBe(
      "API key key_1 lacks the permission events:read, which GET /v2/events needs.",
    );
    expect(problem.headers["WWW-Authenticate"]).toBe(
      'Bearer realm="oisr", error="insufficient_scope", scope="events:read"',
    );
  });
});
