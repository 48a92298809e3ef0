import { defineConfig } from "vitest/config";

// `vitest run` runs both projects; `--project unit` only the fast unit tests (fetch injected).
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["src/**/*.test.ts"] } },
      "./test/integration/vitest.config.ts",
    ],
  },
});
