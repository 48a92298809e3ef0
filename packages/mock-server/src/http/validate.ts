// Request validation against the OpenAPI document with Ajv (JSON Schema 2020-12), set up as the
// server's validator (express-openapi-validator) sets it up, so both answer the same
// `validation_failed` problems: query parameters coerced from strings, unknown or empty query
// parameters refused first, errors as `{pointer, code: the failed keyword, message}`, body pointers
// without a `/body` prefix, parameters as `/query/…`, `/params/…`, `/headers/…`. Unlike the
// validator's defaults, every problem is listed and pointers are escaped per RFC 6901, as the
// contract asks.
import { unstorableStringPointer } from "@oisr/domain";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import * as formatsModule from "ajv-formats";
import type { Operation } from "./operations.ts";
import { type FieldError, validationFailed } from "./problem.ts";

type FormatsPlugin = (ajv: Ajv2020, options: { mode: "fast" | "full" }) => unknown;
// ajv-formats is CommonJS: its plugin is the default export under bundlers and `.default.default`
// under Node's own ESM loader in some toolchains; take whichever is a function.
const addFormats = ((): FormatsPlugin => {
  const m = formatsModule as unknown as { default?: unknown };
  const candidates = [m.default, (m.default as { default?: unknown } | undefined)?.default, m];
  return candidates.find((c) => typeof c === "function") as FormatsPlugin;
})();

const SPEC_ID = "https://oisr.dev/mock/openapi.json";

export interface RequestParts {
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  params: Record<string, string>;
  body: unknown;
}

interface Validators {
  general: ValidateFunction;
  body: ValidateFunction;
  queryNames: Set<string>;
}

function newAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allowUnionTypes: false,
    validateSchema: false,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    // Every problem of a request, not only the first (the contract's `errors` "lists each problem").
    allErrors: true,
  });
  addFormats(ajv, { mode: "fast" });
  return ajv;
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

/** RFC 6901: `~` is `~0` and `/` is `~1` inside a reference token. */
const escapeToken = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");

function toFieldErrors(errors: ErrorObject[]): FieldError[] {
  return errors.map((e) => {
    const params = e.params as {
      missingProperty?: string;
      additionalProperty?: string;
      allowedValues?: unknown[];
    };
    const member = params.missingProperty ?? params.additionalProperty;
    const path = member === undefined ? e.instancePath : `${e.instancePath}/${escapeToken(member)}`;
    const message =
      e.keyword === "enum" && params.allowedValues
        ? `${e.message}: ${params.allowedValues.join(", ")}`
        : (e.message ?? "is invalid");
    return {
      pointer: path.startsWith("/body") ? path.slice("/body".length) : path,
      code: e.keyword,
      message,
    };
  });
}

export class SpecValidator {
  readonly #general = newAjv(true);
  readonly #body = newAjv(false);
  readonly #cache = new Map<string, Validators>();

  constructor(document: Record<string, unknown>) {
    const components = (document.components ?? {}) as { schemas?: unknown };
    const registered = { $id: SPEC_ID, components: { schemas: components.schemas ?? {} } };
    this.#general.addSchema(registered);
    this.#body.addSchema(structuredClone(registered));
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
    const body = this.#body.compile({
      properties: {
        query: {},
        headers: {},
        params: {},
        cookies: {},
        body: op.bodySchema ? rebase(op.bodySchema) : {},
      },
      ...(op.bodySchema && op.bodyRequired ? { required: ["body"] } : {}),
    });
    const validators = { general, body, queryNames: new Set(Object.keys(groups.query ?? {})) };
    this.#cache.set(key, validators);
    return validators;
  }

  /**
   * Validates a request against its operation; throws 400 `validation_failed`. Query values are
   * coerced in place (e.g. `limit` becomes a number) and defaults filled in.
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
    const data = { query: parts.query, headers: parts.headers, params: parts.params, body: parts.body };
    const okGeneral = v.general(data);
    const okBody = v.body(data);
    if (!(okGeneral && okBody)) {
      throw validationFailed(toFieldErrors([...(v.general.errors ?? []), ...(v.body.errors ?? [])]));
    }
    // Valid JSON the server cannot store (U+0000, lone surrogates) is refused like the server does.
    const unstorable = parts.body === undefined ? null : unstorableStringPointer(parts.body);
    if (unstorable !== null) {
      throw validationFailed([
        {
          pointer: unstorable,
          code: "unsupported_character",
          message: "must not contain U+0000 or a lone UTF-16 surrogate",
        },
      ]);
    }
  }
}
