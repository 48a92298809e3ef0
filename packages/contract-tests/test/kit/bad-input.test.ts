// Options that cannot work get one clear sentence and exit 2, before any test runs.
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAdmin } from "../../src/kit/admin-command.ts";
import { type BrokenServer, startBrokenServer } from "./broken-server.ts";
import { KIT_RUN_TIMEOUT_MS, mockAdminCommand, runKit } from "./run-kit.ts";

let server: BrokenServer;
let tokens: string[];
beforeAll(async () => {
  server = await startBrokenServer("none");
  tokens = [];
  for (const name of ["a", "b"])
    tokens.push(
      String((await runAdmin(mockAdminCommand(server.origin), ["accounts", "create", "--name", name])).token),
    );
});
afterAll(() => server.close());

/** A port nothing listens on: one the system handed out a moment ago. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

describe("bad input: exit 2 and a message before any test runs", () => {
  it.each([
    [
      "a base URL without /v2",
      (b: string) => ["--base", b.replace(/\/v2$/, ""), "--token", "T1", "--token", "T2"],
      /does not end in \/v2/,
    ],
    [
      "two equal tokens",
      (b: string) => ["--base", b, "--token", "oisr_same", "--token", "oisr_same"],
      /two --token options are equal/,
    ],
    [
      "one token and no admin command",
      (b: string) => ["--base", b, "--token", "oisr_one"],
      /give two tokens/,
    ],
    [
      "an unknown area",
      (b: string) => ["--base", b, "--token", "oisr_a", "--token", "oisr_b", "--only", "nope"],
      /no area "nope"/,
    ],
  ])("%s", async (_name, args, message) => {
    const run = await runKit(args(server.baseUrl));
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).not.toContain("passed");
  });

  it("an unreachable base URL", async () => {
    const run = await runKit([
      "--base",
      `http://127.0.0.1:${await closedPort()}/v2`,
      "--token",
      "oisr_a",
      "--token",
      "oisr_b",
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:\d+\/v2/);
  });

  it("a token the implementation refuses", async () => {
    const run = await runKit([
      "--base",
      server.baseUrl,
      "--token",
      tokens[0] as string,
      "--token",
      "oisr_not_a_known_token",
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/token 2 \(oisr_not_…\) is refused: GET \/requests answered 401/);
  });
});

describe("reports", () => {
  it(
    "--junit and --json describe the same run; exit 0 when every test that ran passed",
    async () => {
      const junit = join(mkdtempSync(join(tmpdir(), "oisr-kit-junit-")), "junit.xml");
      const run = await runKit([
        "--base",
        server.baseUrl,
        "--token",
        tokens[0] as string,
        "--token",
        tokens[1] as string,
        "--only",
        "health",
        "--junit",
        junit,
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      const xml = readFileSync(junit, "utf8");
      expect(xml).toMatch(/<testsuites[^>]* tests="(\d+)"/);
      expect(Number(/<testsuites[^>]* tests="(\d+)"/.exec(xml)?.[1])).toBe(run.result?.passed);
      expect(run.result?.areas.map((a) => a.area)).toEqual(["health"]);
      expect(run.result?.areas[0]?.links).toContain(`${server.origin}/docs#operation/getHealth`);
      expect(run.stdout).toContain(`spec: ${server.origin}/docs#operation/getHealth`);
    },
    KIT_RUN_TIMEOUT_MS,
  );
});
