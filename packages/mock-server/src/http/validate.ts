// Request validation against the OpenAPI document with Ajv (JSON Schema 2020-12), set up as the
// server's validator (express-openapi-validator) sets it up, so both answer the same
// `validation_failed` problems: query parameters coerced from strings, unknown or empty query
// parameters refused first, errors as `{pointer, code: the failed keyword, message}`, body pointers
// without a `/body` prefix, parameters as `/query/…`, `/params/…`, `/headers/…`. Unlike the
// validator's defaults, every problem is listed and pointers are escaped per RFC 6901, as the
// contract asks.
import {
  BodyValidator,
  createSpecAjv,
  guardIntegerQuery,
  integerQueryParameters,
  type OpenApiDocument,
  toFieldErrors,
  unstorableCharacterError,
  unstorableStringPointer,
} from "@oisr/contract";
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { Operation } from "./operations.ts";
import { notFound, validationFailed } from "./problem.ts";

const SPEC_ID = "https://oisr.dev/mock/openapi.json";

export interface RequestParts {
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  params: Record<string, string>;
  body: unknown;
}

interface Validators {
  general: ValidateFunction;
  queryNames: Set<string>;
}

/** `#/components/...` refs of operation-level schemas point into the registered spec schema. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] =
      key === "$ref" && typeof value === "string" && value.startsWith("#/") ? SPEC_ID + value : rebase(value);
  }
  return out;
}

function objectSchema(properties: Record<string, unknown>, required: string[]): Record<string, unknown> {
  if (Object.keys(properties).length === 0) return {};
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

export class SpecValidator {
  // Parameters are coerced from strings; bodies go through the bounded validator the server uses.
  readonly #general = createSpecAjv({ coerceTypes: true });
  readonly #body: BodyValidator;
  readonly #cache = new Map<string, Validators>();
  readonly #integerQuery: ReadonlySet<string>;

  constructor(document: OpenApiDocument) {
    this.#integerQuery = integerQueryParameters(document);
    this.#general.addSchema({ $id: SPEC_ID, components: { schemas: document.components.schemas } });
    this.#body = new BodyValidator(document, SPEC_ID);
  }

  #validators(op: Operation): Validators {
    const key = `${op.method} ${op.path}`;
    const cached = this.#cache.get(key);
    if (cached) return cached;
    const groups = { query: {}, header: {}, path: {}, cookie: {} } as Record<string, Record<string, unknown>>;
    const required = { query: [], header: [], path: [], cookie: [] } as Record<string, string[]>;
    for (const p of op.parameters) {
      const name = p.in === "header" ? p.name.toLowerCase() : p.name;
      (groups[p.in] as Record<string, unknown>)[name] = rebase(p.schema ?? {});
      if (p.required) required[p.in]?.push(name);
    }
    const general = this.#general.compile({
      required: ["query", "headers", "params"],
      properties: {
        query: objectSchema(groups.query ?? {}, required.query ?? []),
        headers: objectSchema(groups.header ?? {}, required.header ?? []),
        params: objectSchema(groups.path ?? {}, required.path ?? []),
        cookies: objectSchema(groups.cookie ?? {}, required.cookie ?? []),
        body: {},
      },
    });
    const validators = { general, queryNames: new Set(Object.keys(groups.query ?? {})) };
    this.#cache.set(key, validators);
    return validators;
  }

  /**
   * Validates a request against its operation; throws 400 `validation_failed`. Query values are
   * coerced in place (e.g. `limit` becomes a number; decimal digits only) and defaults filled in.
   */
  validate(op: Operation, parts: RequestParts): void {
    const v = this.#validators(op);
    for (const [name, value] of Object.entries(parts.query)) {
      if (!v.queryNames.has(name)) {
        throw validationFailed([
          { pointer: `/query/${name}`, code: "invalid", message: `Unknown query parameter '${name}'` },
        ]);
      }
      if (value === "") {
        throw validationFailed([
          {
            pointer: `/query/${name}`,
            code: "invalid",
            message: `Empty value found for query parameter '${name}'`,
          },
        ]);
      }
    }
    // Ajv reads query integers with Number (`0x10` as 16): only decimal digits reach it as numbers.
    guardIntegerQuery(parts.query, this.#integerQuery);
    const data = { query: parts.query, headers: parts.headers, params: parts.params };
    if (!v.general(data)) throw validationFailed(toFieldErrors(v.general.errors ?? []));
    // A path id PostgreSQL could not store names nothing that exists, on the server as here.
    if (unstorableStringPointer(parts.params) !== null) throw notFound();
    if (op.bodySchema) {
      const problems = this.#body.validate(op.bodySchema, parts.body, { required: op.bodyRequired });
      if (problems) throw validationFailed(problems.errors, problems.total);
    }
    // PostgreSQL cannot hold U+0000 in a query value: the server refuses it, and so does the mock.
    const unstorable = unstorableStringPointer(parts.query);
    if (unstorable !== null) {
      throw validationFailed([unstorableCharacterError(`/query${unstorable}`)]);
    }
  }
}
