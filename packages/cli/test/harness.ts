// Runs the real server in-process and the CLI's main() against it, capturing its output.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import * as fixtures from "@oisr/contract/fixtures";
import type { OrderInput } from "@oisr/sdk";
import { loadConfig, type RunningServer, startServer } from "@oisr/server";
import { afterAll, beforeAll } from "vitest";
import { main } from "../src/main.ts";

export interface TestSystem {
  server: RunningServer;
  url: string;
  dir: string;
  /** A fresh account: each test gets its own data and rate limits. */
  token(): Promise<string>;
}

export function useSystem(env: Record<string, string> = {}): TestSystem {
  const system = {} as TestSystem;
  beforeAll(async () => {
    system.server = await startServer(
      loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://", ...env }),
    );
    system.url = system.server.url as string;
    system.dir = await mkdtemp(join(tmpdir(), "oisr-cli-"));
    system.token = async () => (await system.server.services.accounts.createAccount("cli")).token;
  });
  afterAll(async () => {
    await system.server?.close();
    if (system.dir) await rm(system.dir, { recursive: true, force: true });
  });
  return system;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(
  args: string[],
  options: { url: string; token: string; signal?: AbortSignal; fetch?: (r: Request) => Promise<Response> },
): Promise<CliRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => {
    out += chunk;
  });
  stderr.on("data", (chunk) => {
    err += chunk;
  });
  const code = await main(args, {
    stdout,
    stderr,
    env: { OISR_BASE_URL: options.url, OISR_TOKEN: options.token },
    signal: options.signal ?? new AbortController().signal,
    fetch: options.fetch,
  });
  return { code, stdout: out, stderr: err };
}

/** A fetch that counts calls by method and path, and lets a test react to each response. */
export function countingFetch(onResponse?: (request: Request, response: Response) => void) {
  const calls: string[] = [];
  const fetcher = async (request: Request) => {
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
    const response = await fetch(request);
    onResponse?.(request, response);
    return response;
  };
  return { calls, fetch: fetcher, count: (call: string) => calls.filter((c) => c === call).length };
}

/** The shared fixture order (the spec's example) numbered `E-<i>`, as these tests count orders. */
export function order(i: number, overrides: Partial<OrderInput> = {}): OrderInput {
  return fixtures.order({ external_id: `E-${i}`, ...overrides });
}
