// A run's outcome, test by test and area by area, as the terminal summary and --json print it.
import type { TestModule } from "vitest/node";
import { areaOf, operationLink } from "./areas.ts";

export type Status = "passed" | "failed" | "skipped";

export interface TestOutcome {
  /** The rule the test checks, as its (full) name states it. */
  name: string;
  status: Status;
  /** Why it was skipped: the capability it needs and the option that enables it. */
  reason?: string;
  /** The first assertion or error, when it failed. */
  error?: string;
  durationMs: number;
}

export interface AreaOutcome {
  area: string;
  title: string;
  /** The spec operations of the area, on the target's /docs page. */
  links: string[];
  tests: TestOutcome[];
  /** Errors outside tests (a file that failed to load, a hook that threw). */
  errors: string[];
}

export interface ConformanceResult {
  target: string;
  areas: AreaOutcome[];
  passed: number;
  failed: number;
  skipped: number;
  /** Errors no test owns (unhandled rejections during the run). */
  errors: string[];
  /** True when every test that ran passed and nothing else failed. */
  ok: boolean;
}

/** `ingest-ack` from `…/test/ingest-ack.test.ts` or `…/dist/suite/ingest-ack.js`. */
export function areaName(moduleId: string): string {
  const file = moduleId.split(/[\\/]/).at(-1) ?? moduleId;
  return file.replace(/\.test\.ts$|\.js$/, "");
}

const firstLine = (text: string) => text.split("\n").slice(0, 6).join("\n");

export function collect(modules: ReadonlyArray<TestModule>, origin: string | undefined): AreaOutcome[] {
  return modules
    .map((module) => {
      const area = areaName(module.moduleId);
      const { title, operations } = areaOf(area);
      const tests: TestOutcome[] = [];
      for (const test of module.children.allTests()) {
        const result = test.result();
        const durationMs = Math.round(test.diagnostic()?.duration ?? 0);
        if (result.state === "passed") tests.push({ name: test.fullName, status: "passed", durationMs });
        else if (result.state === "failed") {
          const error = result.errors[0];
          tests.push({
            name: test.fullName,
            status: "failed",
            error: error ? firstLine(error.message ?? String(error)) : "failed",
            durationMs,
          });
        } else
          tests.push({
            name: test.fullName,
            status: "skipped",
            ...(result.state === "skipped" && result.note ? { reason: result.note } : {}),
            durationMs,
          });
      }
      return {
        area,
        title,
        links: origin ? operations.map((op) => operationLink(origin, op)) : operations,
        tests,
        errors: module.errors().map((e) => firstLine(e.message ?? String(e))),
      };
    })
    .sort((a, b) => a.area.localeCompare(b.area));
}

export function summarize(target: string, areas: AreaOutcome[], errors: string[]): ConformanceResult {
  const all = areas.flatMap((a) => a.tests);
  const count = (s: Status) => all.filter((t) => t.status === s).length;
  const failed = count("failed");
  const moduleErrors = areas.reduce((n, a) => n + a.errors.length, 0);
  return {
    target,
    areas,
    passed: count("passed"),
    failed,
    skipped: count("skipped"),
    errors,
    ok: failed === 0 && moduleErrors === 0 && errors.length === 0 && all.length > 0,
  };
}
