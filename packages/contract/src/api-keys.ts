// API keys as the contract states them (spec: "Authentication and API keys", `Permission`,
// `/api_keys`; docs/decisions/013-api-keys.md): the permission each call needs, what a key's
// permissions grant, the rules a new key must meet, the key as the API shows it, and the problems
// of refused calls. The server (SQL) and the mock (memory) keep keys their own way; every rule
// and text lives here once.
import type { FieldError } from "./body-validator.ts";
import type { components } from "./generated/schema.d.ts";
import { HttpProblem, validationFailed } from "./problems.ts";
import { isRequestRetryCall } from "./retry-paths.ts";

type Schemas = components["schemas"];
export type Permission = Schemas["Permission"];
export type ApiKey = Schemas["ApiKey"];
export type ApiKeyWithSecret = Schemas["ApiKeyWithSecret"];
export type ApiKeyCreate = Schemas["ApiKeyCreate"];
export type ApiKeyRotate = Schemas["ApiKeyRotate"];

/** Every permission, in the order the spec lists them: what an account's first key holds. */
export const PERMISSIONS = [
  "ingest:write",
  "orders:read",
  "returns:read",
  "inventory:read",
  "requests:read",
  "events:read",
  "webhooks:read",
  "webhooks:write",
  "api_keys:read",
  "api_keys:write",
] as const satisfies readonly Permission[];

/** Compile-time proof that PERMISSIONS lists every member of the spec's enum. */
type Missing = Exclude<Permission, (typeof PERMISSIONS)[number]>;
const _allListed: Missing extends never ? true : Missing = true;
void _allListed;

export function isPermission(name: string): name is Permission {
  return (PERMISSIONS as readonly string[]).includes(name);
}

/** The permission that manages keys; an account always keeps one active key holding it. */
export const ADMIN_PERMISSION: Permission = "api_keys:write";

/** Characters of a secret shown as the key's `prefix` (`oisr_` and 7 more). */
export const SECRET_PREFIX_LENGTH = 12;
export const secretPrefix = (secret: string): string => secret.slice(0, SECRET_PREFIX_LENGTH);

/** Overlap of a replaced secret when the caller names none, and the most it may name. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 86_400;
export const MAX_ROTATION_OVERLAP_SECONDS = 604_800;
/** How far ahead `expires_at` may be. */
export const MAX_KEY_LIFETIME_DAYS = 366;
/** `last_used_at` is written at most this often per key and process. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The permission a call needs (path relative to /v2, matched as Express routes it, like
 * scopesFor), or null for a path no permission covers (answered 404 after authentication).
 * GET and HEAD read; any other method on a path writes if the resource has a write permission,
 * else reads (it is answered 405 after the check, as the read it resembles).
 */
export function permissionFor(method: string, path: string): Permission | null {
  const p = path.toLowerCase().replace(/\/$/, "");
  const reads = ["GET", "HEAD"].includes(method.toUpperCase());
  const under = (prefix: string) => p === prefix || p.startsWith(`${prefix}/`);
  if (under("/ingest") || isRequestRetryCall(method, p)) return "ingest:write";
  if (under("/orders")) return "orders:read";
  if (under("/returns")) return "returns:read";
  if (under("/inventory")) return "inventory:read";
  if (under("/requests")) return "requests:read";
  if (under("/events")) return "events:read";
  if (under("/webhook_subscriptions")) return reads ? "webhooks:read" : "webhooks:write";
  if (under("/api_keys")) return reads ? "api_keys:read" : "api_keys:write";
  return null;
}

/**
 * The permissions that grant `needed`: itself and, for a `:read`, the `:write` of the same
 * resource when there is one. The server hands this list to its authorize statement, so the
 * implication rule is stated here only.
 */
export function grantingPermissions(needed: Permission): Permission[] {
  const write = needed.replace(/:read$/, ":write");
  return write !== needed && isPermission(write) ? [needed, write] : [needed];
}

/** Whether a key holding `held` may make a call that needs `needed`. */
export function grants(held: readonly string[], needed: Permission): boolean {
  return grantingPermissions(needed).some((p) => held.includes(p));
}

/** The calling key, as the rules for keys it creates need it. */
export interface CallingKey {
  id: string;
  permissions: readonly string[];
  /** Epoch ms, or null for a key without expiry. */
  expiresAtMs: number | null;
}

