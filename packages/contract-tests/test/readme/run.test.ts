// The README blocks marked `<!-- readme-test: run -->`, executed as a reader would run them:
// the SDK's quick start against the mock, the mock's test examples under vitest, the CLI's
// commands against a standalone mock. Each README's runner checks what its blocks promise.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type StandaloneServer, setupMockServer, startMockServer } from "@oisr/mock-server/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ReadmeBlock } from "../../src/readme.ts";
import {
  isShell,
  isTypeScript,
  loadReadme,
  packageRoot,
  type Readme,
  readmeLine,
  readmePaths,
  repoRoot,
  toReadmeLocations,
  writeSnippets,
} from "./readmes.ts";
import { cleanEnv, type Finished, runProcess } from "./spawn.ts";

const runBlocks = (readme: Readme) => readme.blocks.filter((b) => b.mode.kind === "run");
const where = (blocks: ReadmeBlock[]) => blocks.map((b) => `:${b.line}`).join(", ");

const sdk = loadReadme("packages/sdk/README.md");
const mock = loadReadme("packages/mock-server/README.md");
const cli = loadReadme("packages/cli/README.md");

it("only the READMEs with a runner here mark blocks to run", () => {
  const elsewhere = readmePaths()
    .filter((path) => ![sdk.path, mock.path, cli.path].includes(path))
    .flatMap((path) => runBlocks(loadReadme(path)).map((b) => `${path}:${b.line}`));
  expect(elsewhere).toEqual([]);
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe(sdk.path, () => {
  const blocks = runBlocks(sdk);
  it(`${where(blocks)} (quick start) sends an order to https://api.example.com/v2 and logs what was created`, async () => {
    expect(blocks.map((b) => b.lang)).toEqual(["ts"]);
    const [snippet] = writeSnippets(sdk, "run", blocks).snippets;
    // The mock answers the README's own base URL inside this process; the token comes from the environment.
    const api = setupMockServer({ baseUrl: "https://api.example.com/v2" });
    api.listen({ onUnhandledRequest: "error" });
    vi.stubEnv("OISR_TOKEN", "oisr_readme");
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await import(pathToFileURL(snippet?.file ?? "").href);
    } finally {
      api.close();
    }
    expect(error.mock.calls).toEqual([]);
    expect(log.mock.calls).toEqual([
      [[{ index: 0, type: "order", id: expect.stringMatching(/^ord_/), outcome: "created" }]],
    ]);
    expect(api.store.account("oisr_readme").order("A-1001")?.status).toBe("open");
  });
});

describe(mock.path, () => {
  const blocks = runBlocks(mock);
  it(`${where(blocks)} pass as test files under vitest, with the fixtures the README names`, async () => {
    expect(blocks.filter((b) => !isTypeScript(b))).toEqual([]);
    const { dir, snippets } = writeSnippets(mock, "run", blocks);
    // A block named as a plain module (`// sync-orders.ts`) is code under test; the others are tests.
    const tests = snippets.filter((s) => !s.block.name || s.block.name.endsWith(".test.ts"));
    const config = join(dir, "vitest.config.mjs");
    const test = {
      root: dir,
      include: tests.map((s) => basename(s.file)),
      globals: true,
      setupFiles: [join(packageRoot, "test/readme/mock-fixtures.ts")],
      reporters: ["default", "json"],
      outputFile: { json: join(dir, "results.json") },
    };
    // preserveSymlinks: the workspace's packages load as installed ones would (by Node, untransformed).
    const options = { cacheDir: join(dir, ".vite"), resolve: { preserveSymlinks: true }, test };
    writeFileSync(config, `export default ${JSON.stringify(options, null, 2)};\n`);
    const vitest = join(dirname(fileURLToPath(import.meta.resolve("vitest/package.json"))), "vitest.mjs");
    const child = await runProcess(process.execPath, [vitest, "run", "--config", config], {
      cwd: dir,
      env: cleanEnv({}),
      timeoutMs: 50_000, // under the test's own 60 s, so a hung child is killed, not left behind
    });
    const output = toReadmeLocations(`${child.stdout}\n${child.stderr}`, mock, snippets);
    expect(child.status, output).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, "results.json"), "utf8")) as {
      testResults: { name: string; assertionResults: { status: string }[] }[];
    };
    const outcomes = Object.fromEntries(
      tests.map((s) => [
        readmeLine(mock, s.block, 1),
        results.testResults.find((r) => r.name === s.file)?.assertionResults.map((a) => a.status) ?? [],
      ]),
    );
    for (const [location, statuses] of Object.entries(outcomes)) {
      expect(statuses.length, `${location}: no test ran\n${output}`).toBeGreaterThan(0);
      expect(
        statuses.filter((s) => s !== "passed"),
        `${location}\n${output}`,
      ).toEqual([]);
    }
  });
});

