// A local order store in one JSON file, upserting by id and version. Stands in for the warehouse's
// database: it rewrites the whole file per change, which is fine for an example only.
import { existsSync, readFileSync } from "node:fs";
import { rename, writeFile } from "node:fs/promises";
import type { Order } from "@oisr/sdk";

export type UpsertOutcome = "inserted" | "updated" | "skipped";

export interface StoreFile {
  orders: Record<string, Order>;
  /** Every write as `id@version`, to show that no change was applied twice. */
  writes: string[];
}

export class JsonOrderStore {
  readonly data: StoreFile;
  readonly path: string;

  constructor(path: string) {
    this.path = path;
    this.data = existsSync(path)
      ? (JSON.parse(readFileSync(path, "utf8")) as StoreFile)
      : { orders: {}, writes: [] };
  }

  /** Keeps the highest version: a change seen again after a restart is skipped. */
  async upsert(order: Order): Promise<UpsertOutcome> {
    const current = this.data.orders[order.id];
    if (current && current.version >= order.version) return "skipped";
    this.data.orders[order.id] = order;
    this.data.writes.push(`${order.id}@${order.version}`);
    await this.save();
    return current ? "updated" : "inserted";
  }

  private async save(): Promise<void> {
    // Write-then-rename: a crash leaves the old file or the new one, never half of one.
    await writeFile(`${this.path}.tmp`, JSON.stringify(this.data));
    await rename(`${this.path}.tmp`, this.path);
  }
}