/**
 * Why a key may not be created as asked, or null: a permission the calling key lacks (403, the
 * first such in the order asked), else an `expires_at` that is past, more than 366 days ahead, or
 * after the calling key's own expiry (400 at /expires_at). Schema rules (names, the permission
 * list's size and members) are the validator's, before this.
 */
export function newKeyProblem(
  caller: CallingKey,
  input: { permissions: readonly Permission[]; expires_at?: string | undefined },
  nowMs: number,
): HttpProblem | null {
  const missing = input.permissions.find((p) => !grants(caller.permissions, p));
  if (missing) {
    return cannotGrant(
      caller.id,
      missing,
      `API key ${caller.id} cannot grant ${missing}, which it does not hold: a key never grants more than the key that creates it.`,
    );
  }
  const error = expiryError(caller, input.expires_at, nowMs);
  return error ? validationFailed([error]) : null;
}

/**
 * Why the calling key may not rotate `target`, or null. Rotation hands over a secret of the target,
 * so a key may rotate only keys that grant nothing it lacks: otherwise a key holding just
 * api_keys:write could rotate an admin key and take its new secret.
 */
export function rotateKeyProblem(
  caller: Pick<CallingKey, "id" | "permissions">,
  target: { id: string; permissions: readonly string[] },
): HttpProblem | null {
  const missing = PERMISSIONS.find((p) => target.permissions.includes(p) && !grants(caller.permissions, p));
  if (!missing) return null;
  return cannotGrant(
    caller.id,
    missing,
    `API key ${caller.id} cannot rotate ${target.id}, which holds ${missing}: rotating hands over a secret, so a key may rotate only keys that grant nothing it lacks.`,
  );
}

/** 403 for asking, through a key's body or its target, for more than the calling key holds. */
function cannotGrant(callerId: string, permission: Permission, detail: string): HttpProblem {
  return new HttpProblem(403, "insufficient_permission", detail, {
    extensions: { permission, api_key_id: callerId },
    headers: { "WWW-Authenticate": insufficientScope(permission) },
  });
}

const insufficientScope = (permission: Permission) =>
  `Bearer realm="oisr", error="insufficient_scope", scope="${permission}"`;

function expiryError(caller: CallingKey, expiresAt: string | undefined, nowMs: number): FieldError | null {
  const at = (message: string): FieldError => ({ pointer: "/expires_at", code: "out_of_range", message });
  if (expiresAt === undefined) {
    return caller.expiresAtMs === null
      ? null
      : at(
          `The calling key expires at ${new Date(caller.expiresAtMs).toISOString()}; a key it creates must expire by then too.`,
        );
  }
  const ms = Date.parse(expiresAt);
  if (ms <= nowMs) return at("expires_at must be in the future.");
  if (ms > nowMs + MAX_KEY_LIFETIME_DAYS * 86_400_000) {
    return at(`expires_at may be at most ${MAX_KEY_LIFETIME_DAYS} days ahead.`);
  }
  if (caller.expiresAtMs !== null && ms > caller.expiresAtMs) {
    return at(
      `The calling key expires at ${new Date(caller.expiresAtMs).toISOString()}; a key it creates must expire by then too.`,
    );
  }
  return null;
}

/** The rotation overlap a call asks for, in ms (the body is optional). */
export function rotationOverlapMs(body: ApiKeyRotate | undefined | null): number {
  return (body?.overlap_seconds ?? DEFAULT_ROTATION_OVERLAP_SECONDS) * 1000;
}

/** A key as stored, whatever the store: instants as epoch ms (the mock) or timestamp text (SQL). */
export interface StoredApiKey {
  id: string;
  name: string;
  permissions: readonly string[];
  /** The current secret's first SECRET_PREFIX_LENGTH characters; null for secrets made before keys existed. */
  prefix: string | null;
  createdAt: number | string;
  createdBy: string | null;
  expiresAt: number | string | null;
  lastUsedAt: number | string | null;
  rotatedAt: number | string | null;
  /** The latest end of a secret replaced by rotation (past or future), or null. */
  previousSecretExpiresAt: number | string | null;
  revokedAt: number | string | null;
}

const ms = (at: number | string): number => (typeof at === "number" ? at : Date.parse(at));
const iso = (at: number | string | null): string | null =>
  at === null ? null : new Date(ms(at)).toISOString();

export type ApiKeyStatus = ApiKey["status"];