describe(cli.path, () => {
  const token = "oisr_readme";
  let server: StandaloneServer;
  let work: string;
  let requestId: string | undefined;

  beforeAll(async () => {
    server = await startMockServer({ port: 0 });
    work = mkdtempSync(join(tmpdir(), "oisr-readme-cli-"));
    writeFileSync(join(work, "orders.jsonl"), ordersFile(cli));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("runs every command block, or says why not", () => {
    const unmarked = cli.blocks.filter((b) => isShell(b) && b.mode.kind === "check");
    expect(unmarked.map((b) => `${cli.path}:${b.line}`)).toEqual([]);
  });

  // What the commands are checked for, by the command a block runs; a block of another command
  // needs its check here first.
  const checks: { command: RegExp; check(result: Finished): void }[] = [
    {
      command: /^oisr ingest orders orders\.jsonl/m,
      check(result) {
        // orders.jsonl: three orders, then one with quantity 0: exit 1 and a report naming line 4.
        expect(result.status, result.stderr).toBe(1);
        expect(JSON.parse(result.stdout)).toMatchObject({ complete: true, read: 4, succeeded: 3, failed: 1 });
        expect(result.stderr).toContain("Done: 3 succeeded, 1 failed of 4 items read");
        const report = readFileSync(join(work, "failures.jsonl"), "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l));
        expect(report).toEqual([
          expect.objectContaining({ line: 4, pointer: "/lines/0/quantity", code: "minimum" }),
        ]);
        requestId = server.mock.controls
          .requests({ token })
          .find((r) => r.status === "succeeded")?.request_id;
      },
    },
    {
      command: /^oisr requests get /m,
      check(result) {
        expect(result.status, result.stderr).toBe(0);
        expect(JSON.parse(result.stdout)).toMatchObject({ request_id: requestId, status: "succeeded" });
      },
    },
    {
      command: /^oisr orders watch --once > changed\.jsonl/m,
      check(result) {
        expect(result.status, result.stderr).toBe(0);
        const changed = readFileSync(join(work, "changed.jsonl"), "utf8").trim().split("\n");
        expect(changed.map((line) => JSON.parse(line).external_id).sort()).toEqual(["1001", "1002", "1003"]);
      },
    },
  ];

  for (const block of runBlocks(cli)) {
    it(`:${block.line} runs against a standalone mock`, async () => {
      const check = checks.find((c) => c.command.test(block.code));
      expect(check, `${cli.path}:${block.line}: no check for this command in run.test.ts`).toBeDefined();
      // The placeholders a reader replaces: the example base URL by the mock's, `oisr_…` by a token
      // of the mock, `0193c2a4-…` by the id of the request the ingest above made.
      const script = block.code
        .replaceAll("https://api.example.com/v2", server.url)
        .replaceAll("oisr_…", token)
        .replaceAll("0193c2a4-…", requestId ?? "no-request-id-yet");
      expect(script, "a placeholder this test does not fill").not.toContain("…");
      // `oisr` is on the PATH as after `npm ci`. A block that does not export OISR_BASE_URL and
      // OISR_TOKEN itself runs in a reader's shell after the quick start's exports.
      const exported = /^export OISR_BASE_URL=/m.test(block.code) && /^export OISR_TOKEN=/m.test(block.code);
      const env = cleanEnv({
        PATH: `${join(repoRoot, "node_modules/.bin")}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
        ...(exported ? {} : { OISR_BASE_URL: server.url, OISR_TOKEN: token }),
      });
      const result = await runProcess("bash", ["-e", "-o", "pipefail", "-c", script], { cwd: work, env });
      check?.check(result);
    });
  }
});

/** The CLI README's own JSON example of an order, three times with other ids, then one invalid. */
function ordersFile(readme: Readme): string {
  const example = readme.blocks.find(
    (b) => b.lang === "json" && /"ship_to"/.test(b.code) && /"lines"/.test(b.code),
  );
  if (!example) throw new Error(`${readme.path}: the JSON example of an order is gone`);
  const order = JSON.parse(example.code) as { external_id: string; lines: { quantity: number }[] };
  const orders = ["1001", "1002", "1003"].map((id) => ({ ...order, external_id: id }));
  const invalid = { ...order, external_id: "1004", lines: order.lines.map((l) => ({ ...l, quantity: 0 })) };
  return `${[...orders, invalid].map((o) => JSON.stringify(o)).join("\n")}\n`;
}
