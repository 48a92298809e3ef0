// Every account of one mock, and its API keys, found by secret. Each distinct `oisr_…` token is an
// account of its own (made on first use) whose key holds every permission, unless it was minted
// for an existing account or revoked; keys made through `/api_keys` have their own permissions,
// expiry and secrets (store/api-keys.ts).
import type { IdPrefix } from "@oisr/contract";
import type { Clock } from "../clock.ts";
import { newToken, ulidFactory } from "../ids.ts";
import { Account } from "./account.ts";
import { ApiKeyRing, type MockApiKey } from "./api-keys.ts";
import type { RateLimitScope } from "./rate-limit.ts";

/** A call's credentials: the account and the key whose secret it sent. */
export interface Credentials {
  account: Account;
  key: MockApiKey;
}

/**
 * Why a known key's secret no longer works: the key passed its `expires_at` (`at`), else
 * (`replacedSecret`) the secret was replaced by a rotation whose overlap ended at `at`.
 */
export interface ExpiredSecret {
  expired: { keyId: string; at: number; replacedSecret: boolean };
}

export class MockStore {
  readonly accounts = new Map<string, Account>();
  readonly keys = new ApiKeyRing();
  /** Account id → name, kept by reset: keys still name their (then empty) accounts. */
  readonly #accountNames = new Map<string, string>();
  readonly #clock: Clock;
  #ulid = ulidFactory();
  #requestSeq = 0;
  /** `exhaustRateLimit(scope)` without a token: accounts made within the window start exhausted too. */
  exhaustedEverywhere: { scope: RateLimitScope; at: number }[] = [];
  onAccountCreated: ((account: Account) => void) | undefined;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  newId(prefix: IdPrefix): string {
    return `${prefix}_${this.#ulid(this.#clock.now())}`;
  }

  nextRequestSeq(): number {
    return ++this.#requestSeq;
  }

  /**
   * The credentials of a call's Bearer token: null when refused as unknown or revoked (a new
   * `oisr_` token becomes an account of its own when `create` is true), `expired` for a key past
   * its expiry or a replaced secret past its end. Records the key's use (`last_used_at`).
   */
  authenticate(token: string, create = true): Credentials | ExpiredSecret | null {
    const now = this.#clock.now();
    const found = this.keys.find(token);
    if (found === undefined) {
      if (!create || !token.startsWith("oisr_")) return null;
      return this.#newAccount("mock", token);
    }
    if (found === "refused" || found.key.revokedAt !== null) return null;
    const { key, replacedEndsAt } = found;
    // The key's expiry first, as the server's statement decides it.
    if (key.expiresAt !== null && key.expiresAt <= now) {
      return { expired: { keyId: key.id, at: key.expiresAt, replacedSecret: false } };
    }
    if (replacedEndsAt !== null && replacedEndsAt <= now) {
      return { expired: { keyId: key.id, at: replacedEndsAt, replacedSecret: true } };
    }
    key.lastUsedAt = now;
    return { account: this.#accountOf(key.accountId), key };
  }

  /**
   * The credentials of a token for the test controls, as an operator sees them: any key not revoked
   * (expiry and rotation do not matter), a new account for an unknown `oisr_` token. Throws for a
   * revoked or malformed token.
   */
  credentialsFor(token: string): Credentials {
    const found = this.keys.find(token);
    if (found === undefined && token.startsWith("oisr_")) return this.#newAccount("mock", token);
    if (found === undefined || found === "refused" || found.key.revokedAt !== null) {
      throw new Error(`token ${token.slice(0, 9)}… is revoked or does not start with oisr_`);
    }
    return { account: this.#accountOf(found.key.accountId), key: found.key };
  }

  /** The account of a token for the test controls; throws for a revoked or malformed token. */
  accountFor(token: string): Account {
    return this.credentialsFor(token).account;
  }

  createAccount(name = "mock", token = newToken()): Credentials & { token: string } {
    if (this.keys.find(token) !== undefined) throw new Error("that token already belongs to an account");
    if (!token.startsWith("oisr_")) throw new Error("tokens start with oisr_");
    return { ...this.#newAccount(name, token), token };
  }

  /** Another token for an existing account (the server's `tokens create`): a key holding every permission. */
  createToken(accountId: string): { key: MockApiKey; token: string } {
    if (!this.#accountNames.has(accountId)) throw new Error(`no account ${accountId}`);
    const key = this.keys.addOperatorKey(accountId, newToken(), this.#clock.now());
    return { key, token: key.secret };
  }

  /** Revokes the token's key (every secret of it); a token never seen is refused from now on. */
  revokeToken(token: string): boolean {
    const found = this.keys.find(token);
    if (found === "refused") return false;
    if (found) {
      if (found.key.revokedAt !== null) return false;
      this.keys.revoke(found.key, this.#clock.now());
      return true;
    }
    // Never seen: remember it as revoked so it cannot become an account later.
    this.keys.refuse(token);
    return token.startsWith("oisr_");
  }

  /** The current secrets of the account's keys that are not revoked. */
  tokensOf(accountId: string): string[] {
    return this.keys
      .ofAccount(accountId)
      .filter((k) => k.revokedAt === null)
      .map((k) => k.secret);
  }

  /**
   * Forgets all data; tokens stay valid (their accounts start empty, their keys as they were
   * made), revocations of tokens are forgotten. Keys made through the API are data: forgotten, their
   * secrets refused from then on.
   */
  reset(): void {
    this.accounts.clear();
    this.keys.reset();
    this.#requestSeq = 0;
    this.#ulid = ulidFactory();
    this.exhaustedEverywhere = [];
  }

  /** The account a key belongs to; after a reset it is made again, empty. */
  #accountOf(accountId: string): Account {
    return (
      this.accounts.get(accountId) ??
      this.#addAccount(new Account(accountId, this.#accountNames.get(accountId) ?? "mock"))
    );
  }

  #newAccount(name: string, token: string): Credentials {
    const account = this.#addAccount(new Account(this.newId("acc"), name));
    this.#accountNames.set(account.id, name);
    return { account, key: this.keys.addOperatorKey(account.id, token, this.#clock.now()) };
  }

  #addAccount(account: Account): Account {
    this.accounts.set(account.id, account);
    this.onAccountCreated?.(account);
    return account;
  }
}
