// The operation table, read from the OpenAPI document: which operation a method and path name,
// or why none does (404 unknown path, 405 with the path's methods in `Allow`).
import { methodNotAllowed } from "@oisr/contract";
import { notFound } from "./problem.ts";

export interface SpecParameter {
  name: string;
  in: "query" | "header" | "path" | "cookie";
  required?: boolean;
  schema?: Record<string, unknown>;
}

export interface Operation {
  operationId: string;
  method: string;
  /** The spec's path template, e.g. `/orders/{identifier}`. */
  path: string;
  parameters: SpecParameter[];
  /** The JSON schema of an `application/json` request body, if the operation takes one. */
  bodySchema: Record<string, unknown> | undefined;
  bodyRequired: boolean;
  /** No `Authorization` needed (`security: []`). */
  public: boolean;
}

interface Route {
  template: string;
  pattern: RegExp;
  names: string[];
  operations: Map<string, Operation>;
}

export interface Matched {
  operation: Operation;
  params: Record<string, string>;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

type Doc = {
  paths: Record<string, Record<string, unknown>>;
  components?: { parameters?: Record<string, SpecParameter> };
};

function deref(doc: Doc, value: unknown): SpecParameter {
  const ref = (value as { $ref?: string }).$ref;
  if (!ref) return value as SpecParameter;
  const name = ref.replace("#/components/parameters/", "");
  const found = doc.components?.parameters?.[name];
  if (!found) throw new Error(`unresolved parameter ${ref}`);
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export class OperationTable {
  readonly #routes: Route[] = [];

  constructor(document: Record<string, unknown>) {
    const doc = document as unknown as Doc;
    for (const [template, item] of Object.entries(doc.paths)) {
      const names: string[] = [];
      const source = template
        .split(/(\{[^}]+\})/)
        .map((part) => {
          const name = /^\{([^}]+)\}$/.exec(part)?.[1];
          if (!name) return escapeRegExp(part);
          names.push(name);
          return "([^/]+)";
        })
        .join("");
      const shared = ((item.parameters as unknown[]) ?? []).map((p) => deref(doc, p));
      const operations = new Map<string, Operation>();
      // Declaration order matters: `Allow` lists the methods as the server's validator does.
      for (const method of Object.keys(item).filter((key) => METHODS.includes(key))) {
        const op = item[method] as Record<string, unknown>;
        const own = ((op.parameters as unknown[]) ?? []).map((p) => deref(doc, p));
        const byKey = new Map<string, SpecParameter>();
        for (const p of [...shared, ...own]) byKey.set(`${p.in}:${p.name}`, p);
        const body = op.requestBody as
          | { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> }
          | undefined;
        operations.set(method.toUpperCase(), {
          operationId: String(op.operationId),
          method: method.toUpperCase(),
          path: template,
          parameters: [...byKey.values()],
          bodySchema: body?.content?.["application/json"]?.schema,
          bodyRequired: body?.required === true,
          public: Array.isArray(op.security) && op.security.length === 0,
        });
      }
      this.#routes.push({ template, pattern: new RegExp(`^${source}$`), names, operations });
    }
  }

  /** The route of a path relative to the base URL (a trailing slash is ignored, as by express). */
  match(method: string, relativePath: string): Matched {
    const path = relativePath.length > 1 ? relativePath.replace(/\/$/, "") : relativePath;
    for (const route of this.#routes) {
      const m = route.pattern.exec(path);
      if (!m) continue;
      const operation = route.operations.get(method);
      if (!operation) {
        // The validator the server uses lists the path's methods in reverse declaration order.
        throw methodNotAllowed(method, [...route.operations.keys()].reverse());
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        const raw = m[i + 1] ?? "";
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          params[name] = raw;
        }
      });
      return { operation, params };
    }
    throw notFound();
  }

  byId(operationId: string): Operation {
    const found = this.all().find((op) => op.operationId === operationId);
    if (!found) throw new Error(`no operation ${operationId}`);
    return found;
  }

  /** Every operation, e.g. to list the paths the mock answers. */
  all(): Operation[] {
    return this.#routes.flatMap((r) => [...r.operations.values()]);
  }
}
