import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Unit tests next to the code, behaviour tests (through HTTP, msw and the bin) under test/.
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
  },
});
