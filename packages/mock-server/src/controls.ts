// The test controls of a mock: state (reset, seed, accounts), time, and scenarios.
import { RATE_LIMIT_SCOPES, toApiKey, toRequestRecord, toWebhookSubscription } from "@oisr/contract";
import { applyBatch, type IngestBodies, type IngestKind } from "@oisr/domain";
import {
  ControlError,
  FAIL_NEXT_OUTCOMES,
  nonNegative,
  oneOf,
  REQUEST_KINDS,
  REQUEST_STATUSES,
  text,
  wholeNumber,
} from "./control-args.ts";
import type { MockCore } from "./core.ts";
import { HttpProblem } from "./http/problem.ts";
import type { AccountView, MockControls, MockRequest, MockStoreView } from "./public-types.ts";
import { MOCK_TOKEN } from "./public-types.ts";
import type { Account, RequestEntry } from "./store/account.ts";
import type {
  ApiKey,
  InventoryLevel,
  Order,
  RequestRecord,
  Return,
  Shipment,
  WebhookEventBody,
  WebhookSubscription,
} from "./types.ts";

const BATCH = 1000;
const SEED_KEYS = ["orders", "inventory", "shipments", "returns", "dispositions"] as const;

function toMockRequest(entry: RequestEntry, accountId: string): MockRequest {
  const record = toRequestRecord(entry) as RequestRecord;
  return { ...record, account_id: accountId, body: entry.body, return_id: entry.returnId ?? null };
}

