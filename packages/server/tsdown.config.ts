import { defineConfig } from "tsdown";

// The server runs from a build in production: Node's runtime type stripping keeps its compiler's
// WebAssembly memory for the life of the process (~200 MB), and one bundled file loads faster.
export default defineConfig({
  entry: ["src/main.ts", "src/index.ts"],
  platform: "node",
  target: "node20",
  format: "esm",
  outDir: "dist",
  dts: false,
  sourcemap: true,
  // Bundle the workspace packages, and drizzle-orm: linking its ~450-module ESM graph at start-up
  // grows the V8 heap by ~170 MB that is never given back; bundled and tree-shaken it costs little.
  // Other npm dependencies stay external.
  noExternal: [/^@oisr\//, /^drizzle-orm/],
});
