import { defineConfig } from "vitest/config";

// `vitest run` runs every project; `--project unit` only the fast unit tests (fetch injected);
// `--project types` only the type tests (test/*.test-d.ts: the public types against the spec),
// which tsc checks with test/tsconfig.json (it must include them, or nothing would be checked).
export default defineConfig({
  test: {
    projects: [
      { test: { name: "unit", include: ["src/**/*.test.ts"] } },
      "./test/integration/vitest.config.ts",
      {
        test: {
          name: "types",
          include: [],
          typecheck: {
            enabled: true,
            only: true,
            include: ["test/**/*.test-d.ts"],
            tsconfig: "test/tsconfig.json",
          },
        },
      },
    ],
  },
});
