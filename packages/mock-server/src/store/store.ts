// Every account of one mock, found by Bearer token. Each distinct `oisr_…` token is an account
// of its own (made on first use), unless it was minted for an existing account or revoked.
import type { Clock } from "../clock.ts";
import { newToken, ulidFactory } from "../ids.ts";
import { Account } from "./account.ts";
import type { RateLimitScope } from "./rate-limit.ts";

export type IdPrefix = "acc" | "ord" | "shp" | "ret" | "dsp" | "whs" | "evt" | "whd";

interface TokenEntry {
  accountId: string;
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

  /** The account of a live token (made on first use of a new `oisr_` token); null when refused. */
  authenticate(token: string): Account | null {
    const entry = this.#tokens.get(token);
    if (entry) return entry.revoked ? null : (this.accounts.get(entry.accountId) ?? null);
    if (!token.startsWith("oisr_")) return null;
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
    if (!this.accounts.has(accountId)) throw new Error(`no account ${accountId}`);
    const token = newToken();
    this.#tokens.set(token, { accountId, revoked: false });
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
    this.#tokens.set(token, { accountId: "", revoked: true });
    return token.startsWith("oisr_");
  }

  tokensOf(accountId: string): string[] {
    return [...this.#tokens].filter(([, e]) => e.accountId === accountId && !e.revoked).map(([t]) => t);
  }

  reset(): void {
    this.accounts.clear();
    this.#tokens.clear();
    this.#requestSeq = 0;
    this.#ulid = ulidFactory();
    this.exhaustedEverywhere = [];
  }

  #newAccount(name: string, token: string): Account {
    const account = new Account(this.newId("acc"), name);
    this.accounts.set(account.id, account);
    this.#tokens.set(token, { accountId: account.id, revoked: false });
    this.onAccountCreated?.(account);
    return account;
  }
}
