// Checks each item against the API's own schema (GET /v2/openapi.json) before sending, so every
// invalid item is reported at once with all its problems. Without this, a batch with k invalid
// items would take k+1 calls: the API answers 400 naming one problem at a time, and the CLI can
// only set that item aside and resend. The API still validates everything it receives.
import { BodyValidator } from "@oisr/contract";
import { CannotReachError, isNetworkFailure } from "../errors.ts";
import type { Kind } from "../sources/open.ts";
import type { SourceItem } from "../sources/types.ts";
import { mapErrors } from "./pointers.ts";
import { BODY_ROOT } from "./send.ts";
import type { Failure } from "./state.ts";

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

export function createValidator(
  spec: unknown,
  kind: Kind,
  /** One validator of the spec, shared by the kinds' validators (see createValidators). */
  shared?: BodyValidator,
): ItemValidator {
  // The same bounded validator the server and the mock run, so the CLI sets aside exactly the items
  // the API would refuse (real calendar dates included).
  const validator = shared ?? new BodyValidator(spec as never, SPEC_ID);
  const schema = { $ref: `#/components/schemas/${BODY_SCHEMA[kind]}` };
  const root = BODY_ROOT[kind];
  return (item) => {
    const problems = validator.validate(schema, { [root]: [item.item] });
    if (!problems) return [];
    const { byItem, unmapped } = mapErrors(problems.errors, root, [
      { batchIndex: 0, line: item.line, subLines: item.subLines },
    ]);
    const failures = byItem.get(0) ?? [];
    for (const e of unmapped)
      failures.push({ line: item.line, pointer: "", code: e.code, message: e.message });
    return failures;
  };
}

/** Every kind's validator, compiled from one copy of the spec. */
export function createValidators(spec: unknown): Record<Kind, ItemValidator> {
  const shared = new BodyValidator(spec as never, SPEC_ID);
  return Object.fromEntries(
    (Object.keys(BODY_SCHEMA) as Kind[]).map((kind) => [kind, createValidator(spec, kind, shared)]),
  ) as Record<Kind, ItemValidator>;
}

/**
 * The API's spec from `${baseUrl}/openapi.json`, or undefined when it cannot be had. Throws
 * CannotReachError when the API does not answer at all: the import could not go any further, and
 * saying so at once beats retrying every batch first.
 */
export async function fetchSpec(
  baseUrl: string,
  fetcher: (request: Request) => Promise<Response>,
): Promise<unknown | undefined> {
  let response: Response;
  try {
    response = await fetcher(new Request(`${baseUrl.replace(/\/+$/, "")}/openapi.json`));
  } catch (error) {
    if (isNetworkFailure(error)) throw new CannotReachError(baseUrl, error);
    return undefined;
  }
  try {
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}
