// What /docs shows before its renderer runs: the API's title, its first paragraph and every
// operation (method, path, summary) grouped by tag, as plain HTML built from the spec on the
// server. Scalar's bundle is 3.5 MB of JavaScript; while the page waited for it, the main pane
// stayed blank for 3–5 s on an idle machine (9–22 s on a busy one). With this outline in the page
// the first paint needs only the HTML; the renderer replaces the outline when it mounts.
import { escapeHtml } from "@oisr/contract";
import type { OpenApiDocument } from "../spec.ts";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

interface Operation {
  method: string;
  path: string;
  summary: string;
}

/** The few fields of an OpenAPI document the outline reads; everything else is ignored. */
interface OperationObject {
  summary?: string;
  tags?: string[];
  servers?: unknown[];
}
type PathItem = Partial<Record<(typeof METHODS)[number], OperationObject>> & { servers?: unknown[] };
interface OutlineDocument {
  info?: { title?: string; version?: string; description?: string };
  servers?: { url?: string }[];
  tags?: { name: string }[];
  paths: Record<string, unknown>;
}

function operationsByTag(spec: OutlineDocument): Map<string, Operation[]> {
  const byTag = new Map<string, Operation[]>();
  for (const tag of spec.tags ?? []) byTag.set(tag.name, []);
  const serverPath = (spec.servers?.[0]?.url ?? "").replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  for (const [path, value] of Object.entries(spec.paths)) {
    const item = value as PathItem;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? "Other";
      const list = byTag.get(tag) ?? [];
      // /healthz and /readyz carry their own server (the origin); the rest sit under /v2.
      const prefix = item.servers || operation.servers ? "" : serverPath;
      list.push({ method, path: `${prefix}${path}`, summary: operation.summary ?? "" });
      byTag.set(tag, list);
    }
  }
  return byTag;
}

/** The outline's HTML, shown in the renderer's mount point until the renderer takes it over. */
export function docsOutline(document: OpenApiDocument): string {
  const spec = document as OutlineDocument;
  const title = `${spec.info?.title ?? "API"} ${spec.info?.version ?? ""}`.trim();
  const firstParagraph = (spec.info?.description ?? "").split(/\n\s*\n/)[0]?.replace(/\s+/g, " ") ?? "";
  const sections = [...operationsByTag(spec)]
    .filter(([, operations]) => operations.length > 0)
    .map(
      ([tag, operations]) =>
        `<h2>${escapeHtml(tag)}</h2><ul>${operations
          .map(
            (o) =>
              `<li><code>${o.method.toUpperCase()} ${escapeHtml(o.path)}</code> ${escapeHtml(o.summary)}</li>`,
          )
          .join("")}</ul>`,
    )
    .join("");
  return `<main data-docs-outline style="max-width:60rem;margin:0 auto;padding:1rem 1.5rem;font:16px/1.5 system-ui,sans-serif">
<h1>${escapeHtml(title)}</h1><p>${escapeHtml(firstParagraph)}</p><p role="status">Loading the interactive reference…</p>${sections}</main>`;
}
