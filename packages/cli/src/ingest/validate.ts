// Checks each item against the API's own schema (GET /v2/openapi.json) before sending, so every
// invalid item is reported at once with all its problems. Without this, a batch with k invalid
// items would take k+1 calls: the API answers 400 naming one problem at a time, and the CLI can
// only set that item aside and resend. The API still validates everything it receives.
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import * as formatsModule from "ajv-formats";
import type { Kind } from "../sources/open.ts";
import type { SourceItem } from "../sources/types.ts";
import { type ApiItemError, mapErrors } from "./pointers.ts";
import { BODY_ROOT } from "./send.ts";
import type { Failure } from "./state.ts";

type FormatsPlugin = (ajv: Ajv2020, options: { mode: "fast" | "full" }) => unknown;
// ajv-formats is CommonJS: its plugin is `default` or `default.default` depending on the loader.
const addFormats = ((): FormatsPlugin => {
  const m = formatsModule as unknown as { default?: unknown };
  const candidates = [m.default, (m.default as { default?: unknown } | undefined)?.default, m];
  return candidates.find((c) => typeof c === "function") as FormatsPlugin;
})();

const SPEC_ID = "https://oisr.dev/openapi.json";
const BODY_SCHEMA: Record<Kind, string> = {
  orders: "OrdersIngestBody",
  inventory: "InventoryIngestBody",
  shipments: "ShipmentsIngestBody",
  returns: "ReturnsIngestBody",
  dispositions: "DispositionsIngestBody",
};

/** Returns the item's failures (pointers into the item, lines mapped for CSV groups), or []. */
export type ItemValidator = (item: SourceItem) => Failure[];

/** RFC 6901 escaping of one reference token. */
const escapeToken = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");

function toApiErrors(errors: ErrorObject[]): ApiItemError[] {
  return errors.map((e) => {
    const params = e.params as {
      missingProperty?: string;
      additionalProperty?: string;
      allowedValues?: unknown[];
    };
    const name = params.missingProperty ?? params.additionalProperty;
    const pointer = name === undefined ? e.instancePath : `${e.instancePath}/${escapeToken(name)}`;
    const allowed = params.allowedValues ? `: ${params.allowedValues.join(", ")}` : "";
    return { pointer, code: e.keyword, message: `${e.message ?? "is invalid"}${allowed}` };
  });
}

export function createValidator(spec: unknown, kind: Kind): ItemValidator {
  const ajv = new Ajv2020({ strict: false, validateSchema: false, allErrors: true });
  addFormats(ajv, { mode: "fast" });
  ajv.addSchema(spec as object, SPEC_ID);
  const validate = ajv.compile({ $ref: `${SPEC_ID}#/components/schemas/${BODY_SCHEMA[kind]}` });
  const root = BODY_ROOT[kind];
  return (item) => {
    if (validate({ [root]: [item.item] })) return [];
    const { byItem, unmapped } = mapErrors(toApiErrors(validate.errors ?? []), root, [
      { batchIndex: 0, line: item.line, subLines: item.subLines },
    ]);
    const failures = byItem.get(0) ?? [];
    for (const e of unmapped)
      failures.push({ line: item.line, pointer: "", code: e.code, message: e.message });
    return failures;
  };
}

/** The API's spec from `${baseUrl}/openapi.json`, or undefined when it cannot be had. */
export async function fetchSpec(
  baseUrl: string,
  fetcher: (request: Request) => Promise<Response>,
): Promise<unknown | undefined> {
  try {
    const response = await fetcher(new Request(`${baseUrl.replace(/\/+$/, "")}/openapi.json`));
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}
