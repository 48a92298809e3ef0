// Prints benchmark figures as a Markdown table and appends them to the run's results.
// With BENCH_SUMMARY set (run-all does), every row that has a goal is also appended to that file
// as one JSON line, for the summary table of bench/RESULTS.md. Figures only: nothing here fails.
import { appendFileSync } from "node:fs";

export interface Row {
  figure: string;
  value: string;
  baseline?: string;
  ratio?: string;
  goal?: string;
  /** Whether the goal is met; when omitted, read from the goal ("≥ 0.50×", "≤ 250 MB", "0"). */
  met?: boolean;
  /** Put the row in the summary of RESULTS.md even without a goal (a key figure for context). */
  summary?: boolean;
}

export interface SummaryRow {
  table: string;
  figure: string;
  value: string;
  goal: string;
  ratio: string;
  met: boolean | null;
}

export function printTable(title: string, rows: Row[]): string {
  const lines = [
    `### ${title}`,
    "",
    "| figure | value | baseline | ratio | goal |",
    "|---|---|---|---|---|",
    ...rows.map(
      (r) => `| ${r.figure} | ${r.value} | ${r.baseline ?? ""} | ${r.ratio ?? ""} | ${r.goal ?? ""} |`,
    ),
    "",
  ];
  const text = lines.join("\n");
  console.log(text);
  if (process.env.BENCH_RESULTS) appendFileSync(process.env.BENCH_RESULTS, `${text}\n`);
  if (process.env.BENCH_SUMMARY) {
    for (const r of rows) {
      const hasGoal = !!r.goal && !r.goal.startsWith("(");
      if (!hasGoal && !r.summary) continue;
      const summary: SummaryRow = {
        table: title,
        figure: r.figure,
        value: r.value,
        goal: hasGoal ? (r.goal as string) : "—",
        ratio: r.ratio ?? "",
        met: hasGoal ? (r.met ?? judge(r)) : null,
      };
      appendFileSync(process.env.BENCH_SUMMARY, `${JSON.stringify(summary)}\n`);
    }
  }
  return text;
}

/** Extra text for the results (a query plan, a profile), printed and appended like a table. */
export function printBlock(title: string, body: string, fence = true): string {
  const text = [`#### ${title}`, "", ...(fence ? ["```", body.trimEnd(), "```"] : [body.trimEnd()]), ""].join(
    "\n",
  );
  console.log(text);
  if (process.env.BENCH_RESULTS) appendFileSync(process.env.BENCH_RESULTS, `${text}\n`);
  return text;
}

const number = (text: string) => {
  const m = /-?[\d,]*\.?\d+/.exec(text);
  return m ? Number(m[0].replace(/,/g, "")) : Number.NaN;
};

/** Reads a goal such as "≥ 0.50×", "≤ 10 ms", "≤ 250 MB" or "0" against the row's ratio or value. */
export function judge(r: Row): boolean | null {
  const goal = (r.goal ?? "").trim();
  const m = /^(≥|≤|>=|<=)\s*([\d,.]+)\s*(×)?/.exec(goal);
  if (m) {
    const target = number(m[2] as string);
    const actual = m[3] ? number(r.ratio ?? "") : number(r.value);
    if (Number.isNaN(actual)) return null;
    return m[1]?.startsWith("≥") || m[1] === ">=" ? actual >= target : actual <= target;
  }
  if (/^[\d,.]+$/.test(goal)) {
    const actual = number(r.value);
    return Number.isNaN(actual) ? null : actual === number(goal);
  }
  return null;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** p50/p90/p99/max of unsorted samples. */
export function spread(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s.at(-1) ?? Number.NaN,
    mean: s.reduce((a, b) => a + b, 0) / (s.length || 1),
  };
}
