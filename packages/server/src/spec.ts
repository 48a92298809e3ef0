// The one contract, embedded by `npm run generate` (@oisr/contract/spec): what the server validates
// against and serves as /v2/openapi.json. No file is read and no YAML parsed at run time.
import { type OpenApiDocument, openapiDocument } from "@oisr/contract";

export type { OpenApiDocument };

/** A private copy of the document: express-openapi-validator and /docs rewrite what they are given. */
export function loadSpec(): OpenApiDocument {
  return structuredClone(openapiDocument);
}
