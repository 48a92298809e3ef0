import { defineConfig } from "tsdown";

export default defineConfig({
  // The main and browser entries run anywhere (no Node built-ins); node adds msw/node and
  // node:http; cli is the `oisr-mock` bin. One build, so they share one chunk of the mock.
  entry: {
    index: "src/index.ts",
    node: "src/node/index.ts",
    browser: "src/browser/index.ts",
    cli: "src/cli.ts",
  },
  format: ["esm", "cjs"],
  platform: "neutral",
  target: "es2022",
  // TypeScript emits no declarations for a .ts file it reached through node_modules (the workspace
  // link), so the contract module whose types the mock's public types use is mapped to its source.
  dts: { compilerOptions: { paths: { "@oisr/contract/rate-limits": ["../contract/src/rate-limits.ts"] } } },
  // @oisr/domain is private: its rules (and the spec's types) ship inside this package. msw is a peer.
  deps: { alwaysBundle: [/^@oisr\/(domain|contract)/], neverBundle: [/^node:/] },
  fixedExtension: false,
  clean: true,
});
