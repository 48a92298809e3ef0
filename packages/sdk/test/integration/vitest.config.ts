import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The SDK against the real server, started in-process (PGlite; PostgreSQL too with DATABASE_URL).
export default defineConfig({
  test: {
    name: "integration",
    root: fileURLToPath(new URL("../..", import.meta.url)),
    include: ["test/integration/**/*.test.ts"],
    // Starting a server (migrations included) takes seconds; polling waits for the worker.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
