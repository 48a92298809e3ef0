// The contract document, typed just enough for the code that walks it (validators, /docs).
import { openapiDocument as document } from "./generated/spec.gen.ts";

export type OpenApiDocument = Record<string, unknown> & {
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
};

/** spec/openapi.yaml, embedded at generate time. Shared: copy it before changing anything. */
export const openapiDocument = document as OpenApiDocument;
