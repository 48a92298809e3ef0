// Where the suite's files are: dist/suite/*.js in the package (bundled from test/*.test.ts by
// tsdown.config.ts), or test/*.test.ts when the kit runs from the repository's sources.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { REPOSITORY_ONLY } from "./areas.ts";
import { areaName } from "./results.ts";

export interface Suite {
  root: string;
  /** Area name → file name inside `root`. */
  files: Map<string, string>;
}

export function locateSuite(): Suite {
  const shipped = fileURLToPath(new URL("./suite/", import.meta.url));
  if (existsSync(shipped)) return { root: shipped, files: list(shipped, /^[^/]+\.js$/) };
  const sources = fileURLToPath(new URL("../../test/", import.meta.url));
  return { root: sources, files: list(sources, /\.test\.ts$/) };
}

function list(dir: string, pattern: RegExp): Map<string, string> {
  const files = new Map<string, string>();
  for (const file of readdirSync(dir).sort()) {
    if (!pattern.test(file)) continue;
    const area = areaName(file);
    if (!REPOSITORY_ONLY.has(area)) files.set(area, file);
  }
  return files;
}
