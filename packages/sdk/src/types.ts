// Public names for the generated OpenAPI types. Everything here is an alias of
// `@oisr/contract/schema` (made from spec/openapi.yaml by `npm run generate`): the spec is
// the one source of truth, so a spec change shows up here as a type change.
import type { components, operations, paths } from "@oisr/contract/schema";

type Schemas = components["schemas"];
type Query<OperationId extends keyof operations> = NonNullable<
  operations[OperationId]["parameters"]["query"]
>;

export type { components, operations, paths };

// ── Errors ────────────────────────────────────────────────────────────────────────────────────
/** An RFC 9457 problem document as the API sends it. */
export type Problem = Schemas["Problem"];
/**
 * The problem an `ApiError` carries: the API's own document, or — for a body that was not
 * problem+json (a proxy's error page) — one synthesised from the status, without `code`.
 */
export type ProblemDetails = Pick<Problem, "type" | "title" | "status"> & Partial<Problem>;
export type ProblemCode = Schemas["ProblemCode"];
/** A schema violation in a `400 validation_failed`, pointing into the body you sent. */
export type FieldError = Schemas["FieldError"];

// ── Ingest and request records ───────────────────────────────────────────────────────────────
export type IngestAccepted = Schemas["IngestAccepted"];
export type RequestRecord = Schemas["RequestRecord"];
export type RequestStatus = Schemas["RequestStatus"];
export type RequestKind = Schemas["RequestKind"];
export type RequestResult = Schemas["RequestResult"];
export type RequestResultItem = Schemas["RequestResultItem"];
/** A business-rule violation of a `failed` request. */
export type ItemError = Schemas["ItemError"];
export type ItemErrorCode = Schemas["ItemErrorCode"];
/** Why a request is `dead`. */
export type DeadError = Schemas["DeadError"];
export type RequestPage = Schemas["RequestPage"];
export type ListRequestsParams = Query<"listRequests">;
/**
 * Which failed or dead requests `requests.retryMany` sends again. `limit` is optional (the server
 * defaults it to 100, the most); the generator marks properties with a default as required.
 */
export type RetryRequestsParams = Omit<Schemas["RetryRequestsBody"], "limit"> & { limit?: number };
/** What `requests.retryMany` sent again: each new request and the one it repeats. */
export type RetryRequestsResult = Schemas["RetryRequestsResult"];
/** The body an ingest call was accepted with (`requests.body`): the one of the request's `kind`. */
export type SubmittedBody = Schemas["SubmittedBody"];

// ── Orders ───────────────────────────────────────────────────────────────────────────────────
export type Order = Schemas["Order"];
export type OrderStatus = Schemas["OrderStatus"];
/**
 * An order as you submit it. `status` is optional (the server defaults it to `open`); the
 * generator marks properties with a default as required, which is right for responses only.
 */
export type OrderInput = Omit<Schemas["OrderInput"], "status"> & { status?: Schemas["OrderInputStatus"] };
export type OrderInputStatus = Schemas["OrderInputStatus"];
export type OrderPage = Schemas["OrderPage"];
export type Address = Schemas["Address"];
export type ListOrdersParams = Query<"listOrders">;

// ── Inventory ────────────────────────────────────────────────────────────────────────────────
export type InventorySnapshotInput = Schemas["InventorySnapshotInput"];
export type InventoryLevel = Schemas["InventoryLevel"];
export type InventoryPage = Schemas["InventoryPage"];
export type ListInventoryParams = Query<"listInventory">;

// ── Shipments ────────────────────────────────────────────────────────────────────────────────
export type ShipmentInput = Schemas["ShipmentInput"];

// ── Returns and dispositions ─────────────────────────────────────────────────────────────────
export type Return = Schemas["Return"];
export type ReturnStatus = Schemas["ReturnStatus"];
export type ReturnInput = Schemas["ReturnInput"];
export type ReturnPage = Schemas["ReturnPage"];
export type DispositionInput = Schemas["DispositionInput"];
export type Disposition = Schemas["Disposition"];
export type ListReturnsParams = Query<"listReturns">;

// ── Webhooks ─────────────────────────────────────────────────────────────────────────────────
export type WebhookSubscription = Schemas["WebhookSubscription"];
/** A subscription with its signing secret: only from `create` and `rotateSecret`. */
export type WebhookSubscriptionWithSecret = Schemas["WebhookSubscriptionWithSecret"];
export type WebhookSubscriptionCreate = Schemas["WebhookSubscriptionCreate"];
export type WebhookSubscriptionUpdate = Schemas["WebhookSubscriptionUpdate"];
export type WebhookSubscriptionPage = Schemas["WebhookSubscriptionPage"];
export type ListWebhookSubscriptionsParams = Query<"listWebhookSubscriptions">;
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookDeliveryPage = Schemas["WebhookDeliveryPage"];
export type ListWebhookDeliveriesParams = Query<"listWebhookDeliveries">;
/** The window `webhooks.recover` sends again: events created in `[since, until)`. */
export type WebhookRecoveryCreate = Schemas["WebhookRecoveryCreate"];
/** A recovery and its progress (`running`, then `completed` with `events_queued`). */
export type WebhookRecovery = Schemas["WebhookRecovery"];
export type WebhookEventType = Schemas["WebhookEventType"];
/** A return event (`data.object` is the return at that version). */
export type ReturnEvent = Schemas["ReturnEvent"];
/** The event `webhooks.test` sends. */
export type WebhookTestEvent = Schemas["WebhookTestEvent"];
/**
 * A request event (`request.succeeded`, `request.failed`, `request.dead`): `data.object` is the
 * request record at its final status, `result.items` left out for batches of more than 100 items
 * (`url` reads the whole record) and at most 100 `errors` (`errors_total` counts them all).
 */
export type RequestEvent = Schemas["RequestEvent"];
/** Any delivery `verifyWebhook` accepts; narrow on `type`. */
export type WebhookEvent = ReturnEvent | RequestEvent | WebhookTestEvent;

// ── Events ───────────────────────────────────────────────────────────────────────────────────
/** An event of the account as `events.list` and `events.get` return it: a webhook body. */
export type Event = Schemas["Event"];
export type EventPage = Schemas["EventPage"];
export type ListEventsParams = Query<"listEvents">;

// ── API keys ─────────────────────────────────────────────────────────────────────────────────
/** What a key may do (`orders:read`, `ingest:write`…); a `:write` includes the `:read` of its resource. */
export type Permission = Schemas["Permission"];
/** An API key as the API shows it: never its secret, but `prefix`, its first 12 characters. */
export type ApiKey = Schemas["ApiKey"];
/** A key with its secret (`oisr_…`): only from `keys.create` and `keys.rotate`. Store it then. */
export type ApiKeyWithSecret = Schemas["ApiKeyWithSecret"];
export type ApiKeyPage = Schemas["ApiKeyPage"];
export type ListApiKeysParams = Query<"listApiKeys">;

// ── Lists ────────────────────────────────────────────────────────────────────────────────────
/** The shape every list endpoint answers: `next_cursor` is present on every page, the last one included. */
export interface Page<T> {
  data: T[];
  next_cursor: string;
  has_more: boolean;
}
