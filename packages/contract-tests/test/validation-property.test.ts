// Property: no invalid orders body is ever accepted, and none makes the server fail. Generated
// from a valid body by deleting a required member, changing a value's type, or adding a member.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { order } from "../src/fixtures.ts";
import { useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

type Path = (string | number)[];

/** Members the spec requires, as paths into `{orders: [order]}`. */
const REQUIRED: Path[] = [
  ["orders"],
  ...["external_id", "source", "currency", "placed_at", "ship_to", "lines", "source_updated_at"].map((k) => [
    "orders",
    0,
    k,
  ]),
  ...["name", "line1", "city", "country"].map((k) => ["orders", 0, "ship_to", k]),
  ...["line_id", "sku", "quantity", "unit_price"].map((k) => ["orders", 0, "lines", 0, k]),
  ...["line_id", "sku", "quantity", "unit_price"].map((k) => ["orders", 0, "lines", 1, k]),
];

/** Values and the JSON types they may not take (every member of OrderInput has exactly one type). */
const TYPED: [Path, "string" | "integer" | "array" | "object"][] = [
  [["orders"], "array"],
  [["orders", 0], "object"],
  ...["external_id", "order_number", "source", "currency", "placed_at", "source_updated_at"].map(
    (k): [Path, "string"] => [["orders", 0, k], "string"],
  ),
  [["orders", 0, "ship_to"], "object"],
  [["orders", 0, "customer"], "object"],
  [["orders", 0, "lines"], "array"],
  [["orders", 0, "lines", 0], "object"],
  ...["name", "line1", "city", "country", "region", "postal_code"].map((k): [Path, "string"] => [
    ["orders", 0, "ship_to", k],
    "string",
  ]),
  [["orders", 0, "lines", 0, "line_id"], "string"],
  [["orders", 0, "lines", 0, "sku"], "string"],
  [["orders", 0, "lines", 0, "quantity"], "integer"],
  [["orders", 0, "lines", 0, "unit_price"], "string"],
  [["orders", 0, "lines", 1, "quantity"], "integer"],
];

/** Objects that take no other members (metadata takes any string member, so it is not here). */
const CLOSED: Path[] = [
  [],
  ["orders", 0],
  ["orders", 0, "ship_to"],
  ["orders", 0, "customer"],
  ["orders", 0, "lines", 0],
  ["orders", 0, "lines", 1],
];
const KNOWN = new Set([
  "orders",
  ...Object.keys(order()),
  "status",
  "bill_to",
  "shipping_method",
  "totals",
  "metadata",
  "company",
  "line2",
  "region",
  "postal_code",
  "phone",
  "email",
  "name",
  "line1",
  "city",
  "country",
  "line_id",
  "sku",
  "quantity",
  "unit_price",
]);

function wrongValue(type: "string" | "integer" | "array" | "object") {
  const all = {
    string: fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.constant({}),
    ),
    integer: fc.oneof(
      fc.string(),
      fc.double({ min: 0.1, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)),
      fc.boolean(),
      fc.constant(null),
      fc.integer({ max: 0 }),
    ),
    array: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant({}), fc.constant([])),
    object: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })),
  };
  return all[type];
}

type Mutation = { kind: string; apply: (body: Record<string, unknown>) => void };

function at(body: unknown, path: Path): Record<string | number, unknown> {
  let node = body as Record<string | number, unknown>;
  for (const key of path) node = node[key] as Record<string | number, unknown>;
  return node;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom(...REQUIRED).map((path) => ({
    kind: `delete ${path.join("/")}`,
    apply: (body: Record<string, unknown>) => {
      delete at(body, path.slice(0, -1))[path.at(-1) as string];
    },
  })),
  fc.constantFrom(...TYPED).chain(([path, type]) =>
    wrongValue(type).map((value) => ({
      kind: `set ${path.join("/")} = ${JSON.stringify(value)}`,
      apply: (body: Record<string, unknown>) => {
        at(body, path.slice(0, -1))[path.at(-1) as string] = value;
      },
    })),
  ),
  fc
    .tuple(
      fc.constantFrom(...CLOSED), // Names needing JSON Pointer escaping have their own example test (validation.test.ts).
      fc.stringMatching(/^[a-z_][a-z0-9_]{0,11}$/).filter((k) => !KNOWN.has(k) && k !== "__proto__"),
      fc.jsonValue(),
    )
    .map(([path, key, value]) => ({
      kind: `add ${[...path, key].join("/")}`,
      apply: (body: Record<string, unknown>) => {
        at(body, path)[key] = value;
      },
    })),
);

describe.each(targets)("invalid orders bodies (property) — $name", (target) => {
  const h = useSystem(target);

  it("are always 400 problem+json (validation_failed or invalid_json), never 202 and never 5xx, and nothing is stored", async () => {
    const c = await h.account();
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
        const body = { orders: [order()] } as Record<string, unknown>;
        for (const m of mutations) {
          try {
            m.apply(body);
          } catch {
            // An earlier mutation removed the parent; the body stays invalid anyway.
          }
        }
        const res = await c.post("/ingest/orders", body);
        const context = `${mutations.map((m) => m.kind).join("; ")} → ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, context).toBe(400);
        expect(res.headers.get("content-type"), context).toMatch(/^application\/problem\+json/);
        expect(["validation_failed", "invalid_json"], context).toContain(res.body.code);
        expect(res.body.trace_id, context).toBe(res.headers.get("x-trace-id"));
        if (res.body.code === "validation_failed") {
          expect(res.body.errors.length, context).toBeGreaterThan(0);
          for (const e of res.body.errors) expect(e.pointer, context).toMatch(/^(\/([^~/]|~[01])*)*$/);
        }
      }),
      { numRuns: 200 },
    );
    expect((await c.get("/requests")).body.data).toEqual([]);
  });

  it("arbitrary JSON documents are never accepted and never make the server fail", async () => {
    const c = await h.account();
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), async (value) => {
        const res = await c.post("/ingest/orders", JSON.stringify(value), {
          "content-type": "application/json",
        });
        expect(res.status, `${JSON.stringify(value)} → ${res.status} ${res.text.slice(0, 200)}`).toBe(400);
        expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      }),
      { numRuns: 100 },
    );
  });
});
