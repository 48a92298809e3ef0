import { defineConfig } from "tsdown";

export default defineConfig([
  {
    // The library: the main entry and the browser entry run anywhere (no Node built-ins);
    // the node entry adds msw/node and node:http.
    entry: { index: "src/index.ts", node: "src/node/index.ts", browser: "src/browser/index.ts" },
    format: ["esm", "cjs"],
    platform: "neutral",
    target: "es2022",
    dts: true,
    // @oisr/domain is private: its rules (and types) ship inside this package. msw is a peer.
    deps: { alwaysBundle: [/^@oisr\/domain/], neverBundle: [/^node:/] },
    fixedExtension: false,
    clean: true,
  },
  {
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    platform: "node",
    target: "node20",
    dts: false,
    deps: { alwaysBundle: [/^@oisr\/domain/] },
    fixedExtension: false,
    clean: false,
  },
]);