export function createControls(core: MockCore): { controls: MockControls; store: MockStoreView } {
  const { runtime } = core;
  const { store, clock, processor, webhooks, scenarios } = runtime;
  const accountOf = (token = MOCK_TOKEN) => store.accountFor(token);

  const view = (account: Account): AccountView => ({
    id: account.id,
    name: account.name,
    tokens: store.tokensOf(account.id),
    orders: () =>
      [...account.orderFeed]
        .sort((a, b) => a[1].seq - b[1].seq)
        .flatMap(([id]) => (account.state.orderById(id) as Order | undefined) ?? []),
    order: (ref) =>
      (account.state.orderById(ref) ?? account.state.orderByExternalId(ref)) as Order | undefined,
    returns: () =>
      [...account.returnFeed]
        .sort((a, b) => a[1].seq - b[1].seq)
        .flatMap(([id]) => (account.state.returnById(id) as Return | undefined) ?? []),
    return: (ref) =>
      (account.state.returnById(ref) ?? account.state.returnByExternalId(ref)) as Return | undefined,
    shipments: () => account.state.allShipments() as Shipment[],
    inventory: () => account.state.allInventoryLevels() as InventoryLevel[],
    requests: () => account.requests.map((e) => toMockRequest(e, account.id)),
    events: () => account.events.map((e) => e.event as WebhookEventBody),
    subscriptions: () =>
      [...account.subscriptions.values()].map((s) => toWebhookSubscription(s) as WebhookSubscription),
    apiKeys: () => {
      const now = clock.now();
      return store.keys
        .ofAccount(account.id)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((k) => toApiKey(k, now) as ApiKey);
    },
  });

  function seedBatch(
    account: Account,
    kind: IngestKind,
    operationId: string,
    body: object,
    returnId?: string,
    emit: string | null | false = false,
  ) {
    try {
      core.validateBody(operationId, body, returnId);
    } catch (err) {
      if (err instanceof HttpProblem) {
        const detail = (err.errors ?? []).map((e) => `${e.pointer || "/"} ${e.message}`).join("; ");
        throw new Error(`seed: ${kind} do not match the API schema: ${detail}`);
      }
      throw err;
    }
    const outcome = applyBatch(
      kind,
      account.state,
      body as IngestBodies[IngestKind],
      { now: new Date(clock.now()).toISOString(), newId: (prefix) => store.newId(prefix) },
      { returnId },
    );
    if (outcome.status === "failed") {
      const detail = outcome.errors.map((e) => `${e.pointer || "/"} ${e.code}: ${e.message}`).join("; ");
      throw new Error(`seed: ${kind} rejected by the business rules: ${detail}`);
    }
    account.applyChanges(outcome.changes);
    if (emit !== false) webhooks.emit(account, outcome.events, undefined, emit);
  }

  function chunks<T>(items: T[] | undefined, each: (chunk: T[]) => void): void {
    for (let i = 0; i < (items?.length ?? 0); i += BATCH) each((items as T[]).slice(i, i + BATCH));
  }

  const controls: MockControls = {
    reset() {
      processor.reset();
      webhooks.reset();
      clock.reset();
      store.reset();
      scenarios.reset();
    },
    seed(data, options = {}) {
      if (data === null || typeof data !== "object" || Array.isArray(data))
        throw new ControlError(
          "seed data must be an object of orders, inventory, shipments, returns, dispositions",
        );
      for (const key of Object.keys(data)) oneOf("seed data key", key, SEED_KEYS);
      text("seed token", options.token, true);
      const token = options.token ?? MOCK_TOKEN;
      const { account, key } = store.credentialsFor(token);
      // Events as if the token's key had ingested the data.
      const emit = options.events === true ? key.id : false;
      chunks(data.orders, (orders) =>
        seedBatch(account, "orders", "ingestOrders", { orders }, undefined, emit),
      );
      chunks(data.inventory, (snapshots) =>
        seedBatch(account, "inventory", "ingestInventory", { snapshots }, undefined, emit),
      );
      chunks(data.shipments, (shipments) =>
        seedBatch(account, "shipments", "ingestShipments", { shipments }, undefined, emit),
      );
      chunks(data.returns, (returns) =>
        seedBatch(account, "returns", "ingestReturns", { returns }, undefined, emit),
      );
      for (const [returnId, list] of Object.entries(data.dispositions ?? {})) {
        chunks(list, (dispositions) =>
          seedBatch(account, "dispositions", "ingestDispositions", { dispositions }, returnId, emit),
        );
      }
      return { token, accountId: account.id, apiKeyId: key.id };
    },
    clock,
    failNext(outcome = "dead", options = {}) {
      oneOf("failNext outcome", outcome, FAIL_NEXT_OUTCOMES);
      text("failNext token", options.token, true);
      oneOf("failNext kind", options.kind, REQUEST_KINDS, true);
      wholeNumber("failNext count", options.count, 1, true);
      if (options.errors !== undefined && !Array.isArray(options.errors))
        throw new ControlError("failNext errors must be an array of {pointer, code, message}");
      scenarios.failNext(outcome, options.token ? accountOf(options.token).id : undefined, options);
    },
    exhaustRateLimit(scope, token) {
      oneOf("exhaustRateLimit scope", scope, RATE_LIMIT_SCOPES);
      text("exhaustRateLimit token", token, true);
      const limits = core.options.rateLimits;
      if (limits === false) throw new Error("rate limits are off in this mock (rateLimits: false)");
      const now = clock.now();
      const exhaust = (account: Account) =>
        account.rateWindows.exhaust(scope, account.rateLimits?.[scope] ?? limits[scope], now);
      if (token !== undefined) return exhaust(accountOf(token));
      for (const account of store.accounts.values()) exhaust(account);
      store.exhaustedEverywhere.push({ scope, at: now });
    },
    setRateLimits(token, limits) {
      text("setRateLimits token", token);
      if (limits !== null) {
        if (typeof limits !== "object" || Array.isArray(limits))
          throw new ControlError("setRateLimits limits must be an object of scope: calls per 60 s, or null");
        for (const [scope, limit] of Object.entries(limits)) {
          oneOf("setRateLimits scope", scope, RATE_LIMIT_SCOPES);
          wholeNumber(`setRateLimits ${scope}`, limit, 1);
        }
      }
      accountOf(token).rateLimits = limits;
    },
    delayResponses(ms) {
      nonNegative("delayResponses ms", ms);
      scenarios.delayMs = Math.max(0, ms);
    },
    unavailable(calls = 1, options = {}) {
      wholeNumber("unavailable calls", calls, 0);
      nonNegative("unavailable retryAfterSeconds", options.retryAfterSeconds, true);
      scenarios.unavailable(calls, options.retryAfterSeconds ?? 5);
    },
    events(options = {}) {
      text("events token", options.token, true);
      text("events type", options.type, true);
      const accounts = options.token ? [accountOf(options.token)] : [...store.accounts.values()];
      return accounts
        .flatMap((a) => a.events)
        .sort((a, b) => a.at - b.at)
        .map((e) => e.event as WebhookEventBody)
        .filter((e) => options.type === undefined || e.type === options.type);
    },
    requests(options = {}) {
      text("requests token", options.token, true);
      oneOf("requests status", options.status, REQUEST_STATUSES, true);
      oneOf("requests kind", options.kind, REQUEST_KINDS, true);
      const accounts = options.token ? [accountOf(options.token)] : [...store.accounts.values()];
      return accounts
        .flatMap((a) => a.requests.map((e) => ({ e, id: a.id })))
        .sort((x, y) => x.e.seq - y.e.seq)
        .filter(
          ({ e }) =>
            (!options.status || e.status === options.status) && (!options.kind || e.kind === options.kind),
        )
        .map(({ e, id }) => toMockRequest(e, id));
    },
    createAccount(name) {
      text("createAccount name", name, true);
      const { account, key, token } = store.createAccount(name);
      return { accountId: account.id, token, apiKeyId: key.id };
    },
    createToken(accountId) {
      return store.createToken(accountId).token;
    },
    revokeToken(token) {
      text("revokeToken token", token);
      store.revokeToken(token);
    },
    pauseProcessing() {
      processor.pause();
    },
    resumeProcessing() {
      processor.resume();
    },
    async flush() {
      processor.drain();
      await webhooks.settle();
    },
  };

  // Accounts made after `exhaustRateLimit(scope)` without a token start exhausted while its window lasts.
  store.onAccountCreated = (account) => {
    const limits = core.options.rateLimits;
    if (limits === false) return;
    const now = clock.now();
    for (const { scope, at } of store.exhaustedEverywhere) {
      if (now - at < 60_000) account.rateWindows.exhaust(scope, limits[scope], at);
    }
  };

  const storeView: MockStoreView = {
    account: (token) => view(accountOf(token)),
    accounts: () => [...store.accounts.values()].map(view),
  };
  return { controls, store: storeView };
}
