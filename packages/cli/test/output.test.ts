// What a person sees at the end of a run: success, failure (refused token, unreachable API) and
// Ctrl-C, with the progress bar on a (fake) terminal.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { ConnectionError } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { describeError } from "../src/errors.ts";
import { main } from "../src/main.ts";
import { order, runCli, useSystem } from "./harness.ts";
import { fakeTerminal } from "./terminal.ts";

const system = useSystem();

async function jsonl(name: string, count: number): Promise<string> {
  const path = join(system.dir, name);
  await writeFile(
    path,
    `${Array.from({ length: count }, (_, i) => JSON.stringify(order(i + 1))).join("\n")}\n`,
  );
  return path;
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("oisr ingest, when the token is refused", () => {
  it("says authentication failed, with no resume hint, and leaves no state file", async () => {
    const file = await jsonl("refused.jsonl", 5);
    const run = await runCli(["ingest", "orders", file, "--progress", "none"], {
      url: system.url,
      token: "oisr_not_a_token",
    });
    expect(run.code).toBe(3);
    const lines = run.stderr.trim().split("\n");
    expect(lines[0]).toMatch(/^oisr ingest: authentication failed: the token was refused \(401 unauthorized/);
    expect(lines[0]).toContain("--token or OISR_TOKEN");
    expect(run.stderr).not.toMatch(/resume|State saved/);
    expect(existsSync(`${file}.oisr-state.json`)).toBe(false);
    expect(run.stdout).toBe("");
  });

  it("on a terminal, erases the progress bar of a run that got nowhere: the error is all that shows", async () => {
    const file = await jsonl("refused-tty.jsonl", 5);
    const term = fakeTerminal(400);
    const code = await main(["ingest", "orders", file, "--progress", "bar"], {
      stdout: new PassThrough(),
      stderr: term.stream,
      env: { OISR_BASE_URL: system.url, OISR_TOKEN: "oisr_not_a_token" },
      signal: new AbortController().signal,
    });
    expect(code).toBe(3);
    expect(term.screen()).toEqual([
      expect.stringMatching(
        /^oisr ingest: authentication failed: the token was refused \(401 .*OISR_TOKEN\.$/,
      ),
    ]);
  });

  it("names the error first, then how to resume, when batches were already recorded", async () => {
    const token = await system.token();
    const file = await jsonl("revoked.jsonl", 6);
    let posts = 0;
    // The token stops working after the first batch (revoked mid-run).
    const fetcher = (request: Request) => {
      if (request.method === "POST" && ++posts > 1) {
        const headers = new Headers(request.headers);
        headers.set("authorization", "Bearer oisr_revoked");
        return fetch(new Request(request, { headers }));
      }
      return fetch(request);
    };
    const run = await runCli(
      ["ingest", "orders", file, "--batch-size", "3", "--concurrency", "1", "--progress", "none"],
      { url: system.url, token, fetch: fetcher },
    );
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^oisr ingest: authentication failed: the token was refused \(401/),
      `State saved in ${file}.oisr-state.json (1 batch recorded): run the same command again with a valid token to resume.`,
    ]);
  });

  it("says authentication failed for the other commands too", async () => {
    const run = await runCli(["requests", "get", "x"], { url: system.url, token: "oisr_nope" });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^oisr requests: authentication failed: the token was refused \(401/);
  });
});

describe("oisr ingest, when the API cannot be reached", () => {
  it("says which URL it cannot reach and why, at once, with no resume hint", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v2`;
    const file = await jsonl("unreachable.jsonl", 3);
    const started = performance.now();
    const run = await runCli(["ingest", "orders", file], { url, token: "oisr_whatever" });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^oisr ingest: cannot reach ${url}: connect ECONNREFUSED`)),
    ]);
    expect(existsSync(`${file}.oisr-state.json`)).toBe(false);
  });

  it("names the connection failure the SDK gives up on after its retries", () => {
    const cause = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" }),
    });
    const error = new ConnectionError("GET /v2/requests/x failed: fetch failed (attempt 6)", { cause });
    expect(describeError(error, { baseUrl: "http://127.0.0.1:9/v2" })).toBe(
      "cannot reach http://127.0.0.1:9/v2: connect ECONNREFUSED 127.0.0.1:9 (6 attempts)",
    );
  });

  it("refuses a base URL that is not an http(s) URL as a usage error", async () => {
    const run = await runCli(["requests", "get", "x"], { url: "127.0.0.1:8080/v2", token: "oisr_x" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("must be an http(s) URL");
  });
});

describe("the end of an import", () => {
  it("prints a summary with the time taken", async () => {
    const token = await system.token();
    const file = await jsonl("done.jsonl", 4);
    const run = await runCli(["ingest", "orders", file, "--progress", "none"], { url: system.url, token });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/^Done: 4 succeeded, 0 failed of 4 items read; took \d+\.\d s \(\d+ items\/s\)$/),
      "Outcomes: 4 created, 0 updated, 0 unchanged, 0 stale, 0 failed",
    ]);
  });

  it("after Ctrl-C, leaves a true summary below the stopped bar (no time left), never drawn over", async () => {
    const token = await system.token();
    const file = await jsonl("interrupted.jsonl", 12);
    const term = fakeTerminal(200);
    const stop = new AbortController();
    let acks = 0;
    const stdout = new PassThrough();
    const code = await main(
      ["ingest", "orders", file, "--batch-size", "3", "--concurrency", "1", "--progress", "bar"],
      {
        stdout,
        stderr: term.stream,
        env: { OISR_BASE_URL: system.url, OISR_TOKEN: token },
        signal: stop.signal,
        fetch: async (request) => {
          const response = await fetch(request);
          // Ctrl-C right after the second batch is acknowledged.
          if (request.method === "POST" && response.status === 202 && ++acks === 2) {
            term.stream.write("^C");
            stop.abort();
          }
          return response;
        },
      },
    );
    await new Promise((r) => setTimeout(r, 400)); // a redraw timer, if one were left, would fire
    expect(code).toBe(3);
    const screen = term.screen();
    expect(screen).toEqual([
      "Stopping: finishing requests in flight (Ctrl-C again to quit at once)…",
      expect.stringMatching(
        /^[█░]+ +\d+% of the file \| sent 6 \| accepted 6 \| succeeded 3 \| failed 0 \| elapsed \d+\.\d s, interrupted$/,
      ),
      expect.stringMatching(
        /^Interrupted after 3 of 6 items read \(\d+% of the file\): 3 succeeded, 0 failed; took \d+\.\d s \(\d+ items\/s\)$/,
      ),
      "Outcomes: 3 created, 0 updated, 0 unchanged, 0 stale, 0 failed",
      `State saved in ${file}.oisr-state.json: run the same command again to resume.`,
    ]);
  });
});

describe("--help", () => {
  it.each([
    [["--help"], "oisr ingest orders orders.jsonl"],
    [["ingest", "--help"], "oisr ingest orders orders.jsonl --report failures.jsonl"],
    [["requests", "--help"], "oisr requests get 0195"],
    [["orders", "--help"], "oisr orders watch --cursor-file orders.cursor"],
    [["webhooks", "--help"], "oisr webhooks recover whs_01JN8S7QQT86WJ5VH5F0CXSRN7 --since"],
    [["keys", "--help"], 'oisr keys create --name "WMS poller" --permission orders:read'],
  ])("%j shows an example", async (args, example) => {
    const run = await runCli(args, { url: system.url, token: "x" });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\nExamples?:\n/);
    expect(run.stdout).toContain(`  ${example}`);
  });
});
