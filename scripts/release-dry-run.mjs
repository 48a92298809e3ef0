#!/usr/bin/env node
// What the next release would publish, without publishing or touching this checkout: clones the
// committed HEAD into a temporary directory, `npm ci`, `changeset version` (the pending changesets),
// builds the public packages, `npm publish --dry-run --json` each, and checks every tarball: no test
// files, no src/, no source maps (none are built), no test reports or build info, the package.json's
// files all present, no dependency on a private workspace package (@oisr/contract and @oisr/domain
// are bundled into dist, so no shipped file may import them either), and an exact or caret range,
// never "*", on the other public packages. Exits 1 when a check fails.
// Usage: node scripts/release-dry-run.mjs [--keep]   (--keep leaves the clone and prints its path)
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const repo = resolve(import.meta.dirname, "..");
const keep = process.argv.includes("--keep");
const scratch = mkdtempSync(join(tmpdir(), "oisr-release-"));
const clone = join(scratch, "oisr");
const started = Date.now();
const step = (title) => console.log(`\n== ${title} (${Math.round((Date.now() - started) / 1000)}s)`);
const sh = (command, args, options = {}) =>
  execFileSync(command, args, {
    cwd: clone,
    stdio: ["ignore", "pipe", "inherit"],
    encoding: "utf8",
    ...options,
  });

let failed = 0;
try {
  step(`clone ${repo} (HEAD; uncommitted changes are not included) into ${clone}`);
  execFileSync("git", ["clone", "-q", repo, clone], { stdio: "inherit" });

  step("npm ci");
  sh("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    stdio: ["ignore", "ignore", "inherit"],
  });

  step("changeset version");
  sh("npx", ["changeset", "version"], { stdio: ["ignore", "inherit", "inherit"] });

  const workspaces = readdirSync(join(clone, "packages"))
    .map((name) => join(clone, "packages", name))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) }));
  const publicPackages = workspaces.filter((w) => !w.manifest.private);
  const privateNames = new Set(workspaces.filter((w) => w.manifest.private).map((w) => w.manifest.name));
  const publicNames = new Set(publicPackages.map((w) => w.manifest.name));

  step(`build ${[...publicNames].join(", ")}`);
  sh(
    "npx",
    ["turbo", "run", "build", ...[...publicNames].map((n) => `--filter=${n}`), "--output-logs=errors-only"],
    {
      stdio: ["ignore", "inherit", "inherit"],
    },
  );

  for (const { dir, manifest } of publicPackages) {
    step(`npm publish --dry-run ${manifest.name}`);
    const problems = [];
    const out = sh("npm", ["publish", "--dry-run", "--json", "--ignore-scripts", "-w", manifest.name], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    const parsed = JSON.parse(out.slice(out.indexOf("{")));
    const report = parsed[manifest.name] ?? parsed;
    const files = report.files.map((f) => f.path);

    for (const file of files) {
      if (/(^|\/)(test|tests|__tests__)\//.test(file) || /\.(test|spec)\.[cm]?[jt]sx?$/.test(file))
        problems.push(`test file: ${file}`);
      if (/^src\//.test(file)) problems.push(`source file: ${file}`);
      if (/\.map$/.test(file)) problems.push(`source map (none are built): ${file}`);
      if (/(\.test-results\.json|\.tsbuildinfo)$/.test(file)) problems.push(`build/test artefact: ${file}`);
      if (/\.[cm]?js$|\.d\.[cm]?ts$/.test(file)) {
        const text = readFileSync(join(dir, file), "utf8");
        for (const name of privateNames) {
          if (new RegExp(`["'\`]${name}(/[^"'\`]*)?["'\`]`).test(text))
            problems.push(`${file} imports the private package ${name}`);
        }
      }
    }
    for (const entry of manifest.files ?? []) {
      if (!files.some((f) => f === entry || f.startsWith(`${entry}/`)))
        problems.push(`"files" entry missing: ${entry}`);
    }
    for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        if (privateNames.has(name)) problems.push(`${field} has the private package ${name}`);
        if (publicNames.has(name) && !/^[~^]?\d/.test(range))
          problems.push(`${field}: ${name}@"${range}" (publish an exact or ^ range)`);
        if (/^(workspace:|file:|link:)/.test(range)) problems.push(`${field}: ${name}@"${range}"`);
      }
    }
    const notes = [];
    if (!files.some((f) => /^readme/i.test(f))) notes.push("no README");
    // npm puts a package's own LICENSE file in its tarball; a declared licence without its text
    // is what a reviewer of a dependency stops at.
    if (manifest.license && !files.some((f) => /^licen[cs]e/i.test(f)))
      problems.push(`no LICENSE file although "license" is ${manifest.license}`);
    if (!files.some((f) => /^changelog/i.test(f))) notes.push("no CHANGELOG.md in the tarball");

    const deps = Object.entries(manifest.dependencies ?? {}).map(([n, r]) => `${n}@${r}`);
    const peers = Object.entries(manifest.peerDependencies ?? {}).map(([n, r]) => `${n}@${r}`);
    console.log(
      `${report.name}@${report.version}: ${report.entryCount} files, ${(report.size / 1024).toFixed(1)} kB packed, ` +
        `${(report.unpackedSize / 1024).toFixed(1)} kB unpacked`,
    );
    console.log(`  files: ${files.join(", ")}`);
    console.log(
      `  dependencies: ${deps.join(", ") || "none"}${peers.length ? `; peer: ${peers.join(", ")}` : ""}`,
    );
    if (notes.length > 0) console.log(`  note: ${notes.join("; ")}`);
    for (const problem of problems) console.log(`  FAIL ${problem}`);
    if (problems.length === 0) console.log("  ok");
    failed += problems.length;
  }
} finally {
  if (keep) console.log(`\nclone kept at ${clone}`);
  else rmSync(scratch, { recursive: true, force: true });
}
console.log(
  `\nRelease dry run: ${failed === 0 ? "ok" : `${failed} problem(s)`} (${Math.round((Date.now() - started) / 1000)}s)`,
);
process.exit(failed === 0 ? 0 : 1);
