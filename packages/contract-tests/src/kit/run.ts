// The library entry: runs the suite's files through vitest's Node API against one running
// implementation (or the targets of a module), collects what each test found, and writes the
// reports. vitest 4 rather than the repository's 5: it runs on Node 20 (docs/decisions/016).
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Reporter, TestModule } from "vitest/node";
import { CONFIG_VARIABLE, type KitConfig, writeConfig } from "./config.ts";
import { preflight, UsageError } from "./preflight.ts";
import { type AreaOutcome, areaName, type ConformanceResult, collect, summarize } from "./results.ts";
import { locateSuite } from "./suite-files.ts";
import { formatSummary } from "./summary.ts";

export interface ConformanceOptions {
  /** The implementation's base URL, ending in /v2. */
  baseUrl?: string;
  /** Tokens of two different accounts (more are handed out too). */
  tokens?: string[];
  /** Runs `accounts create --name N` and `tokens revoke T`, printing JSON (docs/product.md §2). */
  adminCommand?: string;
  /** A name or address of this machine the implementation can reach, for webhook receivers. */
  webhookHost?: string;
  /** A module exporting `targets: Target[]` the kit starts itself, instead of `baseUrl`. */
  targetsModule?: string;
  /** Areas to run (file names of the suite: `ingest-ack`, `feeds`…); all by default. */
  only?: string[];
  /** Areas to leave out. */
  skip?: string[];
  /** Only the tests whose full name matches this regular expression (one rule, say). */
  grep?: string;
  /** Write a JUnit XML report there. */
  junit?: string;
  /** Write the JSON result (ConformanceResult) there. */
  json?: string;
  /** List passing and skipped tests one by one in the summary. */
  verbose?: boolean;
  /** Where progress and the summary go (default: stdout); `() => {}` for none. */
  print?: (text: string) => void;
}

/** The suite's areas, as `only` and `skip` take them. */
export function suiteAreas(): string[] {
  return [...locateSuite().files.keys()];
}

function selectAreas(all: string[], only: string[] = [], skip: string[] = []): string[] {
  for (const area of [...only, ...skip])
    if (!all.includes(area)) throw new UsageError(`no area "${area}"; the areas are: ${all.join(", ")}`);
  const chosen = all.filter((a) => (only.length === 0 || only.includes(a)) && !skip.includes(a));
  if (chosen.length === 0) throw new UsageError("--only and --skip leave no area to run");
  return chosen;
}

/** Prints one line per finished area while the run goes on; the full summary comes at the end. */
function progress(print: (text: string) => void): Reporter {
  return {
    onTestModuleEnd(module: TestModule) {
      const tests = [...module.children.allTests()].map((t) => t.result().state);
      const n = (s: string) => tests.filter((t) => t === s).length;
      const mark = n("failed") > 0 || module.errors().length > 0 ? "✗" : "✓";
      print(
        `${mark} ${areaName(module.moduleId)}: ${n("passed")} passed, ${n("failed")} failed, ${n("skipped")} skipped\n`,
      );
    },
  };
}

/**
 * Runs the suite and resolves with what it found; throws UsageError (before any test runs) for
 * options that cannot work: no /v2, an unreachable URL, a refused or repeated token, an unknown area.
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceResult> {
  const print = options.print ?? ((text: string) => process.stdout.write(text));
  const suite = locateSuite();
  const areas = selectAreas([...suite.files.keys()], options.only, options.skip);
  const tokens = options.tokens ?? [];
  if (!options.targetsModule) {
    if (!options.baseUrl)
      throw new UsageError("--base URL is required (e.g. --base http://localhost:3000/v2)");
    await preflight({
      baseUrl: options.baseUrl,
      tokens,
      ...(options.adminCommand ? { adminCommand: options.adminCommand } : {}),
    });
  }
  const config: KitConfig = {
    tokens,
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, "") } : {}),
    ...(options.adminCommand ? { adminCommand: options.adminCommand } : {}),
    ...(options.webhookHost ? { webhookHost: options.webhookHost } : {}),
    ...(options.targetsModule ? { targetsModule: resolve(options.targetsModule) } : {}),
  };
  const before = process.env[CONFIG_VARIABLE];
  writeConfig(config);
  let modules: ReadonlyArray<TestModule> = [];
  const unhandled: string[] = [];
  const collector: Reporter = {
    onTestRunEnd(testModules, errors) {
      modules = testModules;
      for (const e of errors) unhandled.push(String(e.message ?? e));
    },
  };
  try {
    // Imported here: vitest is ESM-only, and the CommonJS build of this entry must still load.
    const { startVitest } = await import("vitest/node");
    const vitest = await startVitest(
      "test",
      [],
      {
        run: true,
        watch: false,
        config: false,
        root: suite.root,
        include: areas.map((a) => suite.files.get(a) as string),
        reporters: [collector, progress(print), ...(options.junit ? ["junit"] : [])],
        ...(options.junit ? { outputFile: { junit: resolve(options.junit) } } : {}),
        ...(options.grep ? { testNamePattern: options.grep } : {}),
        testTimeout: 60_000,
        hookTimeout: 60_000,
        // One file at a time: a system under test is shared, and rate limits are per account.
        fileParallelism: false,
      },
      { cacheDir: mkdtempSync(join(tmpdir(), "oisr-conformance-vite-")), logLevel: "error" },
    );
    await vitest.close();
  } finally {
    if (before === undefined) delete process.env[CONFIG_VARIABLE];
    else process.env[CONFIG_VARIABLE] = before;
  }
  const origin = options.baseUrl ? new URL(options.baseUrl).origin : undefined;
  const outcomes: AreaOutcome[] = collect(modules, origin);
  const result = summarize(options.baseUrl ?? options.targetsModule ?? "", outcomes, unhandled);
  print(formatSummary(result, options.verbose));
  if (options.json) {
    mkdirSync(dirname(resolve(options.json)), { recursive: true });
    writeFileSync(resolve(options.json), `${JSON.stringify(result, null, 2)}\n`);
  }
  return result;
}
