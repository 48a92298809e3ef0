// The terminal summary: per area, its spec links, every failed rule with its first error, the
// skipped ones grouped by what would enable them; passing rules with --verbose.
import type { ConformanceResult } from "./results.ts";

export function formatSummary(result: ConformanceResult, verbose = false): string {
  const lines: string[] = ["", `OISR conformance — ${result.target}`, ""];
  for (const area of result.areas) {
    const n = (s: string) => area.tests.filter((t) => t.status === s).length;
    const mark = n("failed") > 0 || area.errors.length > 0 ? "✗" : n("passed") > 0 ? "✓" : "–";
    lines.push(
      `${mark} ${area.area}: ${area.title}  (${n("passed")} passed, ${n("failed")} failed, ${n("skipped")} skipped)`,
    );
    for (const link of area.links) lines.push(`    spec: ${link}`);
    for (const error of area.errors) lines.push(`    error: ${error.replaceAll("\n", "\n           ")}`);
    for (const test of area.tests) {
      if (test.status === "failed") {
        lines.push(`    ✗ ${test.name}`);
        if (test.error) lines.push(`        ${test.error.replaceAll("\n", "\n        ")}`);
      } else if (test.status === "passed" && verbose) lines.push(`    ✓ ${test.name}`);
    }
    const byReason = new Map<string, string[]>();
    for (const test of area.tests.filter((t) => t.status === "skipped")) {
      const reason = test.reason ?? "skipped by the suite (reason in its name)";
      byReason.set(reason, [...(byReason.get(reason) ?? []), test.name]);
    }
    for (const [reason, names] of byReason) {
      lines.push(`    ↓ ${names.length} skipped: ${reason}`);
      if (verbose) for (const name of names) lines.push(`        ${name}`);
    }
  }
  for (const error of result.errors) lines.push(`error outside tests: ${error}`);
  lines.push(
    "",
    `${result.passed} passed, ${result.failed} failed, ${result.skipped} skipped — ${result.ok ? "conforms (every test that ran passed)" : "does NOT conform"}`,
    "",
  );
  return lines.join("\n");
}
