// Tests only: the generic plan of a statement, as a prepared statement keeps it once PostgreSQL
// stops planning it for each call's values, and how that plan reads a table.
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database } from "./client.ts";
import { sql } from "./client.ts";

const dialect = new PgDialect();

export interface Plan {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  Plans?: Plan[];
}

const nodes = (node: Plan): Plan[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** The generic plan of `query` (its parameters unknown), as PREPARE and EXECUTE make it. */
export async function genericPlan(database: Database, query: SQL): Promise<Plan> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const literals = params.map((p) => `'${String(p).replaceAll("'", "''")}'`).join(", ");
  return await database.db.transaction(async (tx) => {
    await tx.execute(sql.raw("set local plan_cache_mode = force_generic_plan"));
    await tx.execute(sql.raw(`prepare generic_plan_probe as ${text}`));
    try {
      const [row] = await database.rows<{ "QUERY PLAN": { Plan: Plan }[] }>(
        sql.raw(`explain (format json) execute generic_plan_probe(${literals})`),
        tx,
      );
      const top = row?.["QUERY PLAN"][0];
      if (!top) throw new Error("no plan");
      return top.Plan;
    } finally {
      await tx.execute(sql.raw("deallocate generic_plan_probe"));
    }
  });
}

/**
 * How `plan` reads `table` (or its partitions): each index of it the plan probes, with its index
 * condition, and "Seq Scan" for each scan no index drives. A bitmap heap scan is driven by its
 * bitmap index scan, listed here.
 */
export function indexReads(plan: Plan, table: string): string[] {
  return nodes(plan).flatMap((n) => {
    if (n["Index Name"]?.startsWith(table)) return [`${n["Index Name"]}: ${n["Index Cond"]}`];
    if (n["Relation Name"]?.startsWith(table) && n["Node Type"] === "Seq Scan") return ["Seq Scan"];
    return [];
  });
}
