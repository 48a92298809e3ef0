// Optional CPU profiles of server processes: BENCH_PROFILE=<dir> makes startOisr/startOisrWorker
// callers pass `profileEnv(name)`, and `summarizeProfiles(dir)` prints where the time went.
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const PROFILE_DIR = process.env.BENCH_PROFILE;

/** NODE_OPTIONS for a server process when profiling is on; nothing otherwise. */
export function profileEnv(name: string): Record<string, string> {
  return PROFILE_DIR ? profileEnvIn(PROFILE_DIR, name) : {};
}

/** NODE_OPTIONS that make a Node.js process write a CPU profile into `dir` when it exits. */
export function profileEnvIn(dir: string, name: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  return {
    NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir} --cpu-prof-name=${name}-\${pid}.cpuprofile`,
  };
}

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

/** Where a frame's code lives: a dependency's package name, the server bundle, node internals… */
function area(url: string): string {
  if (!url) return "(native / GC / idle)";
  const nm = url.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = url.slice(nm + "node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] as string);
  }
  if (url.startsWith("node:")) return "node: core";
  if (url.includes("/packages/server/")) return "@oisr/server (dist)";
  if (url.includes("/packages/domain/")) return "@oisr/domain";
  return url.replace(/^file:\/\//, "");
}

/** Now on the clock V8 stamps profile samples with (CLOCK_MONOTONIC, µs), comparable across processes. */
export const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Self time by code area and the top functions, for every profile in `dir` whose name starts with
 * `prefix`; with `window` (monotonicUs() values), only the samples taken inside it.
 */
export function summarizeProfiles(
  dir: string,
  prefix: string,
  top = 15,
  window?: { fromUs: number; toUs: number },
): string {
  const out: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.startsWith(prefix) && f.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as {
      nodes: Node[];
      startTime: number;
      endTime: number;
      samples: number[];
      timeDeltas: number[];
    };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    // Keep only the samples inside the window (timeDeltas accumulate from startTime).
    let t = profile.startTime;
    const keep = profile.samples.map((_, i) => {
      t += profile.timeDeltas[i] ?? 0;
      return !window || (t >= window.fromUs && t <= window.toUs);
    });
    const self = new Map<number, number>();
    profile.samples.forEach((id, i) => {
      if (keep[i]) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
    });
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    const areas = new Map<string, number>();
    const fns = new Map<string, number>();
    let idle = 0;
    for (const [id, us] of self) {
      const n = byId.get(id) as Node;
      const name = n.callFrame.functionName || "(anonymous)";
      if (name === "(idle)") {
        idle += us;
        continue;
      }
      const a = name === "(garbage collector)" ? "(garbage collector)" : area(n.callFrame.url);
      areas.set(a, (areas.get(a) ?? 0) + us);
      const key = `${name} ${n.callFrame.url ? `${area(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : ""}`;
      fns.set(key, (fns.get(key) ?? 0) + us);
    }
    const busy = total - idle;
    // Inclusive time of our own functions (server and domain): each sample counted once per name.
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const inclusive = new Map<string, number>();
    profile.samples.forEach((id, i) => {
      if (!keep[i]) return;
      const names = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const n = byId.get(at) as Node;
        const a = area(n.callFrame.url);
        if ((a === "@oisr/server (dist)" || a === "@oisr/domain") && n.callFrame.functionName)
          names.add(`${n.callFrame.functionName} (${a === "@oisr/domain" ? "domain" : "server"})`);
      }
      for (const name of names)
        inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
    });
    const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)} %`;
    out.push(
      `${file}${window ? " (the measured window only)" : ""}: ${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s on CPU (${((100 * busy) / total).toFixed(0)} %)`,
      "  self time by area (share of on-CPU time):",
      ...[...areas]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([a, us]) => `    ${pct(us)}  ${a}`),
      `  top ${top} functions by self time:`,
      ...[...fns]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([f, us]) => `    ${pct(us)}  ${f}`),
      `  top ${top} server/domain functions by inclusive time:`,
      ...[...inclusive]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([f, us]) => `    ${pct(us)}  ${f}`),
      "",
    );
  }
  return out.join("\n");
}
