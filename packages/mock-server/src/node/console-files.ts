// `oisr-mock --console`: the OISR console (the repository's @oisr/console, its `dist/mock` build)
// served under /console/ by the standalone server. The page runs the mock itself, in the browser
// (@oisr/mock-server/browser through msw's service worker, seeded with demo data): its /v2 calls
// never reach this process. @oisr/console is a private package of the repository, not a
// dependency of this one: it is found beside this package in a clone, and built by the root's
// `npm run build`.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const CONSOLE_PREFIX = "/console";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * The server's /console policy, plus the service worker the page registers and 'unsafe-eval': the
 * mock validates calls with Ajv, which compiles each schema into a function (`new Function`). Only
 * this local page has it; the server's console never runs the mock.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * The console's mock build, or an error saying what to run. Found by the repository's layout
 * (packages/console beside packages/mock-server, from this file in src/node/ or in dist/), not
 * resolved as a package: the console is private, and a published package may not import one.
 */
export function findConsoleBuild(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const candidate = join(dir, "console");
    if (!existsSync(join(candidate, "vite.config.ts"))) continue;
    const build = join(candidate, "dist", "mock");
    if (!existsSync(join(build, "mock.html")))
      throw new Error(
        `--console: the console is not built (no ${build}/mock.html): run \`npm run build\` at the repository root.`,
      );
    return build;
  }
  throw new Error(
    "--console needs the OISR repository: clone it, then `npm ci && npm run build` at its root (the console is not published).",
  );
}

/** Answers a GET under /console/ from `dir`, or undefined when the path is not the console's. */
export async function consoleResponse(dir: string, pathname: string): Promise<Response | undefined> {
  if (pathname !== CONSOLE_PREFIX && !pathname.startsWith(`${CONSOLE_PREFIX}/`)) return undefined;
  // The service worker's scope is the page's directory: the page must be /console/, not /console.
  if (pathname === CONSOLE_PREFIX)
    return new Response(null, { status: 308, headers: { location: `${CONSOLE_PREFIX}/` } });
  const name = pathname.slice(CONSOLE_PREFIX.length + 1) || "mock.html";
  const file = normalize(join(dir, decodeURIComponent(name)));
  if (!file.startsWith(dir + sep) || !existsSync(file)) return undefined;
  const headers: Record<string, string> = {
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    // Hashed asset names never change; the page and the worker script are revalidated.
    "cache-control": name.startsWith("assets/") ? "public, max-age=31536000, immutable" : "no-cache",
  };
  return new Response(new Uint8Array(await readFile(file)), { status: 200, headers });
}
