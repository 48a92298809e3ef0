#!/usr/bin/env node
// Every package the lockfile installs must accept the oldest Node the repository supports for
// `npm ci`, so a contributor on Node 20 sees no EBADENGINE warning (issue 29: there were eight,
// from vitest 5, msw 3, size-limit 14 and graphile-worker 0.18; decision 022 says what replaced
// them). npm checks `engines` against the Node running npm, not the Node 24 that `npm ci` then
// installs for the scripts, so this reads the lockfile instead of trusting whoever ran the install.
//
// The floor is 20.19.0, not 20.0.0: the build tools (vite 8, tsdown, redocly, dependency-cruiser)
// need require(esm), unflagged from Node 20.19; older 20.x releases are out of support anyway.
//
//   node scripts/check-engines.mjs            (part of `npm run lint`)
import { readFileSync } from "node:fs";
import semver from "semver";

const FLOOR = "20.19.0";
const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const bad = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  const range = entry.engines?.node;
  // Optional platform binaries (e.g. a wasm fallback) npm skips on this platform still count:
  // npm warns about an engine before it decides whether to install a package.
  if (range && !semver.satisfies(FLOOR, range, { includePrerelease: true }))
    bad.push(`${path.replace(/^.*node_modules\//, "")}@${entry.version} wants Node ${range}`);
}
if (bad.length) {
  process.stderr.write(
    `${bad.length} packages would warn EBADENGINE on Node ${FLOOR}:\n  ${bad.join("\n  ")}\n`,
  );
  process.exit(1);
}
process.stdout.write(
  `engines: all ${Object.keys(lock.packages).length - 1} locked packages accept Node ${FLOOR}\n`,
);
