// Finds files shipped beside the code whether it runs from src/ (tests, development) or from the
// bundle in dist/: walks up from this module until the relative path exists.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export function locate(relative: string, from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error(`cannot find ${relative} above ${from}`);
  }
}
