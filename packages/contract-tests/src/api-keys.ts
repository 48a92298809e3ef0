// Helpers of the API-key tests (docs/decisions/013-api-keys.md): an account's admin key, keys made
// through POST /api_keys with a client holding their secret, and the 401/403 answers of a key.
import { PERMISSIONS } from "@oisr/contract";
import { expect } from "vitest";
import type { ApiResponse, Json } from "./client.ts";
import { type Client, client, expectProblem } from "./harness.ts";

/** Every permission, in the order the spec lists them (the contract's list, tested against the spec). */
export const ALL_PERMISSIONS: string[] = [...PERMISSIONS];

export const SECRET = /^oisr_[A-Za-z0-9_-]{43}$/;
export const KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The account's keys, newest first (one page is enough for these tests). */
export async function listKeys(c: Client): Promise<Json[]> {
  const res = await c.get("/api_keys?limit=200");
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The id of the key `c` holds, when it is the account's only key (a fresh account's admin key). */
export async function ownKeyId(c: Client): Promise<string> {
  const keys = await listKeys(c);
  expect(keys, "a fresh account has exactly one key").toHaveLength(1);
  return keys[0].id;
}

export interface MadeKey {
  /** The 201 body: the key with its secret. */
  key: Json;
  res: ApiResponse;
  /** A client of the same account holding the new secret. */
  as: Client;
}

/** POST /api_keys through `by`, expecting 201; a client holding the new secret. */
export async function makeKey(
  by: Client,
  permissions: string[],
  extra: { name?: string; expires_at?: string } = {},
): Promise<MadeKey> {
  const res = await by.post("/api_keys", { name: extra.name ?? "contract test key", permissions, ...extra });
  expect(res.status, res.text).toBe(201);
  return { key: res.body, res, as: clientWith(by, res.body.secret) };
}

/** A client of `c`'s account holding another secret. */
export const clientWith = (c: Client, secret: string): Client =>
  client(c.system, { accountId: c.accountId, token: secret });

/**
 * 403 insufficient_permission naming `permission` and the key, stating the RFC 6750 scope; refused
 * before the rate limit, so not counted. `afterBody`: a key asking POST /api_keys for a permission it
 * lacks, which is known only from the validated body, after the call was counted.
 */
export function expectForbidden(
  res: ApiResponse,
  permission: string,
  keyId: string,
  { afterBody = false }: { afterBody?: boolean } = {},
): Json {
  const body = expectProblem(res, 403, "insufficient_permission");
  expect(body).toMatchObject({ permission, api_key_id: keyId });
  expect(body.detail).toContain(permission);
  const challenge = res.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/^Bearer\b/);
  expect(challenge).toContain('error="insufficient_scope"');
  expect(challenge).toContain(`scope="${permission}"`);
  // Refused before the rate limit: no scope was counted, so none is reported.
  if (!afterBody) expect(res.headers.get("x-ratelimit-limit"), "a 403 carries no X-RateLimit-*").toBeNull();
  return body;
}

/** 401 api_key_expired naming the key and when it (or the replaced secret) stopped working. */
export function expectExpired(res: ApiResponse, keyId: string): Json {
  const body = expectProblem(res, 401, "api_key_expired");
  expect(body.api_key_id).toBe(keyId);
  expect(body.expired_at).toEqual(expect.any(String));
  expect(Number.isNaN(Date.parse(body.expired_at))).toBe(false);
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  return body;
}

/** 401 unauthorized, as for an unknown secret. */
export function expectUnauthorized(res: ApiResponse): void {
  expectProblem(res, 401, "unauthorized");
  expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  expect(res.headers.get("x-ratelimit-limit")).toBeNull();
}

/** The X-RateLimit-* numbers of a response (expected present). */
export function rateLimit(res: ApiResponse): { limit: number; remaining: number; reset: number } {
  const get = (name: string) => {
    const value = res.headers.get(name);
    expect(value, `${name} on ${res.status} ${res.text}`).toMatch(/^\d+$/);
    return Number(value);
  };
  return {
    limit: get("x-ratelimit-limit"),
    remaining: get("x-ratelimit-remaining"),
    reset: get("x-ratelimit-reset"),
  };
}

/** An ISO instant `ms` from now. */
export const fromNow = (ms: number): string => new Date(Date.now() + ms).toISOString();
