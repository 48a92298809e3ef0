// The event a request sends when it reaches its final status (`request.succeeded`, `request.failed`,
// `request.dead`): the request record, bounded so that one event stays small whatever the batch. A
// 1000-order request's record lists 1000 result items (~90 kB); its event carries the counts and a
// link, so a webhook body or a GET /events page never grows with the batch. The server (in the
// transaction that sets the status) and the mock build it here, from the same record that
// GET /requests/{id} answers, so the two always agree.
import type { components } from "./generated/schema.d.ts";
import type { RequestRecord } from "./request-record.ts";
import { type WebhookEventBody, webhookEventBody } from "./webhook-subscription.ts";

type Schemas = components["schemas"];
export type RequestEvent = Schemas["RequestEvent"];
export type RequestEventObject = Schemas["RequestEventObject"];
export type RequestEventType = Schemas["RequestEventType"];

/** Most `result.items` and `errors` an event carries (the spec's `maxItems`); beyond, read `url`. */
export const REQUEST_EVENT_LIST_LIMIT = 100;

/** A record at its final status: what a request event is made of. */
export type FinalRequestRecord = RequestRecord & {
  status: RequestEventObject["status"];
  completed_at: string;
};

/** Whether the record has reached its final status (and so has, or will have, its event). */
export function isFinalRecord(record: RequestRecord): record is FinalRequestRecord {
  return (
    (record.status === "succeeded" || record.status === "failed" || record.status === "dead") &&
    record.completed_at !== null
  );
}

/** `request.succeeded` for `succeeded`, and so on. */
export const requestEventType = (status: RequestEventObject["status"]): RequestEventType =>
  `request.${status}`;

/**
 * `data.object` of a request's event: the record with `result.items` left out for batches of more
 * than 100 items, the first 100 `errors` with `errors_total` counting all, and `url`, the record's
 * path (`requestsPath` is where the API serves requests, `/v2/requests` unless mounted elsewhere).
 */
export function requestEventObject(
  record: FinalRequestRecord,
  requestsPath = "/v2/requests",
): RequestEventObject {
  // The links are left out: `retried_by` changes after the event, and the record at `url` has both.
  const { result, errors, retry_of: _retryOf, retried_by: _retriedBy, ...rest } = record;
  let bounded: RequestEventObject["result"] = null;
  if (result) {
    const { items, ...counts } = result;
    bounded = record.item_count <= REQUEST_EVENT_LIST_LIMIT ? { ...counts, items } : counts;
  }
  return {
    ...rest,
    result: bounded,
    errors: errors.slice(0, REQUEST_EVENT_LIST_LIMIT),
    errors_total: errors.length,
    url: `${requestsPath}/${record.request_id}`,
  };
}

/** The whole event body (webhook body and GET /events object): created when the status was set. */
export function requestEvent(
  id: string,
  record: FinalRequestRecord,
  requestsPath?: string,
): RequestEvent & WebhookEventBody<RequestEventObject> {
  const type = requestEventType(record.status);
  return {
    ...webhookEventBody(
      id,
      type,
      record.completed_at,
      record.api_key_id,
      requestEventObject(record, requestsPath),
    ),
    type,
  };
}
