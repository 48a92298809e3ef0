#!/usr/bin/env node
// `npm test`: every package's tests one package at a time (turbo), then one total line
// (scripts/test-summary.mjs). Arguments before a `--` go to turbo (e.g. `--filter=@oisr/sdk`),
// arguments after it to vitest (e.g. `npm test -- -- -t "webhook"`). Unless vitest reporters are
// given, each package writes the JSON report the total is made from, `.test-results.json` (also
// turbo's declared output, so a cached run restores it and turbo has no missing outputs to warn of).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const split = args.indexOf("--");
const turboArgs = split === -1 ? args : args.slice(0, split);
const vitestArgs = split === -1 ? [] : args.slice(split + 1);
const ownReporters = vitestArgs.some((arg) => arg.startsWith("--reporter"));
if (!ownReporters) {
  vitestArgs.unshift("--reporter=default", "--reporter=json", "--outputFile.json=.test-results.json");
}

// A report from an earlier run must not count in this run's total.
for (const dir of ["packages", "examples"]) {
  if (!existsSync(dir)) continue;
  for (const name of readdirSync(dir)) {
    const report = join(dir, name, ".test-results.json");
    if (existsSync(report)) rmSync(report);
  }
}

const run = (command, commandArgs) =>
  spawnSync(command, commandArgs, { stdio: "inherit", shell: process.platform === "win32" });
const turbo = run("turbo", [
  "run",
  "test",
  "--concurrency=1",
  "--continue",
  ...turboArgs,
  "--",
  ...vitestArgs,
]);
if (turbo.error) throw turbo.error;
// With a --filter only the selected packages report, and with reporters of one's own perhaps none:
// the total then counts the reports there are.
const partial = ownReporters || turboArgs.some((arg) => arg.startsWith("--filter") || arg === "-F");
const jsonReports =
  !ownReporters || vitestArgs.some((arg) => arg.startsWith("--reporter") && arg.includes("json"));
const summary = jsonReports
  ? run(process.execPath, ["scripts/test-summary.mjs", ...(partial ? ["--present-only"] : [])])
  : { status: 0 };
process.exit((turbo.status ?? 1) || (summary.status ?? 1));
