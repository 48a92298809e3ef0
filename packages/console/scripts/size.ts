// The console's first-load budget: the JavaScript and CSS that /console's page loads before it can
// show anything (what index.html references, and what those scripts import statically), compressed
// as the server sends them. Budget: 150 kB compressed, checked on gzip (larger than brotli, and
// what a client without brotli gets). `npm run size -w @oisr/console` prints the figures; the
// package's tests (test/bundle.test.ts) fail above the budget.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const BUDGET_BYTES = 150_000;
export const APP_DIR = fileURLToPath(new URL("../dist/app/", import.meta.url));

export interface FirstLoad {
  files: string[];
  raw: number;
  gzip: number;
  brotli: number;
}

/** Files under /console/ that the page loads first, in the order found. */
export function firstLoadFiles(dir = APP_DIR): string[] {
  const html = readFileSync(`${dir}index.html`, "utf8");
  const files = [...html.matchAll(/(?:src|href)="\/console\/([^"]+\.(?:js|css))"/g)].map(
    (m) => m[1] as string,
  );
  // Static imports between chunks (`from"./x.js"` in Vite's output) load before the entry runs.
  for (let i = 0; i < files.length; i++) {
    const name = files[i] as string;
    if (!name.endsWith(".js")) continue;
    const code = readFileSync(`${dir}${name}`, "utf8");
    for (const m of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w{}\s,*$]+from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      const dep = `assets/${m[1]}`;
      if (!files.includes(dep)) files.push(dep);
    }
  }
  return files;
}

export function firstLoad(dir = APP_DIR): FirstLoad {
  const files = firstLoadFiles(dir);
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  for (const name of files) {
    const body = readFileSync(`${dir}${name}`);
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
    brotli += brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }).length;
  }
  return { files, raw, gzip, brotli };
}

const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = firstLoad();
  process.stdout.write(
    `console first load: ${result.files.join(", ")}\n` +
      `  raw ${kB(result.raw)}, gzip ${kB(result.gzip)}, brotli ${kB(result.brotli)} (budget ${kB(BUDGET_BYTES)} compressed)\n`,
  );
  if (result.gzip > BUDGET_BYTES) process.exitCode = 1;
}
