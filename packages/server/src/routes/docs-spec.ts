// The spec as /docs shows it. Scalar (@scalar/api-reference 1.46) checks the document against its own
// schema, which takes a schema object only with a `type` (or a `$ref`): a nullable reference written
// the OpenAPI 3.1 way, `oneOf: [{$ref: …}, {type: "null"}]`, is valid but draws "document validation
// errors" in the browser console (Order, Return, Disposition, RequestRecord). This copy states the
// `type` such a composition already implies (`[object, null]`, …), which changes no meaning.
// Its `servers` (the document's, and those of /healthz and /readyz) lose their origin
// (`http://localhost:8080/v2` becomes `/v2`): Scalar resolves them against the page's origin, so
// code samples and "Test Request" go to the server the page came from.
// /v2/openapi.json stays exactly the spec.

type Json = unknown;
type Node = Record<string, Json>;

const isNode = (value: Json): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Keys whose values are data (examples, defaults), not schemas: never rewritten. */
const DATA_KEYS = new Set(["example", "examples", "default", "const", "enum", "x-examples"]);

const JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;

function typeOfValue(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** `http://localhost:8080/v2` → `/v2`, `http://localhost:8080` → `/`; relative URLs stay. */
function relativeServer(server: Json): void {
  if (!isNode(server) || typeof server.url !== "string") return;
  const path = server.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "");
  server.url = path.replace(/\/+$/, "") || "/";
}

export function docsSpec<T>(spec: T): T {
  const copy = structuredClone(spec);
  const schemas = isNode(copy) && isNode(copy.components) ? copy.components.schemas : undefined;
  const resolving = new Set<string>();

  /** The JSON types a schema allows, when they can be told from it; undefined otherwise. */
  const typesOf = (schema: Json): string[] | undefined => {
    if (!isNode(schema)) return undefined;
    if (typeof schema.type === "string") return [schema.type];
    if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === "string");
    if (typeof schema.$ref === "string") {
      const name = /^#\/components\/schemas\/([^/]+)$/.exec(schema.$ref)?.[1];
      if (!name || !isNode(schemas) || resolving.has(name)) return undefined;
      resolving.add(name);
      try {
        return typesOf(schemas[decodeURIComponent(name)]);
      } finally {
        resolving.delete(name);
      }
    }
    if ("const" in schema) return [typeOfValue(schema.const)];
    if (Array.isArray(schema.enum)) return [...new Set(schema.enum.map(typeOfValue))];
    return impliedTypes(schema);
  };

  /** Types implied by oneOf/anyOf (the union of the branches) or allOf (their intersection). */
  const impliedTypes = (schema: Node): string[] | undefined => {
    for (const key of ["oneOf", "anyOf"] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const types = branches.map(typesOf);
      if (types.some((t) => t === undefined)) return undefined;
      return normalise(types.flat() as string[]);
    }
    if (Array.isArray(schema.allOf)) {
      const known = schema.allOf.map(typesOf).filter((t): t is string[] => t !== undefined);
      if (known.length === 0) return undefined;
      return normalise(known.reduce((a, b) => a.filter((t) => b.includes(t))));
    }
    return undefined;
  };

  const normalise = (types: string[]): string[] => {
    const set = new Set(types);
    if (set.has("number")) set.delete("integer");
    return JSON_TYPES.filter((t) => set.has(t));
  };

  const visit = (value: Json, parentKey?: string): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isNode(value)) return;
    // Under `properties` and `schemas`, keys are names: a property may well be called `default`.
    const named = parentKey === "properties" || parentKey === "schemas";
    for (const [key, child] of Object.entries(value)) if (named || !DATA_KEYS.has(key)) visit(child, key);
    if (!named && Array.isArray(value.servers)) for (const server of value.servers) relativeServer(server);
    const composed = ["oneOf", "anyOf", "allOf"].some((k) => Array.isArray(value[k]));
    if (!composed || "type" in value || "$ref" in value) return;
    const types = impliedTypes(value);
    if (!types || types.length === 0) return;
    value.type = types.length === 1 ? types[0] : types;
  };
  visit(copy);
  return copy;
}
