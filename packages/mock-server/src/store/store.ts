// Every account of one mock, found by Bearer token. Each distinct `oisr_…` token is an account
// of its own (made on first use), unless it was minted for an existing account or revoked.
import type { Clock } from "../clock.ts";
import { newToken, ulidFactory } from "../ids.ts";
import { Account } from "./account.ts";
import type { RateLimitScope } from "./rate-limit.ts";

export type IdPrefix = "acc" | "ord" | "shp" | "ret" | "dsp" | "whs" | "evt" | "whd" | "whr";

interface TokenEntry {
  accountId: string;
  accountName: string;
  revoked: boolean;
}

export class MockStore {
  readonly accounts = new Map<string, Account>();
  readonly #tokens = new Map<string, TokenEntry>();
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
   * The account of a live token; a new `oisr_` token becomes an account of its own when `create`
   * is true. Null when refused.
   */
  authenticate(token: string, create = true): Account | null {
    const entry = this.#tokens.get(token);
    if (entry) {
      if (entry.revoked) return null;
      // After a reset the token still names its (now empty) account.
      return (
        this.accounts.get(entry.accountId) ??
        this.#addAccount(new Account(entry.accountId, entry.accountName))
      );
    }
    if (!create || !token.startsWith("oisr_")) return null;
    return this.#newAccount("mock", token);
  }

  /** The account of a token for the test controls; throws for a revoked or malformed token. */
  accountFor(token: string): Account {
    const account = this.authenticate(token);
    if (!account) throw new Error(`token ${token.slice(0, 9)}… is revoked or does not start with oisr_`);
    return account;
  }

  createAccount(name = "mock", token = newToken()): { account: Account; token: string } {
    if (this.#tokens.has(token)) throw new Error("that token already belongs to an account");
    if (!token.startsWith("oisr_")) throw new Error("tokens start with oisr_");
    return { account: this.#newAccount(name, token), token };
  }

  /** Another token for an existing account (the server's `tokens create`). */
  createToken(accountId: string): string {
    const account = this.accounts.get(accountId);
    if (!account) throw new Error(`no account ${accountId}`);
    const token = newToken();
    this.#tokens.set(token, { accountId, accountName: account.name, revoked: false });
    return token;
  }

  revokeToken(token: string): boolean {
    const entry = this.#tokens.get(token);
    if (entry?.revoked) return false;
    if (entry) {
      entry.revoked = true;
      return true;
    }
    // Never seen: remember it as revoked so it cannot become an account later.
    this.#tokens.set(token, { accountId: "", accountName: "", revoked: true });
    return token.startsWith("oisr_");
  }

  tokensOf(accountId: string): string[] {
    return [...this.#tokens].filter(([, e]) => e.accountId === accountId && !e.revoked).map(([t]) => t);
  }

  /** Forgets all data; tokens stay valid (their accounts start empty), revocations are forgotten. */
  reset(): void {
    this.accounts.clear();
    for (const [token, entry] of this.#tokens) if (entry.revoked) this.#tokens.delete(token);
    this.#requestSeq = 0;
    this.#ulid = ulidFactory();
    this.exhaustedEverywhere = [];
  }

  #newAccount(name: string, token: string): Account {
    const account = this.#addAccount(new Account(this.newId("acc"), name));
    this.#tokens.set(token, { accountId: account.id, accountName: name, revoked: false });
    return account;
  }

  #addAccount(account: Account): Account {
    this.accounts.set(account.id, account);
    this.onAccountCreated?.(account);
    return account;
  }
}
