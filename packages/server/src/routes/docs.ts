// GET /docs: the API reference rendered from the spec by Scalar, served from this process, so it
// works offline and behind firewalls. The page contacts no other origin (no CDN, fonts, AI agent,
// request proxy or telemetry; its Content-Security-Policy enforces it), and its code samples and
// "Test Request" target the origin the page was served from, not the spec's `servers`.
// The renderer (3.5 MB) and the spec are sent compressed, under versioned URLs cached for a year.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { type NextFunction, type Request, type Response, Router } from "express";
import { loadSpec } from "../spec.ts";
import { type Asset, createAsset, sendAsset } from "./docs-assets.ts";
import { docsOutline } from "./docs-outline.ts";
import { docsSpec } from "./docs-spec.ts";

const require = createRequire(import.meta.url);
const scalarBundle = require.resolve("@scalar/api-reference/browser/standalone.js");

/**
 * Loads the renderer after the first frame has painted the server-rendered outline (a 3.5 MB
 * script in the page would hold the first paint until it has run), then mounts it over the
 * outline. Scalar's configuration:
 * https://guides.scalar.com/scalar/scalar-api-references/configuration
 */
function initScript(scriptUrl: string, specUrl: string): string {
  return `
      const start = () => Scalar.createApiReference("#app", {
        url: ${JSON.stringify(specUrl)},
        // Code samples and "Test Request" go to this server, whatever the spec's servers say.
        servers: [{ url: window.location.origin + "/v2", description: "This server" }],
        baseServerURL: window.location.origin,
        // Nothing that calls another origin: fonts are the system's, no "Ask AI" agent (it calls
        // api.scalar.com through proxy.scalar.com), no request proxy, no telemetry, no developer
        // tools (they share documents through registry.scalar.com), no standalone client button.
        withDefaultFonts: false,
        agent: { disabled: true },
        proxyUrl: "",
        telemetry: false,
        showDeveloperTools: "never",
        hideClientButton: true,
        documentDownloadType: "json",
        defaultOpenAllTags: true,
        // curl first; each operation's @oisr/sdk call and oisr command (the spec's x-codeSamples)
        // are the "Code Examples" of the same menu. Without this the first of those is shown.
        defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
      });
      requestAnimationFrame(() => setTimeout(() => {
        const script = document.createElement("script");
        script.src = ${JSON.stringify(scriptUrl)};
        script.onload = start;
        document.body.append(script);
      }));
    `;
}

function page(scriptUrl: string, outline: string, init: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>OISR Ingest API v2 — reference</title>
    <link rel="icon" href="data:," />
    <link rel="preload" href="${scriptUrl}" as="script" />
  </head>
  <body>
    <div id="app">${outline}</div>
    <script>${init}</script>
  </body>
</html>`;
}

/**
 * Only this origin, for everything. Scalar injects its styles at run time (inline styles) and shows
 * inline SVG and data: images; the page's one inline script is allowed by its hash.
 */
function contentSecurityPolicy(init: string): string {
  const hash = createHash("sha256").update(init).digest("base64");
  return [
    "default-src 'self'",
    `script-src 'self' 'sha256-${hash}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join("; ");
}

interface DocsAssets {
  scalar: Asset;
  spec: Asset;
  page: Asset;
  csp: string;
}

// Built on the first request to /docs (most servers never serve it), then shared by every server
// of the process; the compression itself runs on the thread pool, off the event loop.
let assets: Promise<DocsAssets> | undefined;

function docsAssets(): Promise<DocsAssets> {
  assets ??= (async () => {
    const scalar = createAsset(await readFile(scalarBundle), "application/javascript; charset=utf-8");
    const spec = createAsset(
      Buffer.from(JSON.stringify(docsSpec(loadSpec()))),
      "application/json; charset=utf-8",
    );
    const scriptUrl = `/docs/scalar.js?v=${scalar.version}`;
    const init = initScript(scriptUrl, `/docs/openapi.json?v=${spec.version}`);
    const html = page(scriptUrl, docsOutline(loadSpec()), init);
    // Start compressing what the page loads next, so it is ready when the browser asks.
    for (const asset of [scalar, spec])
      for (const encoding of ["br", "gzip"] as const) asset.encoded(encoding).catch(() => undefined);
    return {
      scalar,
      spec,
      page: createAsset(Buffer.from(html), "text/html; charset=utf-8"),
      csp: contentSecurityPolicy(init),
    };
  })();
  assets.catch(() => {
    assets = undefined;
  });
  return assets;
}

function serve(pick: (a: DocsAssets) => Asset, headers?: (a: DocsAssets) => Record<string, string>) {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const all = await docsAssets();
      const asset = pick(all);
      if (headers) res.set(headers(all));
      // A URL with the content's version never changes; without it (or with an old one) the
      // browser revalidates with the ETag.
      await sendAsset(req, res, asset, { immutable: req.query.v === asset.version });
    } catch (error) {
      next(error);
    }
  };
}

export function docsRoutes(): Router {
  const router = Router();
  router.get(
    "/docs",
    serve(
      (a) => a.page,
      (a) => ({ "Content-Security-Policy": a.csp, "Referrer-Policy": "no-referrer" }),
    ),
  );
  router.get(
    "/docs/scalar.js",
    serve((a) => a.scalar),
  );
  router.get(
    "/docs/openapi.json",
    serve((a) => a.spec),
  );
  return router;
}
