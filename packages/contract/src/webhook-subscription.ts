// The webhook objects the API answers, shaped once from what the server's rows and the mock's
// records both hold (the same field names; timestamps as ISO text, Date or epoch ms; enumerations
// as plain text, as the server's columns type them, since only the spec's values are ever stored),
// and the rules of a subscription change that both stores apply.
import type { components } from "./generated/schema.d.ts";
import { HttpProblem, notFound } from "./problems.ts";

type Schemas = components["schemas"];
export type WebhookSubscription = Schemas["WebhookSubscription"];
export type WebhookSubscriptionWithSecret = Schemas["WebhookSubscriptionWithSecret"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookSubscriptionUpdate = Schemas["WebhookSubscriptionUpdate"];
export type WebhookSubscriptionStatus = Schemas["WebhookSubscriptionStatus"];

/** The event a `POST …/test` sends, to that subscription only, whatever its events and status. */
export const TEST_EVENT_TYPE = "webhook.test";

type Moment = string | number | Date;
const iso = (moment: Moment) => new Date(moment).toISOString();
const isoOrNull = (moment: Moment | null) => (moment === null ? null : iso(moment));

export interface SubscriptionRecord {
  id: string;
  url: string;
  events: readonly string[];
  description: string | null;
  status: string;
  secret: string;
  createdAt: Moment;
  updatedAt: Moment;
}

/** The API's subscription; the secret only when it was just made (create, rotate). */
export function toWebhookSubscription(s: SubscriptionRecord): WebhookSubscription;
export function toWebhookSubscription(s: SubscriptionRecord, withSecret: true): WebhookSubscriptionWithSecret;
export function toWebhookSubscription(
  s: SubscriptionRecord,
  withSecret = false,
): WebhookSubscription | WebhookSubscriptionWithSecret {
  return {
    id: s.id,
    url: s.url,
    events: s.events as Schemas["WebhookEvents"],
    description: s.description,
    status: s.status as WebhookSubscriptionStatus,
    ...(withSecret ? { secret: s.secret } : {}),
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
  };
}

export interface DeliveryRecord {
  id: string;
  eventId: string;
  eventType: string;
  /** event | test | retry | recover */
  trigger: string;
  attempt: number;
  status: string;
  responseStatus: number | null;
  /** The answer's Content-Type and first bytes, as responseSnippet keeps them; null without an answer. */
  responseContentType: string | null;
  responseBody: string | null;
  error: string | null;
  retryAfterSeconds: number | null;
  durationMs: number | null;
  attemptedAt: Moment | null;
  nextAttemptAt: Moment | null;
  createdAt: Moment;
}

/** The API's WebhookDelivery: one attempt. */
export function toWebhookDelivery(d: DeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType as WebhookDelivery["event_type"],
    trigger: d.trigger as WebhookDelivery["trigger"],
    attempt: d.attempt,
    status: d.status as WebhookDelivery["status"],
    response_status: d.responseStatus,
    response_content_type: d.responseContentType,
    response_body: d.responseBody,
    error: d.error,
    retry_after_seconds: d.retryAfterSeconds,
    duration_ms: d.durationMs,
    attempted_at: isoOrNull(d.attemptedAt),
    next_attempt_at: isoOrNull(d.nextAttemptAt),
    created_at: iso(d.createdAt),
  };
}

/** A subscription's event types, each once, in the order first given. */
export function uniqueEvents(events: readonly string[]): string[] {
  return [...new Set(events)];
}

export interface SubscriptionChange {
  url?: string;
  events?: string[];
  description?: string | null;
  /**
   * Present only when the status changes. `enabled`: the failure streak starts again from zero,
   * or the next failure would disable it again at once. `disabled`: the attempts not yet made are
   * dropped, so re-enabling it later does not flood the receiver with stale events.
   */
  status?: WebhookSubscriptionStatus;
}

/** What a PATCH changes on a subscription whose status is `current`. */
export function subscriptionChange(current: string, patch: WebhookSubscriptionUpdate): SubscriptionChange {
  const change: SubscriptionChange = {};
  if (patch.url !== undefined) change.url = patch.url;
  if (patch.events !== undefined) change.events = uniqueEvents(patch.events);
  if (patch.description !== undefined) change.description = patch.description;
  if (patch.status !== undefined && patch.status !== current) change.status = patch.status;
  return change;
}

/** An event as delivered and as `GET /events` answers it. */
export interface WebhookEventBody<T = unknown> {
  id: string;
  type: string;
  created_at: string;
  /** The API key whose call caused the event; null for requests accepted before API keys existed. */
  api_key_id: string | null;
  data: { object: T };
}

export function webhookEventBody<T>(
  id: string,
  type: string,
  createdAt: Moment,
  apiKeyId: string | null,
  object: T,
): WebhookEventBody<T> {
  return { id, type, created_at: iso(createdAt), api_key_id: apiKeyId, data: { object } };
}

/** The `data.object` of a `webhook.test` event. */
export function testEventObject(subscriptionId: string) {
  return { subscription_id: subscriptionId, message: "This is a test event from OISR." };
}

/** The 404 of a subscription id that is not the account's (another account's looks the same). */
export const subscriptionNotFound = (id: string) =>
  notFound(`No webhook subscription ${id} in this account.`);

/** The 400 of a URL the classifier (and on the server, DNS) refused; `reason` completes "The URL …". */
export const webhookUrlNotAllowed = (reason: string) =>
  new HttpProblem(400, "validation_failed", "The webhook URL is not allowed.", {
    errors: [{ pointer: "/url", code: "url_not_allowed", message: `The URL ${reason}.` }],
  });
