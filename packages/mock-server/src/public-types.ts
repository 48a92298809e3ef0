// The public interfaces of the mock. Kept apart from the implementation (and free of the private
// domain package's types) so the published declarations stay self-contained.
import type { RequestHandler } from "msw";
import type { MockClock } from "./clock.ts";
import type { RateLimitScope, RateLimits } from "./store/rate-limit.ts";
import type {
  ApiKey,
  DispositionInput,
  InventoryLevel,
  InventorySnapshotInput,
  ItemError,
  Order,
  OrderInput,
  RequestKind,
  RequestRecord,
  Return,
  ReturnInput,
  Shipment,
  ShipmentInput,
  WebhookEventBody,
  WebhookSubscription,
} from "./types.ts";

/** The token `seed`, `events` and the other controls use when none is given. */
export const MOCK_TOKEN = "oisr_mock_default_token";

export interface FailNextOptions {
  /** Only a request of this account (default: the next request of any account). */
  token?: string;
  /** Only a request of this kind. */
  kind?: RequestKind;
  /** For `failed`: the request's `errors` (default: one plausible error at the first item). */
  errors?: ItemError[];
  /** How many requests to fail (default 1). */
  count?: number;
}

export interface Mock {
  /** msw handlers answering `${baseUrl}/…` (and `/healthz`, `/readyz` on its origin). */
  handlers: RequestHandler[];
  /** Read access to the mock's data, by account. */
  store: MockStoreView;
  controls: MockControls;
  /** The API base URL, e.g. `http://localhost:4010/v2`. */
  baseUrl: string;
  /**
   * Answers one fetch `Request` without msw (undefined when the URL is not the mock's): for
   * custom servers, service workers or fetch stubs.
   */
  handle(request: Request): Promise<Response | undefined>;
}

/** What `seed` takes: ingest payloads, applied in this order with the server's rules. */
export interface SeedData {
  orders?: OrderInput[];
  inventory?: InventorySnapshotInput[];
  shipments?: ShipmentInput[];
  returns?: ReturnInput[];
  /** Dispositions by the return they belong to (its id or external_id). */
  dispositions?: Record<string, DispositionInput[]>;
}

export interface SeedOptions {
  /** The account to seed (default `MOCK_TOKEN`'s). */
  token?: string;
  /** Record webhook events (and deliver them) as if the data had been ingested (default false). */
  events?: boolean;
}

/** A request as `requests()` shows it: the API record, plus what was submitted. */
export interface MockRequest extends RequestRecord {
  account_id: string;
  body: unknown;
  /** `{return_id}` of a dispositions request. */
  return_id: string | null;
}

export interface AccountView {
  id: string;
  name: string;
  /** Live tokens of the account. */
  tokens: string[];
  /** Orders in change-feed order (least recently changed first). */
  orders(): Order[];
  order(ref: string): Order | undefined;
  returns(): Return[];
  return(ref: string): Return | undefined;
  shipments(): Shipment[];
  inventory(): InventoryLevel[];
  requests(): MockRequest[];
  events(): WebhookEventBody[];
  subscriptions(): WebhookSubscription[];
  /** The account's API keys as `GET /api_keys/{id}` shows them (no secrets), oldest first. */
  apiKeys(): ApiKey[];
}

/** Read access to the mock's data, by account. */
export interface MockStoreView {
  /** The account of a token (made on first use, like a first API call with it). */
  account(token?: string): AccountView;
  accounts(): AccountView[];
}

export interface MockControls {
  /**
   * Forgets every account, request, event, key made through `/api_keys` and scenario; the clock goes
   * back to its start. Tokens stay valid (their keys as they were made), revocations of them are
   * forgotten.
   */
  reset(): void;
  /** Puts data straight into an account through the domain's rules, without requests. */
  seed(data: SeedData, options?: SeedOptions): { token: string; accountId: string; apiKeyId: string };
  clock: MockClock;
  /** The next request (of the account / kind given) ends `dead` after every attempt, or `failed`. */
  failNext(outcome?: "dead" | "failed", options?: FailNextOptions): void;
  /** Uses up a scope's window, so its next call is 429 (of one account, or of every account). */
  exhaustRateLimit(scope: RateLimitScope, token?: string): void;
  /** Per-account limits (the server's per-account override); null goes back to the mock's. */
  setRateLimits(token: string, limits: Partial<RateLimits> | null): void;
  /** Delays every response by `ms` of real time (0 turns it off). */
  delayResponses(ms: number): void;
  /** The next `calls` calls are 503 `service_unavailable` with `Retry-After` (as if the database were down). */
  unavailable(calls?: number, options?: { retryAfterSeconds?: number }): void;
  /** Webhook events recorded so far (delivered or not), oldest first. */
  events(options?: { token?: string; type?: string }): WebhookEventBody[];
  /** Ingest requests accepted so far, oldest first. */
  requests(options?: { token?: string; status?: string; kind?: RequestKind }): MockRequest[];
  /**
   * A new account and its token, the secret of an admin key (every permission, no expiry):
   * `apiKeyId` is the key's id. Any new `oisr_…` token is also an account of its own.
   */
  createAccount(name?: string): { accountId: string; token: string; apiKeyId: string };
  /** Another token for an account: the secret of another admin key. */
  createToken(accountId: string): string;
  /** Revokes the token's key: it and every other secret of the key are answered 401 from now on. */
  revokeToken(token: string): void;
  /** Keeps requests `pending` until `resumeProcessing` (or `flush`). */
  pauseProcessing(): void;
  resumeProcessing(): void;
  /** Runs every queued request to its final status now (ignoring delays and pause), then waits for webhook attempts in flight. */
  flush(): Promise<void>;
}
