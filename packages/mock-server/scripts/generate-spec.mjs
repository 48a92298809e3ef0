#!/usr/bin/env node
// Embeds spec/openapi.yaml in the mock as JSON, so the published package validates against the
// exact contract it was built from without reading files at runtime (browsers have no files).
//   node scripts/generate-spec.mjs            write src/generated/spec.gen.ts
//   node scripts/generate-spec.mjs --check    fail if the committed file is stale
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const specPath = join(pkg, "../../spec/openapi.yaml");
const outPath = join(pkg, "src/generated/spec.gen.ts");
const HEADER =
  "// generated — do not edit. Source: spec/openapi.yaml. Re-make with `npm run generate -w @oisr/mock-server`.\n\n";

const document = parse(readFileSync(specPath, "utf8"));
// JSON.parse of a string literal: parsed faster than an object literal by JS engines and cheap for tsc.
const text = `${HEADER}/** The OpenAPI document the mock validates against and serves as \`/openapi.json\`. */
export const openapiDocument: Record<string, unknown> = JSON.parse(${JSON.stringify(JSON.stringify(document))});
`;

if (process.argv.includes("--check")) {
  if (!existsSync(outPath) || readFileSync(outPath, "utf8") !== text) {
    process.stderr.write(
      "packages/mock-server/src/generated/spec.gen.ts is out of date with spec/openapi.yaml. Run `npm run generate`.\n",
    );
    process.exit(1);
  }
  process.stdout.write("mock-server: generated spec matches spec/openapi.yaml\n");
} else {
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, text);
}
