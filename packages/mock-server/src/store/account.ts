// One account's data: the domain's in-memory state plus everything the server keeps in its
// tables around it (feed positions, request records, idempotency keys, webhook subscriptions,
// deliveries and events, rate-limit windows).
import type {
  DeliveryTrigger,
  RecoveryRecord,
  RetryRequestsResult,
  StoredRequest,
  WebhookEventBody,
  WebhookRecovery,
} from "@oisr/contract";
import type { components } from "@oisr/contract/schema";
import type { BatchResult, Changes, IngestKind, ItemError } from "@oisr/domain";
import { MemoryState } from "@oisr/domain";
import type { RateLimits } from "./rate-limit.ts";
import { RateWindows } from "./rate-limit.ts";

export type RequestStatus = "pending" | "processing" | "succeeded" | "failed" | "dead";

/** A scenario attached to one request by `failNext`. */
export type RequestScenario = { outcome: "dead" } | { outcome: "failed"; errors: ItemError[] };

export interface RequestEntry {
  /** Acceptance order within the mock (all accounts); lists sort by it. */
  seq: number;
  id: string;
  kind: IngestKind;
  status: RequestStatus;
  traceId: string;
  idempotencyKey: string | null;
  /** The key whose secret submitted it (`api_key_id`). */
  apiKeyId: string | null;
  /** `{return_id}` of a dispositions call. */
  returnId: string | undefined;
  /** As accepted (validated against its kind's schema); GET /requests/{id}/body answers it. */
  body: components["schemas"]["SubmittedBody"];
  itemCount: number;
  acceptedAt: number;
  startedAt: number | null;
  completedAt: number | null;
  attempts: number;
  result: BatchResult | null;
  errors: ItemError[];
  error: StoredRequest["error"];
  scenario: RequestScenario | undefined;
  /** When the next processing step may run (the mock clock). */
  dueAt: number;
  /** The request this one sends again, and the newest request sending this one again (retries). */
  retryOf?: string;
  retriedBy?: string;
}

export interface IdempotencyEntry {
  /** The body's fingerprint (@oisr/contract's bodyFingerprint), not the body. */
  bodyHash: string;
  ack: { message: string; request_id: string; trace_id: string };
  createdAt: number;
}

export interface Subscription {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: "enabled" | "disabled";
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: number | null;
  consecutiveFailures: number;
  failingSince: number | null;
  /** Until when its receiver asked for no deliveries (Retry-After on a 429/503); unset before any. */
  pausedUntil?: number;
  createdAt: number;
  updatedAt: number;
}

export interface Delivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  /** What sent the event (DeliveryTrigger): automatic retries keep the trigger of the attempt they follow. */
  trigger: DeliveryTrigger;
  /** 1 for the first attempt of a sending (the event, a test, a retry or a recovery). */
  attempt: number;
  status: "pending" | "succeeded" | "failed";
  responseStatus: number | null;
  /** The answer's Content-Type and first bytes, as @oisr/contract's responseSnippet keeps them. */
  responseContentType: string | null;
  responseBody: string | null;
  error: string | null;
  /** The receiver's Retry-After on a 429/503, in seconds; null when none was sent. */
  retryAfterSeconds: number | null;
  durationMs: number | null;
  attemptedAt: number | null;
  nextAttemptAt: number | null;
  createdAt: number;
  /** An attempt is being made right now. */
  inFlight: boolean;
}

/** `POST …/recover`: the window is fixed when it is made; it completes on the dispatcher's next tick. */
export interface Recovery extends RecoveryRecord {
  status: WebhookRecovery["status"];
  since: number;
  until: number;
  createdAt: number;
  completedAt: number | null;
}

export interface FeedPosition {
  seq: number;
  version: number;
}

export class Account {
  readonly id: string;
  readonly name: string;
  state = new MemoryState();
  feedSeq = 0;
  readonly orderFeed = new Map<string, FeedPosition>();
  readonly returnFeed = new Map<string, FeedPosition>();
  readonly requests: RequestEntry[] = [];
  readonly requestById = new Map<string, RequestEntry>();
  readonly idempotency = new Map<string, IdempotencyEntry>();
  /** Answers of bulk retries (`POST /requests/retry`) by Idempotency-Key. */
  readonly bulkRetries = new Map<
    string,
    { bodyHash: string; result: RetryRequestsResult; createdAt: number }
  >();
  readonly subscriptions = new Map<string, Subscription>();
  readonly deliveries: Delivery[] = [];
  readonly recoveries = new Map<string, Recovery>();
  readonly events: { event: WebhookEventBody; accountId: string; at: number }[] = [];
  readonly rateWindows = new RateWindows();
  /** Per-account limits (the server's `accounts.rate_limits`); null uses the mock's defaults. */
  rateLimits: Partial<RateLimits> | null = null;

  constructor(id: string, name: string) {
    this.id = id;
    this.name = name;
  }

  /**
   * Stores applied changes and moves what changed in the change feeds: an order or return whose
   * version did not change (only its source watermark moved) keeps its position, as on the server.
   */
  applyChanges(changes: Changes): void {
    this.state.apply(changes);
    const place = (feed: Map<string, FeedPosition>, id: string, version: number) => {
      const seq = ++this.feedSeq;
      const current = feed.get(id);
      if (current && current.version === version) return;
      feed.set(id, { seq, version });
    };
    for (const order of changes.orders) place(this.orderFeed, order.id, order.version);
    for (const ret of changes.returns) place(this.returnFeed, ret.id, ret.version);
  }

  /** The head of this account's FIFO: its oldest request not yet final. */
  head(): RequestEntry | undefined {
    return this.requests.find((r) => r.status === "pending" || r.status === "processing");
  }
}

export type { RequestRecord } from "@oisr/contract";
