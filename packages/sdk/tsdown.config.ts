import { defineConfig } from "tsdown";

export default defineConfig({
  entry: ["src/index.ts"],
  // ESM for bundlers, browsers, Deno, Bun and Node; CJS for `require` in older Node tooling.
  format: ["esm", "cjs"],
  // No Node built-ins, no Node-only globals: the same files run in browsers and edge runtimes.
  platform: "neutral",
  target: "es2022",
  // TypeScript emits no declarations for a .ts file it reached through node_modules (the workspace
  // link), so contract modules whose types are bundled are mapped to their sources. The SDK takes
  // such modules by subpath: the package's index would also bring Ajv into the bundle.
  dts: { compilerOptions: { paths: { "@oisr/contract/rate-limits": ["../contract/src/rate-limits.ts"] } } },
  // openapi-fetch stays a dependency (see README "Contributing"), not bundled. @oisr/contract is
  // private: the spec's types (and what the SDK uses of the contract) ship inside this package.
  deps: { alwaysBundle: [/^@oisr\/contract/] },
  clean: true,
});
