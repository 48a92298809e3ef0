// GET /console: the web console (@oisr/console's `dist/app`, built by turbo before the server),
// served from this origin like /docs: each file read and compressed once (brotli and gzip, on the
// thread pool), sent by Accept-Encoding with a strong ETag. The page revalidates on every load; its
// assets carry a content hash in their names (Vite's), so they are cached for a year. The page
// talks to /v2 on this origin only, and its Content-Security-Policy enforces that: no inline
// script or style, no other origin (docs/decisions/015-console.md).
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, extname, join, relative, sep } from "node:path";
import { serviceUnavailable } from "@oisr/contract";
import { type NextFunction, type Request, type Response, Router } from "express";
import { sendProblem } from "../http/problem.ts";
import { type Asset, createAsset, sendAsset } from "./docs-assets.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "application/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json; charset=utf-8",
};

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  // The page's favicon is `data:,` (no request at all).
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

interface ConsoleAssets {
  page: Asset;
  /** By path under /console/ (e.g. `assets/index-Cu-BVBSQ.js`). */
  files: Map<string, Asset>;
}

/** dist/app of @oisr/console, or undefined when the package (or its build) is not there. */
function distDir(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve("@oisr/console/package.json");
    return join(dirname(manifest), "dist", "app");
  } catch {
    return undefined;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

// Read on the first request to /console (most servers never serve it), then shared by every
// server of the process. A failed read (no build yet) is retried on the next request.
let assets: Promise<ConsoleAssets> | undefined;

function consoleAssets(): Promise<ConsoleAssets> {
  assets ??= (async () => {
    const dir = distDir();
    if (!dir) throw new Error("@oisr/console is not installed");
    const files = new Map<string, Asset>();
    for (const path of await listFiles(dir)) {
      const name = relative(dir, path).split(sep).join("/");
      const type = TYPES[extname(name)] ?? "application/octet-stream";
      files.set(name, createAsset(await readFile(path), type));
    }
    const page = files.get("index.html");
    if (!page) throw new Error(`no index.html in ${dir}`);
    files.delete("index.html");
    return { page, files };
  })();
  assets.catch(() => {
    assets = undefined;
  });
  return assets;
}

const NOT_BUILT =
  "The console is not built: run `npm run build` (or `npm start`) at the repository root, which builds @oisr/console before the server.";

export function consoleRoutes(): Router {
  const router = Router();
  const page = async (req: Request, res: Response) => {
    let all: ConsoleAssets;
    try {
      all = await consoleAssets();
    } catch {
      sendProblem(res, serviceUnavailable(NOT_BUILT, 60));
      return;
    }
    res.set({ "Content-Security-Policy": CONSOLE_CSP, "Referrer-Policy": "no-referrer" });
    await sendAsset(req, res, all.page, { immutable: false });
  };
  router.get(["/console", "/console/"], (req, res, next) => {
    page(req, res).catch(next);
  });
  router.get("/console/*path", (req: Request, res: Response, next: NextFunction) => {
    consoleAssets()
      .then(async (all) => {
        const name = req.path.slice("/console/".length);
        const asset = all.files.get(name);
        if (!asset) return next();
        res.set("Content-Security-Policy", CONSOLE_CSP);
        // Vite names every asset after its content's hash: the URL never serves other bytes.
        await sendAsset(req, res, asset, { immutable: name.startsWith("assets/") });
      })
      .catch(() => next());
  });
  return router;
}
