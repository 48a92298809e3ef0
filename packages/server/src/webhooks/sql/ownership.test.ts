// webhooks/sql/ owns the webhook tables (index.ts): no other source file may write them. A scan of
// the sources, not a runtime check, so a new writer fails here before it is ever run.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = join(import.meta.dirname, "../..");
const owner = import.meta.dirname;

const TABLES = [
  { table: "webhook_deliveries", object: "webhookDeliveries" },
  { table: "webhook_subscriptions", object: "webhookSubscriptions" },
  { table: "webhook_recoveries", object: "webhookRecoveries" },
];

/** Writes of a table: drizzle's builders on its table object, and raw SQL (any case). */
const writesOf = ({ table, object }: { table: string; object: string }) => [
  new RegExp(`\\.(insert|update|delete)\\(\\s*(\\w+\\.)?${object}\\s*\\)`),
  new RegExp(`\\binsert\\s+into\\s+(public\\.)?"?${table}"?(?![\\w"])`, "i"),
  new RegExp(`\\bupdate\\s+(public\\.)?"?${table}"?(?![\\w"])`, "i"),
  new RegExp(`\\bdelete\\s+from\\s+(public\\.)?"?${table}"?(?![\\w"])`, "i"),
];
const WRITES = TABLES.flatMap(writesOf);

/**
 * Writers outside webhooks/sql/, and why: none since retention drops partitions (decision 020)
 * instead of outbox/prune.ts deleting an event with its attempts. Kept as a list so a future
 * exception is named here, with its reason.
 */
const EXCEPTIONS = new Map<string, string>();

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === owner ? [] : sources(path);
    // Tests and their helpers (test-*.ts, never imported by the server) write history directly.
    const testOnly = entry.name.endsWith(".test.ts") || entry.name.startsWith("test-");
    return entry.name.endsWith(".ts") && !testOnly ? [path] : [];
  });
}

/** `file: statement` of every write outside webhooks/sql/ (matched across line breaks, as SQL is written). */
function writersOutside(files = sources(src)): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return WRITES.flatMap((p) =>
      [...text.matchAll(new RegExp(p.source, `${p.flags}g`))].map(
        (m) => `${relative(src, file)}: ${m[0].replace(/\s+/g, " ").toLowerCase()}`,
      ),
    );
  });
}

describe("the webhook tables", () => {
  it("are written only from webhooks/sql/ (and from the exceptions listed, none today)", () => {
    const allowed = new Set([...EXCEPTIONS].map(([file, statement]) => `${file}: ${statement}`));
    expect(
      writersOutside().filter((w) => !allowed.has(w)),
      "move these statements into src/webhooks/sql/",
    ).toEqual([]);
  });

  it("the scan sees every form of a write, of every table", () => {
    const lines = [
      "await tx.insert(webhookDeliveries).values(row);",
      "db.update( webhookSubscriptions ).set({})",
      "await tx.delete(schema.webhookRecoveries).where(x)",
      "sql`INSERT INTO webhook_deliveries (id) values (1)`",
      'sql`update "webhook_subscriptions" set status = 1`',
      "sql`delete from webhook_recoveries where x`",
      "sql`insert into\n  webhook_deliveries (id)`",
    ];
    for (const line of lines)
      expect(
        WRITES.some((p) => p.test(line)),
        line,
      ).toBe(true);
    for (const line of [
      "select 1 from webhook_deliveries where x",
      "update webhook_deliveries_archive set",
      "db.select().from(webhookDeliveries)",
      "insert into webhook_subscriptions_v2",
    ])
      expect(
        WRITES.some((p) => p.test(line)),
        line,
      ).toBe(false);
  });
});
