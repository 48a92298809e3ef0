// Integer query parameters (`limit`, the only one) are written in decimal digits (issue 25). Both
// the server's validator (express-openapi-validator) and the mock check parameters with Ajv, which
// turns a query string into an integer with JavaScript's Number: `0x10` would be 16, `1e1` 10,
// `0b11` 3, and `+5`, ` 5`, `5.0` 5. Neither lets that coercion be changed, so the values it would
// misread are taken from it first: a value that is not decimal digits is replaced by one Number
// cannot read, and Ajv refuses it as it refuses `limit=ten` (`type`, "must be integer"), at
// `/query/{name}`, among the call's other errors, after an unknown path or parameter as before.
// Leading zeros are decimal digits: `007` is 7 on both targets.
import type { OpenApiDocument } from "./spec.ts";

const DECIMAL_DIGITS = /^[0-9]+$/;

/** Whether a query value is written as an integer parameter must be: ASCII decimal digits only. */
export const isDecimalInteger = (text: string): boolean => DECIMAL_DIGITS.test(text);

/** What a non-decimal value is replaced by before Ajv sees it: text Number reads as NaN. */
export const NOT_DECIMAL_PREFIX = "not decimal: ";

type Json = Record<string, unknown>;

function resolve(document: OpenApiDocument, node: unknown): Json | undefined {
  let value = node;
  // Local refs only (`#/components/...`), as the spec uses; a bounded walk in case of a cycle.
  for (let hops = 0; hops < 8 && value !== null && typeof value === "object"; hops++) {
    const ref = (value as Json).$ref;
    if (typeof ref !== "string") return value as Json;
    if (!ref.startsWith("#/")) return undefined;
    value = ref
      .slice(2)
      .split("/")
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<unknown>((at, key) => (at as Json | undefined)?.[key], document);
  }
  return undefined;
}

const isInteger = (schema: Json | undefined): boolean =>
  schema?.type === "integer" || (Array.isArray(schema?.type) && schema.type.includes("integer"));

/** The names of the document's query parameters whose schema is an integer (in this spec: `limit`). */
export function integerQueryParameters(document: OpenApiDocument): ReadonlySet<string> {
  const names = new Set<string>();
  for (const item of Object.values(document.paths)) {
    const path = resolve(document, item);
    if (!path) continue;
    const operations = Object.values(path).filter((v): v is Json => v !== null && typeof v === "object");
    for (const holder of [path, ...operations]) {
      if (!Array.isArray(holder.parameters)) continue;
      for (const raw of holder.parameters) {
        const parameter = resolve(document, raw);
        if (parameter?.in !== "query" || typeof parameter.name !== "string") continue;
        if (isInteger(resolve(document, parameter.schema))) names.add(parameter.name);
      }
    }
  }
  return names;
}

/**
 * Before Ajv coerces `query` (in place): each string value of the named parameters that is not
 * decimal digits becomes `not decimal: <value>`, which Ajv refuses as no integer. Returns whether
 * anything was replaced. Other values (arrays, absent ones) are left to Ajv as they are.
 */
export function guardIntegerQuery(query: Record<string, unknown>, names: ReadonlySet<string>): boolean {
  let replaced = false;
  for (const name of names) {
    const value = query[name];
    if (typeof value === "string" && value !== "" && !isDecimalInteger(value)) {
      query[name] = NOT_DECIMAL_PREFIX + value;
      replaced = true;
    }
  }
  return replaced;
}