export function apiKeyStatus(
  key: Pick<StoredApiKey, "expiresAt" | "revokedAt">,
  nowMs: number,
): ApiKeyStatus {
  if (key.revokedAt !== null) return "revoked";
  if (key.expiresAt !== null && ms(key.expiresAt) <= nowMs) return "expired";
  return "active";
}

/** Whether the key can still authenticate and, holding api_keys:write, manage keys. */
export function isActiveAdmin(key: StoredApiKey, nowMs: number): boolean {
  return apiKeyStatus(key, nowMs) === "active" && key.permissions.includes(ADMIN_PERMISSION);
}

export function toApiKey(key: StoredApiKey, nowMs: number): ApiKey {
  const previous =
    key.previousSecretExpiresAt !== null && ms(key.previousSecretExpiresAt) > nowMs && key.revokedAt === null
      ? iso(key.previousSecretExpiresAt)
      : null;
  return {
    id: key.id,
    name: key.name,
    // In the spec's order, whatever order they were asked in.
    permissions: PERMISSIONS.filter((p) => key.permissions.includes(p)),
    prefix: key.prefix,
    status: apiKeyStatus(key, nowMs),
    created_at: iso(key.createdAt) as string,
    created_by: key.createdBy,
    expires_at: iso(key.expiresAt),
    last_used_at: iso(key.lastUsedAt),
    rotated_at: iso(key.rotatedAt),
    previous_secret_expires_at: previous,
    revoked_at: iso(key.revokedAt),
  };
}

export function toApiKeyWithSecret(key: StoredApiKey, secret: string, nowMs: number): ApiKeyWithSecret {
  return { ...toApiKey(key, nowMs), secret };
}

/** Where a new key is, for the 201's `Location`. */
export const apiKeyLocation = (basePath: string, id: string) => `${basePath}/api_keys/${id}`;

// ----- Problems ---------------------------------------------------------------------------------

/** 403: the key lacks the permission the call needs. `route` is "GET /v2/events" as called. */
export function insufficientPermission(apiKeyId: string, permission: Permission, route: string): HttpProblem {
  return new HttpProblem(
    403,
    "insufficient_permission",
    `API key ${apiKeyId} lacks the permission ${permission}, which ${route} needs.`,
    {
      extensions: { permission, api_key_id: apiKeyId },
      headers: { "WWW-Authenticate": insufficientScope(permission) },
    },
  );
}

/**
 * 401 for a key past its expiry, or (`replacedSecret`) a secret whose rotation overlap ended.
 * Only the holder of that secret gets this answer, so naming the key tells them nothing new.
 */
export function apiKeyExpired(
  apiKeyId: string,
  expiredAt: number | string,
  replacedSecret: boolean,
  headers: Record<string, string> = {},
): HttpProblem {
  const when = iso(expiredAt) as string;
  const detail = replacedSecret
    ? `This secret of API key ${apiKeyId} was replaced by a rotation and stopped working at ${when}; use the key's new secret.`
    : `API key ${apiKeyId} expired at ${when}; ask an account admin for a new key.`;
  return new HttpProblem(401, "api_key_expired", detail, {
    extensions: { api_key_id: apiKeyId, expired_at: when },
    headers: {
      "WWW-Authenticate": `Bearer realm="oisr", error="invalid_token", error_description="The API key expired"`,
      ...headers,
    },
  });
}

/** 409: rotating a key that is revoked or expired, or revoking a revoked one (an expired key may be revoked). */
export function apiKeyInactive(key: Pick<StoredApiKey, "id" | "expiresAt" | "revokedAt">): HttpProblem {
  const detail =
    key.revokedAt !== null
      ? `API key ${key.id} was revoked at ${iso(key.revokedAt)}.`
      : `API key ${key.id} expired at ${iso(key.expiresAt)}; create a new key instead.`;
  return new HttpProblem(409, "api_key_inactive", detail, { extensions: { api_key_id: key.id } });
}

/** 409: revoking the account's last active key that can manage keys. */
export function lastAdminKey(apiKeyId: string): HttpProblem {
  return new HttpProblem(
    409,
    "last_admin_key",
    `API key ${apiKeyId} is the account's last active key with ${ADMIN_PERMISSION}; create another admin key before revoking it.`,
    { extensions: { api_key_id: apiKeyId } },
  );
}

/** 404 of a key id that is not the account's (another account's looks the same). */
export const apiKeyNotFound = (id: string) =>
  new HttpProblem(404, "not_found", `No API key ${id} in this account.`);
