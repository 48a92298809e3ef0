// The warehouse's copy of the orders, in SQLite (node:sqlite, Node 22.5+): the orders by id, and
// the change feed's cursor in the same database. A page of the feed and the cursor after it are
// written in one transaction, so the database holds both or neither: a crash at any point leaves
// the cursor at the end of the last page it holds, and a restart resumes there. Each page costs
// one small transaction however many orders are stored.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { Order } from "@oisr/sdk";

export type UpsertOutcome = "inserted" | "updated" | "skipped";

export class OrderStore {
  readonly path: string;
  private readonly db: DatabaseSync;
  private readonly selectVersion: StatementSync;
  private readonly upsertOrder: StatementSync;
  private readonly saveCursor: StatementSync;

  /** Opens (or creates) the database at `path`; `:memory:` for a throwaway one. */
  constructor(path: string) {
    this.path = path;
    if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
    this.db = new DatabaseSync(path);
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS orders (
        id      TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        body    TEXT NOT NULL
      ) STRICT;
      CREATE TABLE IF NOT EXISTS feed_cursor (
        feed   TEXT PRIMARY KEY,
        cursor TEXT NOT NULL
      ) STRICT;
    `);
    this.selectVersion = this.db.prepare("SELECT version FROM orders WHERE id = ?");
    this.upsertOrder = this.db.prepare(
      `INSERT INTO orders (id, version, body) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET version = excluded.version, body = excluded.body`,
    );
    this.saveCursor = this.db.prepare(
      `INSERT INTO feed_cursor (feed, cursor) VALUES ('orders', ?)
       ON CONFLICT (feed) DO UPDATE SET cursor = excluded.cursor`,
    );
  }

  /** Where the last stored page ended; undefined before the first page (the start of the feed). */
  cursor(): string | undefined {
    const row = this.db.prepare("SELECT cursor FROM feed_cursor WHERE feed = 'orders'").get();
    return row ? String(row.cursor) : undefined;
  }

  /**
   * Stores a page of the feed and the cursor after it in one transaction. Upserts by `id`, keeping
   * the highest `version`: an order seen again at the same or an older version is skipped.
   */
  applyPage(orders: readonly Order[], cursor: string | undefined): UpsertOutcome[] {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const outcomes = orders.map((order): UpsertOutcome => {
        const current = this.selectVersion.get(order.id);
        if (current && Number(current.version) >= order.version) return "skipped";
        this.upsertOrder.run(order.id, order.version, JSON.stringify(order));
        return current ? "updated" : "inserted";
      });
      if (cursor !== undefined) this.saveCursor.run(cursor);
      this.db.exec("COMMIT");
      return outcomes;
    } catch (err) {
      if (this.db.isTransaction) this.db.exec("ROLLBACK");
      throw err;
    }
  }

  get(id: string): Order | undefined {
    const row = this.db.prepare("SELECT body FROM orders WHERE id = ?").get(id);
    return row ? (JSON.parse(String(row.body)) as Order) : undefined;
  }

  /** Every stored order's id → version. */
  versions(): Record<string, number> {
    const rows = this.db.prepare("SELECT id, version FROM orders").all();
    return Object.fromEntries(rows.map((r) => [String(r.id), Number(r.version)]));
  }

  count(): number {
    return Number(this.db.prepare("SELECT count(*) AS n FROM orders").get()?.n);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
