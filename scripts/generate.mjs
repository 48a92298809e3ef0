#!/usr/bin/env node
// The one generation pipeline (issue 16): everything made from spec/openapi.yaml lands in
// packages/contract/src/generated, once, and every package imports it from @oisr/contract:
//   schema.d.ts   the spec's types (openapi-typescript); the SDK bundles them into its .d.ts
//   spec.gen.ts   the document itself as a constant, for the server's validator, /v2/openapi.json,
//                 /docs and the mock (browsers have no files; no YAML parse at run time), with
//                 each operation's `x-codeSamples` from scripts/code-samples.mjs
//   node scripts/generate.mjs           write both
//   node scripts/generate.mjs --check   fail if a committed file differs from a fresh run
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { parse } from "yaml";
import { withCodeSamples } from "./code-samples.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const specPath = join(root, "spec/openapi.yaml");
const outDir = "packages/contract/src/generated";
const HEADER = "// generated — do not edit. Source: spec/openapi.yaml. Re-make with `npm run generate`.\n\n";

async function render() {
  const ast = await openapiTS(new URL(`file://${specPath}`), { alphabetize: false });
  const document = withCodeSamples(parse(readFileSync(specPath, "utf8")));
  // JSON.parse of a string literal: parsed faster than an object literal by JS engines, cheap for tsc.
  const spec = `${HEADER}/** spec/openapi.yaml as data: what the server validates against and serves, and the mock too. */
export const openapiDocument: Record<string, unknown> = JSON.parse(${JSON.stringify(JSON.stringify(document))});
`;
  return { [`${outDir}/schema.d.ts`]: HEADER + astToString(ast), [`${outDir}/spec.gen.ts`]: spec };
}

const files = await render();
if (process.argv.includes("--check")) {
  const stale = Object.entries(files).filter(([path, text]) => {
    const file = join(root, path);
    return !existsSync(file) || readFileSync(file, "utf8") !== text;
  });
  if (stale.length > 0) {
    console.error(
      `Generated code is out of date with spec/openapi.yaml:\n  ${stale.map(([p]) => p).join("\n  ")}\nRun \`npm run generate\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log(`generated code matches spec/openapi.yaml (${Object.keys(files).length} files)`);
} else {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}
