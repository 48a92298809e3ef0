import { defineConfig } from "vitest/config";

// Embedded PostgreSQL (PGlite) takes seconds to start, more so with files running side by side on
// two cores: hooks get a generous timeout. `*.test-d.ts` files are type tests (the handler types
// against the spec), checked by tsc alongside the run.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
