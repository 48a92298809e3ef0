// Prints benchmark figures as a Markdown table and appends them to the run's results.
import { appendFileSync } from "node:fs";

export interface Row {
  figure: string;
  value: string;
  baseline?: string;
  ratio?: string;
  goal?: string;
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
  return text;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
