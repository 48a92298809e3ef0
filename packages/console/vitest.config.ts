import { defineConfig } from "vitest/config";

// Unit tests next to the code; the built console in a real browser (against the mock) and its
// size budget under test/. The browser tests drive chromium on a shared two-core machine: long
// timeouts, one file at a time.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
  },
});
