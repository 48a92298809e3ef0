// The API keys of every account of one mock, found by secret. A key is @oisr/contract's
// StoredApiKey with instants as epoch ms on the mock clock; the mock keeps its secrets in memory
// (the server keeps only their hashes). Every rule about keys (what a call needs, what a key may
// grant, status, the problems) is @oisr/contract's; this file only keeps them.
import { PERMISSIONS, type StoredApiKey, secretPrefix } from "@oisr/contract";
import { newToken, ulidFactory } from "../ids.ts";

export interface MockApiKey extends StoredApiKey {
  accountId: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  rotatedAt: number | null;
  previousSecretExpiresAt: number | null;
  revokedAt: number | null;
  /** The current secret. */
  secret: string;
  /** Secrets replaced by rotation → when each stops working (each keeps its own end). */
  replaced: Map<string, number>;
  /**
   * The secret an operator key (`created_by: null`: a token's, made by the test controls or by
   * first use) was made with: `reset()` gives it back.
   */
  firstSecret: string;
}

/** What a secret names: a key (its current or a replaced secret), or nothing that may call. */
export type SecretLookup = { key: MockApiKey; replacedEndsAt: number | null } | "refused" | undefined;

/** The name of the keys the test controls (and first use of a token) make. */
export const OPERATOR_KEY_NAME = "mock";

/** What the API shows as `prefix`: the spec's 12 characters, or null for a token of another shape (`oisr_test`). */
function prefixOf(secret: string): string | null {
  const prefix = secretPrefix(secret);
  return /^oisr_[A-Za-z0-9_-]{7}$/.test(prefix) ? prefix : null;
}

export class ApiKeyRing {
  readonly #keys = new Map<string, MockApiKey>();
  /** Secret → key id; null: refused (a token revoked before it was ever used, or a secret of a key reset forgot). */
  readonly #owners = new Map<string, string | null>();
  /** Refused secrets that `reset()` keeps refusing: secrets of keys it forgot. */
  readonly #gone = new Set<string>();
  // Never reset: key ids keep sorting in creation order across resets (lists are newest first by id).
  readonly #ulid = ulidFactory();

  /** A new key; `secret` names the token it is made for (test controls, first use), else a fresh one. */
  add(
    input: {
      accountId: string;
      name: string;
      permissions: readonly string[];
      expiresAt: number | null;
      createdBy: string | null;
      secret?: string;
    },
    now: number,
  ): MockApiKey {
    const secret = input.secret ?? newToken();
    if (this.#owners.has(secret)) throw new Error("that token already belongs to a key");
    const key: MockApiKey = {
      id: `key_${this.#ulid(now)}`,
      accountId: input.accountId,
      name: input.name,
      permissions: [...input.permissions],
      prefix: prefixOf(secret),
      createdAt: now,
      createdBy: input.createdBy,
      expiresAt: input.expiresAt,
      lastUsedAt: null,
      rotatedAt: null,
      previousSecretExpiresAt: null,
      revokedAt: null,
      secret,
      replaced: new Map(),
      firstSecret: secret,
    };
    this.#keys.set(key.id, key);
    this.#owners.set(secret, key.id);
    return key;
  }

  /** An operator key: every permission, no expiry, `created_by: null`. */
  addOperatorKey(accountId: string, secret: string | undefined, now: number): MockApiKey {
    return this.add(
      {
        accountId,
        name: OPERATOR_KEY_NAME,
        permissions: PERMISSIONS,
        expiresAt: null,
        createdBy: null,
        secret,
      },
      now,
    );
  }

  find(secret: string): SecretLookup {
    if (!this.#owners.has(secret)) return undefined;
    const id = this.#owners.get(secret);
    const key = id ? this.#keys.get(id) : undefined;
    if (!key) return "refused";
    return { key, replacedEndsAt: key.secret === secret ? null : (key.replaced.get(secret) ?? null) };
  }

  get(id: string): MockApiKey | undefined {
    return this.#keys.get(id);
  }

  ofAccount(accountId: string): MockApiKey[] {
    return [...this.#keys.values()].filter((k) => k.accountId === accountId);
  }

  /** A new secret; the current one keeps working for `overlapMs` (0: not at all). */
  rotate(key: MockApiKey, overlapMs: number, now: number): string {
    const secret = newToken();
    const endsAt = now + overlapMs;
    key.replaced.set(key.secret, endsAt);
    key.secret = secret;
    key.prefix = prefixOf(secret);
    key.rotatedAt = now;
    key.previousSecretExpiresAt = Math.max(key.previousSecretExpiresAt ?? endsAt, endsAt);
    this.#owners.set(secret, key.id);
    return secret;
  }

  revoke(key: MockApiKey, now: number): void {
    key.revokedAt ??= now;
  }

  /** A token revoked before it named any key: refused until `reset()`, never an account. */
  refuse(secret: string): void {
    this.#owners.set(secret, null);
  }

  /**
   * Operator keys go back to what they were made as (their first secret, every permission,
   * never used, rotated or revoked); keys made through the API are forgotten with the rest of the
   * accounts' data. Every secret that no longer names a key stays refused; tokens revoked before
   * they named a key are forgotten.
   */
  reset(): void {
    for (const [secret, id] of this.#owners) {
      if (id === null && !this.#gone.has(secret)) this.#owners.delete(secret);
    }
    for (const key of [...this.#keys.values()]) {
      const kept = key.createdBy === null ? key.firstSecret : null;
      for (const secret of [key.secret, ...key.replaced.keys()]) {
        if (secret === kept) continue;
        this.#owners.set(secret, null);
        this.#gone.add(secret);
      }
      if (kept === null) {
        this.#keys.delete(key.id);
        continue;
      }
      key.secret = kept;
      key.prefix = prefixOf(kept);
      key.replaced = new Map();
      key.lastUsedAt = null;
      key.rotatedAt = null;
      key.previousSecretExpiresAt = null;
      key.revokedAt = null;
    }
  }
}
