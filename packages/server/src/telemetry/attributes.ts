// Attribute names from the messaging semantic conventions, still "development" status, so copied
// here rather than imported from the incubating entry point (which may rename them in any minor
// release, as the semantic-conventions package advises). `messaging.oisr.*` is this system's own
// namespace, as the conventions reserve `messaging.{system}.*`.
export const MESSAGING_SYSTEM = "messaging.system";
export const MESSAGING_OPERATION_NAME = "messaging.operation.name";
export const MESSAGING_OPERATION_TYPE = "messaging.operation.type";
export const MESSAGING_DESTINATION_NAME = "messaging.destination.name";
export const MESSAGING_MESSAGE_ID = "messaging.message.id";
export const MESSAGING_MESSAGE_BODY_SIZE = "messaging.message.body.size";
export const MESSAGING_BATCH_MESSAGE_COUNT = "messaging.batch.message_count";

/** Milliseconds a request waited in its account's queue, from acceptance to its first start. */
export const OISR_QUEUE_WAIT_MS = "messaging.oisr.queue_wait_ms";
/** The attempt of the request (1 for the first). */
export const OISR_ATTEMPT = "messaging.oisr.attempt";
export const OISR_ACCOUNT_ID = "messaging.oisr.account_id";
/** succeeded | failed (business rules), per stage as counts. */
export const OISR_SUCCEEDED = "messaging.oisr.succeeded_count";
export const OISR_FAILED = "messaging.oisr.failed_count";
/** Why a stage applied nothing: lease_lost | abandoned. */
export const OISR_OUTCOME = "messaging.oisr.outcome";
export const OISR_REPLAYED = "messaging.oisr.idempotent_replayed";

export const SYSTEM = "oisr";

/** The API key of an HTTP call (its public id, never the secret): which integration made the call. */
export const OISR_API_KEY_ID = "oisr.api_key.id";
