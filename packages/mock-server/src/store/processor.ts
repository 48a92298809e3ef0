// The worker of the mock: applies each account's requests in acceptance order through the
// domain's `applyBatch` (the server's business rules), one at a time per account, with the
// server's lifecycle `pending → processing → succeeded | failed | dead` on the mock clock. A request
// that reaches its final status records its `request.<status>` event, as the server writes it in the
// transaction that sets the status: after the request's return events, one per request, none for a
// retried attempt.
import { isFinalRecord, requestEventObject, requestEventType, toRequestRecord } from "@oisr/contract";
import { applyBatch, type IngestBodies, type IngestKind } from "@oisr/domain";
import type { Clock } from "../clock.ts";
import type { ResolvedOptions } from "../options.ts";
import type { WebhookDispatcher } from "../webhooks/dispatcher.ts";
import type { Account, RequestEntry } from "./account.ts";
import type { MockStore } from "./store.ts";

export const DEAD_ERROR = {
  code: "processing_failed",
  message: "Processing could not complete; nothing was applied. Resubmitting is safe.",
} as const;

/** Whether the entry is between attempts (still `processing`, as on the server). */
const waiting = new WeakSet<RequestEntry>();

export class Processor {
  readonly #store: MockStore;
  readonly #clock: Clock;
  readonly #options: ResolvedOptions;
  readonly #webhooks: WebhookDispatcher;
  readonly #timers = new Map<Account, () => void>();
  #paused = false;

  constructor(store: MockStore, clock: Clock, options: ResolvedOptions, webhooks: WebhookDispatcher) {
    this.#store = store;
    this.#clock = clock;
    this.#options = options;
    this.#webhooks = webhooks;
  }

  get paused(): boolean {
    return this.#paused;
  }

  accept(account: Account, entry: RequestEntry): void {
    account.requests.push(entry);
    account.requestById.set(entry.id, entry);
    this.schedule(account);
  }

  pause(): void {
    this.#paused = true;
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
  }

  resume(): void {
    this.#paused = false;
    for (const account of this.#store.accounts.values()) this.schedule(account);
  }

  /** Runs every queued request of every account to its final status now, ignoring delays and pause. */
  drain(): void {
    for (const account of this.#store.accounts.values()) {
      this.#timers.get(account)?.();
      this.#timers.delete(account);
      for (let head = account.head(); head; head = account.head()) this.#step(account, head);
    }
  }

  reset(): void {
    for (const cancel of this.#timers.values()) cancel();
    this.#timers.clear();
    this.#paused = false;
  }

  /** Wakes the account's worker when its head request is due. */
  schedule(account: Account): void {
    this.#timers.get(account)?.();
    this.#timers.delete(account);
    if (this.#paused) return;
    const head = account.head();
    if (!head) return;
    this.#timers.set(
      account,
      this.#clock.at(head.dueAt, () => {
        this.#timers.delete(account);
        this.#run(account);
      }),
    );
  }

  #run(account: Account): void {
    for (let head = account.head(); head && !this.#paused; head = account.head()) {
      if (head.dueAt > this.#clock.now()) break;
      this.#step(account, head);
    }
    this.schedule(account);
  }

  /** One transition of the head request. */
  #step(account: Account, entry: RequestEntry): void {
    const now = this.#clock.now();
    if (entry.status === "pending" || waiting.has(entry)) {
      // Claimed by a worker: a new attempt starts.
      waiting.delete(entry);
      entry.status = "processing";
      entry.startedAt ??= now;
      entry.attempts += 1;
      entry.dueAt = now + this.#options.processingDurationMs;
      if (this.#options.processingDurationMs > 0 && entry.dueAt > now) return;
    }
    this.#finishAttempt(account, entry);
  }

  #finishAttempt(account: Account, entry: RequestEntry): void {
    const now = this.#clock.now();
    const complete = () => {
      entry.completedAt = now;
      this.#publish(account, entry);
    };
    if (entry.scenario?.outcome === "failed") {
      entry.status = "failed";
      entry.errors = entry.scenario.errors;
      complete();
      return;
    }
    let transient = entry.scenario?.outcome === "dead";
    if (!transient) {
      try {
        const outcome = applyBatch(
          entry.kind as IngestKind,
          account.state,
          entry.body as IngestBodies[IngestKind],
          { now: new Date(now).toISOString(), newId: (prefix) => this.#store.newId(prefix) },
          { returnId: entry.returnId },
        );
        if (outcome.status === "failed") {
          entry.status = "failed";
          entry.errors = outcome.errors;
          complete();
          return;
        }
        account.applyChanges(outcome.changes);
        entry.status = "succeeded";
        entry.result = outcome.result;
        this.#webhooks.emit(account, outcome.events, entry.traceId, entry.apiKeyId);
        complete();
        return;
      } catch {
        // An error inside the rules is what the server treats as transient: retry, then bury.
        transient = true;
      }
    }
    entry.error = DEAD_ERROR;
    if (entry.attempts >= this.#options.maxAttempts) {
      entry.status = "dead";
      complete();
      return;
    }
    waiting.add(entry);
    entry.dueAt = now + this.#options.retryDelayMs * 2 ** (entry.attempts - 1);
  }

  /** The request's event, from the record GET /requests/{id} answers (@oisr/contract's builder, as the server's). */
  #publish(account: Account, entry: RequestEntry): void {
    const record = toRequestRecord(entry);
    if (!isFinalRecord(record)) return;
    const object = requestEventObject(record, `${this.#options.baseUrl.pathname}/requests`);
    this.#webhooks.publish(
      account,
      requestEventType(record.status),
      object,
      Date.parse(record.completed_at),
      entry.traceId,
      record.api_key_id,
    );
  }
}
