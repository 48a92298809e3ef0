import { defineConfig } from "vitest/config";

// Checks of the built package (run `npm run build` first): `npm run test:dist`.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["test/dist.test.ts"],
  },
});
