// GET /docs: the API reference rendered from the spec by Scalar, served from this process
// (no CDN, no external fonts), so it works offline and behind firewalls.
import { createRequire } from "node:module";
import { Router } from "express";

const require = createRequire(import.meta.url);
const scalarBundle = require.resolve("@scalar/api-reference/browser/standalone.js");

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>OISR Ingest API v2 — reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/scalar.js"></script>
    <script>
      Scalar.createApiReference("#app", {
        url: "/v2/openapi.json",
        withDefaultFonts: false,
        defaultOpenAllTags: true,
        hideClientButton: true,
        telemetry: false,
        showDeveloperTools: "never",
      });
    </script>
  </body>
</html>`;

export function docsRoutes(): Router {
  const router = Router();
  router.get("/docs", (_req, res) => {
    res.type("html").send(PAGE);
  });
  router.get("/docs/scalar.js", (_req, res) => {
    res.sendFile(scalarBundle, { maxAge: "1d", immutable: true });
  });
  return router;
}
