import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores, and the PostgreSQL tests spawn server processes: one file at a time.
    fileParallelism: false,
  },
});
