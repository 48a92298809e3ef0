// The builds themselves: the first load within budget, the server's build free of the mock, and
// pages whose only scripts are files of this origin (the CSP allows no inline script).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { APP_DIR, BUDGET_BYTES, firstLoad } from "../scripts/size.ts";

const MOCK_DIR = fileURLToPath(new URL("../dist/mock/", import.meta.url));
const allFiles = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));

describe("the console's builds", () => {
  it(`loads at most ${BUDGET_BYTES / 1000} kB of compressed JavaScript and CSS first`, () => {
    const result = firstLoad();
    console.log(
      `console first load: gzip ${(result.gzip / 1000).toFixed(1)} kB, brotli ${(result.brotli / 1000).toFixed(1)} kB (${result.files.join(", ")})`,
    );
    expect(result.files.some((f) => f.endsWith(".js"))).toBe(true);
    expect(result.files.some((f) => f.endsWith(".css"))).toBe(true);
    expect(result.gzip).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it("serves none of the mock to the server (dist/app)", () => {
    for (const file of allFiles(APP_DIR)) {
      const text = readFileSync(file, "utf8");
      for (const word of ["mockServiceWorker", "setupMockWorker", "msw", "failNext"])
        expect(text).not.toContain(word);
    }
  });

  it("puts the mock, msw's worker script and the seed in dist/mock", () => {
    const names = allFiles(MOCK_DIR).map((f) => f.slice(MOCK_DIR.length));
    expect(names).toContain("mock.html");
    expect(names).toContain("mockServiceWorker.js");
    const code = names
      .filter((n) => n.endsWith(".js"))
      .map((n) => readFileSync(`${MOCK_DIR}${n}`, "utf8"))
      .join("\n");
    expect(code).toContain("RMA-2002");
  });

  it.each([
    ["app", `${APP_DIR}index.html`],
    ["mock", `${MOCK_DIR}mock.html`],
  ])("the %s page has no inline script or style", (_name, path) => {
    const html = readFileSync(path, "utf8");
    for (const tag of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
      expect(tag[0]).toMatch(/src="\/console\//);
      expect(tag[1]?.trim()).toBe("");
    }
    expect(html).not.toMatch(/<style\b|\sstyle="/);
  });
});
