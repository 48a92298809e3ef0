// What the three pack checks (packages/sdk, packages/mock-server, packages/contract-tests:
// scripts/pack-check.mjs) share: running a command, finding one Node 20 and one Node 24, and
// building and packing a package into a temporary directory. Each check keeps only its consumer.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoDir = fileURLToPath(new URL("../..", import.meta.url));

/** Runs a command to its end; its stdout, or an error carrying the exit status and both outputs. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", ...opts });
  if (r.status !== 0) {
    const out = `${r.stdout ?? ""}${r.stderr ?? ""}`.trim();
    throw new Error(
      `${cmd} ${args.join(" ")} exited with ${r.status ?? r.signal}${r.error ? ` (${r.error.message})` : ""}\n${out}`,
    );
  }
  return r.stdout;
}

export function nodeVersion(path) {
  try {
    return execFileSync(path, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return undefined;
  }
}

/**
 * `{ "20": {path, version}, "24": {path, version} }`: PACK_CHECK_NODES (comma-separated paths), else
 * the first of each major among the repository's pinned node, this process's, every `node` on
 * PATH, and the system's. Published packages promise Node 20+, so both must be there.
 */
export function packRuntimes() {
  const candidates = process.env.PACK_CHECK_NODES?.split(",") ?? [
    join(repoDir, "node_modules", ".bin", "node"),
    process.execPath,
    ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "node")),
    "/usr/bin/node",
    "/usr/local/bin/node",
  ];
  const byMajor = new Map();
  for (const path of candidates) {
    const version = nodeVersion(path);
    const major = version?.match(/^v(\d+)\./)?.[1];
    if (major && !byMajor.has(major)) byMajor.set(major, { path, version });
  }
  const missing = ["20", "24"].filter((m) => !byMajor.has(m));
  if (missing.length) {
    const found = [...byMajor.values()].map((r) => `${r.version} (${r.path})`).join(", ");
    throw new Error(`need Node ${missing.join(" and ")}; found ${found || "none"}. Set PACK_CHECK_NODES.`);
  }
  return { 20: byMajor.get("20"), 24: byMajor.get("24") };
}

/**
 * Builds the given workspaces (turbo `--filter`s) and `npm pack`s `pkgDir` into a new temporary
 * directory; returns the tarball's path and that directory (the caller removes it).
 */
export function buildAndPack(pkgDir, filters, prefix) {
  run("npx", ["turbo", "run", "build", ...filters.map((f) => `--filter=${f}`), "--output-logs=errors-only"], {
    cwd: repoDir,
  });
  const packDir = mkdtempSync(join(tmpdir(), `${prefix}-pack-`));
  run("npm", ["pack", "--pack-destination", packDir], { cwd: pkgDir });
  const file = readdirSync(packDir).find((f) => f.endsWith(".tgz"));
  if (!file) throw new Error(`npm pack wrote no tarball into ${packDir}`);
  return { tarball: join(packDir, file), packDir };
}
