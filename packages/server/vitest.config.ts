import { defineConfig } from "vitest/config";

// Embedded PostgreSQL (PGlite) takes seconds to start, more so with files running side by side on
// two cores: hooks get a generous timeout.
export default defineConfig({
  test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 60_000 },
});
