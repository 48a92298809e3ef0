// Walks the operations CONTRACT.md names and checks the spec serves each of them.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadSpec } from "./spec.ts";

const contractPath =
  process.env.OISR_CONTRACT_PATH ??
  join(dirname(fileURLToPath(import.meta.url)), "../../../../shared/CONTRACT.md");
const spec = loadSpec();
const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** "/webhook_subscriptions/{id}" and "/webhook_subscriptions/{subscription_id}" are the same path. */
const shape = (path: string) => path.replace(/\{[^}]+\}/g, "{}");
const specOps = new Set(
  Object.entries(spec.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Record<string, unknown>)[m]).map(
      (m) => `${m.toUpperCase()} ${shape(path)}`,
    ),
  ),
);

function contractOperations(text: string): string[] {
  const ops = new Set<string>();
  for (const m of text.matchAll(/`(GET|POST|PATCH|DELETE) (\/[^`?\s]*)[^`]*`/g)) {
    ops.add(`${m[1]} ${(m[2] ?? "").replace(/^\/v2(?=\/)/, "")}`);
  }
  // "`GET` (list), `GET`, `PATCH`, `DELETE` (`204`) on `/webhook_subscriptions/{id}`"
  for (const m of text.matchAll(/((?:`(?:GET|POST|PATCH|DELETE)`[^`]*(?:`\d+`[^`]*)?)+)on `(\/[^`]+)`/g)) {
    for (const method of (m[1] ?? "").matchAll(/`(GET|POST|PATCH|DELETE)`/g)) ops.add(`${method[1]} ${m[2]}`);
  }
  // `POST /ingest/*` covers one endpoint per request kind (section 4).
  const kinds = /^\| kind \|.*$/m.exec(text)?.[0].match(/`(\w+)`/g) ?? [];
  for (const kind of kinds.map((k) => k.replaceAll("`", "")))
    if (kind !== "dispositions") ops.add(`POST /ingest/${kind}`);
  // Path identifiers of section 5 are single-resource reads.
  if (text.includes("`{identifier}`")) ops.add("GET /orders/{identifier}");
  if (text.includes("`{return_id}`")) ops.add("GET /returns/{return_id}");
  return [...ops].filter((op) => !op.endsWith("*")).sort();
}

describe("spec/openapi.yaml covers CONTRACT.md", () => {
  it("finds CONTRACT.md (shared/ beside the repository, or OISR_CONTRACT_PATH)", () => {
    expect(existsSync(contractPath), contractPath).toBe(true);
  });

  const operations = existsSync(contractPath) ? contractOperations(readFileSync(contractPath, "utf8")) : [];
  // /docs is an HTML page, not an API operation: the spec describes it and the server serves it.
  const apiOperations = operations.filter((op) => op !== "GET /docs");

  it("names every operation of the contract (22 besides /docs)", () => {
    expect(apiOperations.length).toBeGreaterThanOrEqual(22);
  });

  it.each(apiOperations)("%s is in the spec", (op) => {
    const [method, path] = op.split(" ") as [string, string];
    expect(specOps).toContain(`${method} ${shape(path)}`);
  });

  it("marks every operation with its rate-limit scope", () => {
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const m of METHODS) {
        const op = (item as Record<string, Record<string, unknown> | undefined>)[m];
        if (op) expect(op["x-rate-limit-scope"], `${m} ${path}`).toBeDefined();
      }
    }
  });
});
