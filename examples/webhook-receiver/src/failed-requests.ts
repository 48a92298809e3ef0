// Reacting to `request.failed` instead of polling GET /requests/{id}: OISR sends the event when
// business rules rejected an ingest call (nothing of it was applied), with the first 100 errors,
// each pointing into the body that was sent. A subscription receives it only if its `events` list it.
import type { RequestEvent } from "@oisr/sdk";

type RequestRecord = RequestEvent["data"]["object"];

export interface FailedRequest {
  requestId: string;
  kind: RequestRecord["kind"];
  /** `pointer code: message`, one line per error the event carries. */
  errors: string[];
  /** How many errors the request has in all: more than `errors` when it has over 100. */
  errorsTotal: number;
  /** The whole record (every error), e.g. `/v2/requests/…`, relative to the API's origin. */
  url: string;
}

/** What a `request.failed` event reports. */
export function failedRequest(event: RequestEvent): FailedRequest {
  const record = event.data.object;
  return {
    requestId: record.request_id,
    kind: record.kind,
    errors: record.errors.map((e) => `${e.pointer} ${e.code}: ${e.message}`),
    errorsTotal: record.errors_total,
    url: record.url,
  };
}

/** A few lines for a log or an alert. */
export function describeFailure(failure: FailedRequest): string {
  const more = failure.errorsTotal - failure.errors.length;
  return [
    `${failure.kind} request ${failure.requestId} was rejected; nothing of it was applied:`,
    ...failure.errors.map((line) => `  ${line}`),
    ...(more > 0 ? [`  …and ${more} more: GET ${failure.url}`] : []),
  ].join("\n");
}
