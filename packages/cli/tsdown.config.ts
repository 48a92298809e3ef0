import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { oisr: "src/bin.ts" },
  format: ["esm"],
  platform: "node",
  target: "node20",
  // A command, not a library: no declarations to publish.
  dts: false,
  // @oisr/contract is private: the request validator the API runs ships inside the command.
  deps: { alwaysBundle: [/^@oisr\/contract/] },
  clean: true,
});
