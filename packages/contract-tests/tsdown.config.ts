import { readdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { defineConfig } from "tsdown";
import { REPOSITORY_ONLY } from "./src/kit/areas.ts";

// The suite as shipped: every test/*.test.ts an HTTP-only run can satisfy, one bundle per area
// (dist/suite/<area>.js), with src/targets.ts (OISR's own server and mock) replaced by the kit's
// targets. A test file added to test/ is shipped without a change here.
const areas = readdirSync("test")
  .filter((file) => file.endsWith(".test.ts"))
  .map((file) => file.slice(0, -".test.ts".length))
  .filter((area) => !REPOSITORY_ONLY.has(area));

const ownTargets = resolve("src/targets.ts");
const kitTargets = {
  name: "oisr-kit-targets",
  resolveId(source: string, importer: string | undefined) {
    if (importer && resolve(dirname(importer), source) === ownTargets) return resolve("src/kit/targets.ts");
    return null;
  },
};

export default defineConfig([
  {
    // The library (ESM and CJS) and the bin.
    entry: { index: "src/index.ts", cli: "src/kit/cli.ts" },
    format: ["esm", "cjs"],
    platform: "node",
    target: "node20",
    dts: true,
    deps: { neverBundle: [/^vitest/, /^node:/] },
    fixedExtension: false,
    clean: true,
  },
  {
    entry: Object.fromEntries(areas.map((area) => [`suite/${area}`, `test/${area}.test.ts`])),
    format: ["esm"],
    platform: "node",
    target: "node20",
    dts: false,
    plugins: [kitTargets],
    // @oisr/contract and @oisr/domain are private: what the suite uses of them ships inside it.
    deps: { alwaysBundle: [/^@oisr\//], neverBundle: [/^vitest/, /^node:/, "fast-check", "postgres"] },
    outputOptions: { chunkFileNames: "suite/chunks/[name]-[hash].js" },
    fixedExtension: false,
    clean: false,
  },
]);
