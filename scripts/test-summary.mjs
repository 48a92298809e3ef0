#!/usr/bin/env node
// Sums the vitest JSON reports every package wrote into one closing line CI can read.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const workspaces = ["packages", "examples"].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [],
);
for (const pkg of workspaces) {
  if (!existsSync(join(pkg, "package.json"))) continue;
  const file = join(pkg, ".test-results.json");
  if (!existsSync(file)) {
    missing.push(pkg);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(", ")}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
