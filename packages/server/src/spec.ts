// The one contract, loaded from spec/openapi.yaml for validation and served as /v2/openapi.json.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { locate } from "./paths.ts";

/** The build ships the spec as JSON beside the bundle; from sources, the YAML is read. */
const builtSpec = new URL("./openapi.json", import.meta.url);
export const specPath =
  process.env.OISR_SPEC_PATH ??
  (import.meta.url.includes("/dist/") && existsSync(builtSpec)
    ? fileURLToPath(builtSpec)
    : locate("spec/openapi.yaml"));

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, unknown> };

export function loadSpec(path = specPath): OpenApiDocument {
  const text = readFileSync(path, "utf8");
  return (path.endsWith(".json") ? JSON.parse(text) : parse(text)) as OpenApiDocument;
}
