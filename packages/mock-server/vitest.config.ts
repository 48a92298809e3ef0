import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Unit tests next to the code, behaviour tests (through HTTP, msw and the bin) under test/.
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Type tests (the route table against the spec), checked by tsc alongside the run.
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
