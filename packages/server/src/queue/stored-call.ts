// A stored call as the worker applies it (startStage reads it with the requests it starts).
import type { IngestBodies } from "@oisr/domain";
import type { RequestKind } from "./statuses.ts";

/**
 * A stored call, its body typed by its kind. The database hands back `kind` as text and `body` as
 * JSON of no type; they are read as this union, unchecked, because the only writer (accept.ts,
 * from the ingest routes) stores them together: `kind` is the endpoint's (and the column's CHECK
 * keeps it to REQUEST_KINDS), `body` the JSON that endpoint's schema accepted before anything was
 * stored (http/body-validation.ts), defaults filled in.
 */
export type StoredCall = {
  [Kind in RequestKind]: {
    id: string;
    kind: Kind;
    params: Record<string, string> | null;
    body: IngestBodies[Kind];
  };
}[RequestKind];
