// A V8 .cpuprofile (node --cpu-prof) drawn as a flame graph in a standalone SVG, by d3-flame-graph
// (the npm package, rendered in headless Chromium through playwright-core; its stylesheet is
// inlined so the file reads anywhere, a browser or a code review). Idle samples are left out, so
// the widths are shares of the process's busy CPU.
//   node bench/lib/flame-svg.ts <in.cpuprofile> <out.svg> [title] [skip-ms]
// skip-ms leaves out the first milliseconds of the profile (start-up, warm-up), so a profile taken
// under load shows the per-call work.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { chromium } from "playwright-core";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Frame {
  name: string;
  value: number;
  children: Frame[];
}

const [input, output, title = "CPU profile", skip = "0"] = process.argv.slice(2);
if (!input || !output)
  throw new Error("usage: node bench/lib/flame-svg.ts <in.cpuprofile> <out.svg> [title]");
const profile = JSON.parse(readFileSync(input, "utf8")) as {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};
// Samples per node, from the sample list (not hitCount) so the first skip-ms can be left out.
const hits = new Map<number, number>();
let at = profile.startTime;
let kept = 0;
for (const [k, id] of profile.samples.entries()) {
  at += profile.timeDeltas[k] ?? 0;
  if (at - profile.startTime < Number(skip) * 1000) continue;
  hits.set(id, (hits.get(id) ?? 0) + 1);
  kept++;
}
const intervalMs = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
if (kept === 0) throw new Error("no samples left after skip-ms");

/** A frame's label: the function and where it lives, node_modules and the repository root cut short. */
function label(frame: ProfileNode["callFrame"]): string {
  const fn = frame.functionName || "(anonymous)";
  if (!frame.url) return fn;
  let where = frame.url.replace(/^file:\/\//, "");
  const nm = where.lastIndexOf("node_modules/");
  if (nm >= 0) where = where.slice(nm + "node_modules/".length);
  else where = where.replace(/^.*?\/packages\//, "packages/");
  return `${fn} ${where}:${frame.lineNumber + 1}`;
}

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
function build(node: ProfileNode): Frame | null {
  if (node.callFrame.functionName === "(idle)") return null;
  // Merge children of the same label: V8 keeps one node per call site.
  const merged = new Map<string, Frame>();
  for (const id of node.children ?? []) {
    const child = build(byId.get(id) as ProfileNode);
    if (!child) continue;
    const same = merged.get(child.name);
    if (same) {
      same.value += child.value;
      same.children.push(...child.children);
    } else merged.set(child.name, child);
  }
  const self = (hits.get(node.id) ?? 0) * intervalMs;
  const children = [...merged.values()];
  const value = self + children.reduce((a, c) => a + c.value, 0);
  return value > 0 ? { name: label(node.callFrame), value, children } : null;
}
const root = build(profile.nodes[0] as ProfileNode) ?? { name: "(root)", value: 0, children: [] };
root.name = `${title} — ${root.value.toFixed(0)} ms busy CPU`;
// Frames under 0.5 % of the total are left out (their time stays in their parent's width): they
// would be under a pixel wide, and the thousands of them make the drawing slow.
const floor = root.value / 200;
const prune = (f: Frame): Frame => ({
  ...f,
  children: f.children.filter((c) => c.value >= floor).map(prune),
});
const drawn = prune(root);

const require = createRequire(import.meta.url);
// The d3 packages' exports maps hide their UMD bundles: found beside d3-flame-graph's, which npm
// installs next to it.
const modules = join(dirname(require.resolve("d3-flame-graph")), "..", "..");
const dist = (pkg: string, file: string) => join(modules, pkg, "dist", file);
// UMD bundles in dependency order; each adds itself to the global d3.
const scripts = [
  "d3-array",
  "d3-color",
  "d3-dispatch",
  "d3-ease",
  "d3-format",
  "d3-interpolate",
  "d3-hierarchy",
  "d3-selection",
  "d3-time",
  "d3-time-format",
  "d3-timer",
  "d3-scale",
  "d3-transition",
].map((m) => dist(m, `${m}.min.js`));
const css = readFileSync(dist("d3-flame-graph", "d3-flamegraph.css"), "utf8");

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1800, height: 1000 } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.setContent(
    `<!doctype html><html><head><style>${css}</style></head><body><div id="chart"></div></body></html>`,
  );
  for (const path of scripts) await page.addScriptTag({ path });
  await page.addScriptTag({ path: dist("d3-flame-graph", "d3-flamegraph.umd.min.js") });
  console.error("drawing", JSON.stringify(drawn).length, "bytes of frames");
  const svg = await page.evaluate(async (data) => {
    const w = window as unknown as {
      d3: { select(s: string): { datum(d: unknown): { call(c: unknown): void } } };
      flamegraph: { default(): unknown };
    };
    const chart = w.flamegraph.default() as unknown as {
      width(n: number): typeof chart;
      cellHeight(n: number): typeof chart;
      transitionDuration(n: number): typeof chart;
      minFrameSize(n: number): typeof chart;
      sort(b: boolean): typeof chart;
    };
    chart.width(1800).cellHeight(16).transitionDuration(0).minFrameSize(1).sort(true);
    w.d3.select("#chart").datum(data).call(chart);
    // Widths and positions are set by a d3 transition, on the next animation frames even at 0 ms.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const el = document.querySelector("#chart svg") as SVGSVGElement;
    el.setAttribute("xmlns", "http://www.w3.org/2000/svg");
    return el.outerHTML;
  }, drawn);
  // The stylesheet inside the SVG, so it renders alike outside this page; a <title> naming the
  // chart (screen readers, and the file's own label), and a generic fallback after Verdana.
  const styled = css.replace(/font-family:\s*Verdana/g, "font-family:Verdana,sans-serif");
  const name = title.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  writeFileSync(
    output,
    svg
      .replace(/font-family:\s*Verdana/g, "font-family:Verdana,sans-serif")
      .replace(/^<svg([^>]*)>/, `<svg$1><title>${name}</title><style>${styled}</style>`),
  );
} finally {
  await browser.close();
}
