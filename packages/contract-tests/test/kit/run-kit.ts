// Runs the kit's CLI from this repository's sources as a user runs the bin: a child process, its
// exit code, and the JSON report it writes.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceResult } from "../../src/kit/results.ts";

const cli = fileURLToPath(new URL("../../src/kit/cli.ts", import.meta.url));
const mockAdmin = fileURLToPath(new URL("../../scripts/mock-admin.mjs", import.meta.url));

/** The --admin-command of a standalone mock at `origin`. */
export const mockAdminCommand = (origin: string) => `"${process.execPath}" "${mockAdmin}" ${origin}`;

/** A kit run starts vitest in a child process: minutes on a busy two-core machine. */
export const KIT_RUN_TIMEOUT_MS = 600_000;

export interface KitRun {
  code: number | null;
  stdout: string;
  stderr: string;
  result?: ConformanceResult;
}

export async function runKit(args: string[]): Promise<KitRun> {
  const dir = mkdtempSync(join(tmpdir(), "oisr-kit-run-"));
  const json = join(dir, "result.json");
  // The child reads the options it is given, not this test's environment.
  const { OISR_CONFORMANCE: _, ...env } = process.env;
  const child = spawn(process.execPath, [cli, ...args, "--json", json], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  let result: ConformanceResult | undefined;
  try {
    result = JSON.parse(readFileSync(json, "utf8")) as ConformanceResult;
  } catch {}
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr, ...(result ? { result } : {}) };
}

export const failedNames = (run: KitRun) =>
  (run.result?.areas ?? []).flatMap((a) => a.tests.filter((t) => t.status === "failed").map((t) => t.name));
