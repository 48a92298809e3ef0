import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { oisr: "src/bin.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  // A command, not a library: no declarations to publish.
  dts: false,
  clean: true,
});
