// GET /docs: a plain, self-contained API reference rendered from the document (no scripts, no
// network), so it works offline; the server renders a richer one.

import { escapeHtml } from "@oisr/contract";

const METHODS = ["get", "post", "put", "patch", "delete"];

export function docsPage(document: Record<string, unknown>, basePath: string): string {
  const info = (document.info ?? {}) as { title?: string; version?: string; description?: string };
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const rows: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    const prefix = item.servers ? "" : basePath;
    for (const method of METHODS) {
      const op = item[method] as { operationId?: string; summary?: string; description?: string } | undefined;
      if (!op) continue;
      rows.push(
        `<section id="${escapeHtml(op.operationId ?? "")}"><h3><code>${method.toUpperCase()} ${escapeHtml(prefix + path)}</code> — ${escapeHtml(op.summary ?? "")}</h3><pre>${escapeHtml(op.description ?? "")}</pre></section>`,
      );
    }
  }
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info.title ?? "API")} ${escapeHtml(info.version ?? "")} — reference (mock)</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{white-space:pre-wrap;background:#f6f6f6;padding:.75rem}h3{margin-top:2rem}</style>
</head>
<body>
<h1>${escapeHtml(info.title ?? "API")} <small>${escapeHtml(info.version ?? "")}</small></h1>
<p>Served by <code>@oisr/mock-server</code>. The document itself: <a href="${escapeHtml(basePath)}/openapi.json">${escapeHtml(basePath)}/openapi.json</a>.</p>
<pre>${escapeHtml(info.description ?? "")}</pre>
<h2>Operations</h2>
${rows.join("\n")}
</body>
</html>
`;
}
