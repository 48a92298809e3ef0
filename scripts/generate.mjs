#!/usr/bin/env node
// One generator for every package's spec types, so `generate` and the drift check can never disagree.
//   node scripts/generate.mjs <out.d.ts>...          write (paths relative to the cwd)
//   node scripts/generate.mjs --check                compare every committed target with a fresh run
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const specPath = join(root, "spec/openapi.yaml");
/** Every committed output; `--check` verifies all of them. */
const TARGETS = ["packages/domain/src/generated/schema.d.ts", "packages/sdk/src/generated/schema.d.ts"];
const HEADER = "// generated — do not edit. Source: spec/openapi.yaml. Re-make with `npm run generate`.\n\n";

async function render() {
  const ast = await openapiTS(new URL(`file://${specPath}`), { alphabetize: false });
  return HEADER + astToString(ast);
}

const args = process.argv.slice(2);
const text = await render();
if (args[0] === "--check") {
  const stale = TARGETS.filter((t) => {
    const file = join(root, t);
    return !existsSync(file) || readFileSync(file, "utf8") !== text;
  });
  if (stale.length > 0) {
    console.error(
      `Generated code is out of date with spec/openapi.yaml:\n  ${stale.join("\n  ")}\nRun \`npm run generate\` and commit the result.`,
    );
    process.exit(1);
  }
  console.log(`generated code matches spec/openapi.yaml (${TARGETS.length} files)`);
} else {
  for (const out of args) {
    const file = resolve(process.cwd(), out);
    if (!TARGETS.includes(relative(root, file)))
      throw new Error(`${out} is not a registered target in scripts/generate.mjs`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
