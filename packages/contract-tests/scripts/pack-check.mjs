#!/usr/bin/env node
// The published tarball, as an implementer gets it: build, `npm pack`, install the .tgz into a
// fresh project outside the repository, then run its bin on Node 20 (the oldest supported) and
// Node 24 against a standalone mock (`oisr-mock --known-tokens-only`, built from this checkout):
// - tokens only: the areas that work on shared accounts pass, exit 0, the rest listed as skipped
//   with the option that enables them;
// - with --admin-command (the mock's, scripts/mock-admin.mjs): fresh accounts, so more runs;
// - bad input (no /v2): exit 2 before any test;
// - the library entry, ESM and CJS, loads and lists the areas.
//
//   npm run test:pack                          (from packages/contract-tests)
//   PACK_CHECK_NODES=/path/node20,/path/node24  to choose the runtimes
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAndPack, packRuntimes, repoDir, run } from "../../../scripts/lib/pack-check.mjs";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const started = performance.now();
const step = (msg) =>
  process.stdout.write(
    `[conformance pack-check ${((performance.now() - started) / 1000).toFixed(0)}s] ${msg}\n`,
  );

/** The repository's standalone mock on a free port; resolves with its origin. */
async function startMock() {
  const bin = join(repoDir, "packages", "mock-server", "bin", "oisr-mock.js");
  const child = spawn(
    process.execPath,
    [bin, "--port", "0", "--known-tokens-only", "--allow-private-networks", "--rate-limits", "off"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const origin = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const api = /API:\s+(\S+)\/v2/.exec(out);
      if (api) resolve(api[1]);
    });
    child.once("exit", (code) => reject(new Error(`oisr-mock exited with ${code}: ${out}`)));
  });
  return { origin, stop: () => child.kill() };
}

const mintToken = async (origin, name) => {
  const res = await fetch(`${origin}/__mock/accounts`, { method: "POST", body: JSON.stringify({ name }) });
  return (await res.json()).token;
};

step("build and pack");
const { tarball, packDir } = buildAndPack(
  pkgDir,
  ["@oisr/conformance", "@oisr/mock-server"],
  "oisr-conformance",
);
const nodes = Object.fromEntries(Object.entries(packRuntimes()).map(([major, r]) => [major, r.path]));
const dir = mkdtempSync(join(tmpdir(), "oisr-conformance-consumer-"));
const mock = await startMock();
let failed = 0;
const check = (what, ok, detail = "") => {
  if (!ok) failed++;
  step(`${what}: ${ok ? "ok" : `FAILED\n${detail}`}`);
};
try {
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module" }),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--silent", tarball], { cwd: dir });
  writeFileSync(
    join(dir, "lib.mjs"),
    'import { suiteAreas, runConformance } from "@oisr/conformance";\nif (typeof runConformance !== "function") process.exit(1);\nconsole.log(suiteAreas().join(","));\n',
  );
  writeFileSync(
    join(dir, "lib.cjs"),
    'const { suiteAreas, runConformance } = require("@oisr/conformance");\nif (typeof runConformance !== "function") process.exit(1);\nconsole.log(suiteAreas().join(","));\n',
  );
  const bin = join(dir, "node_modules", "@oisr", "conformance", "dist", "cli.js");
  const base = `${mock.origin}/v2`;
  const tokens = [await mintToken(mock.origin, "pack-a"), await mintToken(mock.origin, "pack-b")];
  const admin = `"${process.execPath}" "${join(pkgDir, "scripts", "mock-admin.mjs")}" ${mock.origin}`;
  for (const [major, node] of Object.entries(nodes)) {
    for (const file of ["lib.mjs", "lib.cjs"]) {
      const r = spawnSync(node, [file], { cwd: dir, encoding: "utf8" });
      check(
        `Node ${major}, library ${file}`,
        r.status === 0 && r.stdout.includes("ingest-ack"),
        r.stdout + r.stderr,
      );
    }
    const bad = spawnSync(node, [bin, "--base", mock.origin, "--token", tokens[0], "--token", tokens[1]], {
      cwd: dir,
      encoding: "utf8",
    });
    check(
      `Node ${major}, base URL without /v2: exit 2`,
      bad.status === 2 && /does not end in \/v2/.test(bad.stderr),
      bad.stderr,
    );
    const json = join(dir, `tokens-${major}.json`);
    // The areas that run on shared accounts, but the long lifecycle: minutes on a busy machine.
    const areas = "health,first-steps,ingest-ack,auth,hostile-input,query-limits,proto-keys,validation";
    const tokensOnly = spawnSync(
      node,
      [bin, "--base", base, "--token", tokens[0], "--token", tokens[1], "--only", areas, "--json", json],
      {
        cwd: dir,
        encoding: "utf8",
        timeout: 900_000,
      },
    );
    const result = JSON.parse(readFileSync(json, "utf8"));
    check(
      `Node ${major}, --token A --token B: exit ${tokensOnly.status}, ${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped`,
      tokensOnly.status === 0 &&
        result.passed > 100 &&
        result.failed === 0 &&
        /needs accounts: --admin-command/.test(tokensOnly.stdout),
      tokensOnly.stdout.slice(-4000) + tokensOnly.stderr,
    );
  }
  const junit = join(dir, "junit.xml");
  const withAdmin = spawnSync(
    nodes["20"],
    [
      bin,
      "--base",
      base,
      "--admin-command",
      admin,
      "--only",
      "idempotency,feeds",
      "--junit",
      junit,
      "--json",
      join(dir, "admin.json"),
    ],
    { cwd: dir, encoding: "utf8", timeout: 900_000 },
  );
  const adminResult = JSON.parse(readFileSync(join(dir, "admin.json"), "utf8"));
  check(
    `Node 20, --admin-command, idempotency and feeds: exit ${withAdmin.status}, ${adminResult.passed} passed, ${adminResult.skipped} skipped`,
    withAdmin.status === 0 &&
      adminResult.failed === 0 &&
      adminResult.passed > 20 &&
      /<testsuites/.test(readFileSync(junit, "utf8")),
    withAdmin.stdout.slice(-4000) + withAdmin.stderr,
  );
} finally {
  mock.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(packDir, { recursive: true, force: true });
}
if (failed) {
  step(`${failed} failed`);
  process.exit(1);
}
step("all ok");
