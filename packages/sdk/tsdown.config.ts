import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts"],
  // ESM for bundlers, browsers, Deno, Bun and Node; CJS for `require` in older Node tooling.
  format: ["esm", "cjs"],
  // No Node built-ins, no Node-only globals: the same files run in browsers and edge runtimes.
  platform: "neutral",
  target: "es2022",
  dts: true,
  // openapi-fetch stays a dependency (see README "Contributing"), not bundled. @oisr/contract is
  // private: the spec's types (and what the SDK uses of the contract) ship inside this package.
  deps: { alwaysBundle: [/^@oisr\/contract/] },
  clean: true,
});
