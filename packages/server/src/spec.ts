// The one contract, loaded from spec/openapi.yaml for validation and served as /v2/openapi.json.
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { locate } from "./paths.ts";

export const specPath = process.env.OISR_SPEC_PATH ?? locate("spec/openapi.yaml");

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, unknown> };

export function loadSpec(path = specPath): OpenApiDocument {
  return parse(readFileSync(path, "utf8")) as OpenApiDocument;
}
