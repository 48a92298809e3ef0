// Two builds from one source (package.json "build"):
// - `--mode app`  → dist/app: index.html + the console, what the server serves at /console;
// - `--mode mock` → dist/mock: mock.html + the console + @oisr/mock-server's MSW worker and msw's
//   service worker script, what `oisr-mock --console` serves. The app build never imports the
//   mock, so the server's bundle carries none of it (test/bundle.test.ts checks).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const require = createRequire(import.meta.url);

/** msw's service worker script, beside mock.html (its scope is the page's directory). */
function mswWorkerScript(): Plugin {
  return {
    name: "oisr-msw-worker-script",
    generateBundle() {
      this.emitFile({
        type: "asset",
        fileName: "mockServiceWorker.js",
        source: readFileSync(require.resolve("msw/mockServiceWorker.js")),
      });
    },
  };
}

export default defineConfig(({ mode }) => {
  const mock = mode === "mock";
  return {
    root: "src",
    // Both are served under /console/ (the server's route, the mock's too).
    base: "/console/",
    publicDir: false,
    oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
    build: {
      outDir: mock ? "../dist/mock" : "../dist/app",
      emptyOutDir: true,
      target: "es2022",
      // No inline <script> or data: module preloads: the page's CSP is script-src 'self'.
      modulePreload: { polyfill: false },
      assetsInlineLimit: 0,
      rollupOptions: {
        input: fileURLToPath(new URL(mock ? "src/mock.html" : "src/index.html", import.meta.url)),
      },
    },
    plugins: mock ? [mswWorkerScript()] : [],
  };
});
