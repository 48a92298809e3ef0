// outbox/ owns the `events` table (index.ts): no other source file may write it. A scan of the
// sources, not a runtime check, so a new writer fails here before it is ever run.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = join(import.meta.dirname, "..");
const outbox = import.meta.dirname;

/** Writes of `events`: drizzle's builders on the table object, and raw SQL (any case). */
const EVENTS_WRITES = [
  /\.(insert|update|delete)\(\s*(\w+\.)?events\s*\)/,
  /\binsert\s+into\s+(public\.)?"?events"?(?![\w"])/i,
  /\bupdate\s+(public\.)?"?events"?(?![\w"])/i,
  /\bdelete\s+from\s+(public\.)?"?events"?(?![\w"])/i,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === outbox ? [] : sources(path);
    // Tests and their helpers (test-*.ts, never imported by the server) write history directly.
    const testOnly = entry.name.endsWith(".test.ts") || entry.name.startsWith("test-");
    return entry.name.endsWith(".ts") && !testOnly ? [path] : [];
  });
}

/** `file:line` of every write outside outbox/ (matched across line breaks, as SQL is written). */
function writersOutside(patterns: RegExp[], files = sources(src)): string[] {
  return files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return patterns.flatMap((p) =>
      [...text.matchAll(new RegExp(p.source, `${p.flags}g`))].map((m) => {
        const line = text.slice(0, m.index).split("\n").length;
        return `${relative(src, file)}:${line}: ${m[0].replace(/\s+/g, " ")}`;
      }),
    );
  });
}

describe("the events table", () => {
  it("is written only from outbox/", () => {
    expect(writersOutside(EVENTS_WRITES), "move these statements into src/outbox/").toEqual([]);
  });

  it("the scan sees every form of a write", () => {
    const lines = [
      "await tx.insert(events).values(row);",
      "db.update( events ).set({})",
      "await tx.delete(events).where(x)",
      "db.insert(schema.events).values(row)",
      "sql`INSERT INTO events (id) values (1)`",
      "sql`update events set dispatched_at = now()`",
      "sql`delete from events e using doomed`",
      "sql`insert into\n  events (id)`",
    ];
    for (const line of lines)
      expect(
        EVENTS_WRITES.some((p) => p.test(line)),
        line,
      ).toBe(true);
    for (const line of [
      "select 1 from events where x",
      "update webhook_events set",
      "insert into events_archive",
    ])
      expect(
        EVENTS_WRITES.some((p) => p.test(line)),
        line,
      ).toBe(false);
  });
});
