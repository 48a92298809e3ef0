#!/usr/bin/env node
// Sums the vitest JSON reports every package wrote into one closing line CI can read, after naming
// every failed test with the first line of its error (a CI log is often read from its tail only).
// A package without a report fails the run, unless --present-only (a filtered `npm test`).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const presentOnly = process.argv.includes("--present-only");
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
const failures = [];
const workspaces = ["packages", "examples"].flatMap((dir) =>
  existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [],
);
for (const pkg of workspaces) {
  if (!existsSync(join(pkg, "package.json"))) continue;
  const file = join(pkg, ".test-results.json");
  if (!existsSync(file)) {
    if (!presentOnly) missing.push(pkg);
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  for (const result of report.testResults ?? []) {
    for (const test of result.assertionResults ?? []) {
      if (test.status !== "failed") continue;
      const reason = String(test.failureMessages?.[0] ?? "")
        .split("\n")[0]
        .slice(0, 300);
      failures.push(`${pkg}/${result.name.split(`/${pkg}/`).pop()}: ${test.fullName}\n    ${reason}`);
    }
  }
}
if (failures.length > 0) console.log(`Failed tests:\n  ${failures.join("\n  ")}`);
if (missing.length > 0) console.log(`no test report from: ${missing.join(", ")}`);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || missing.length > 0 ? 1 : 0);
