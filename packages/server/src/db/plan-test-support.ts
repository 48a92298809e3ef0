// Tests only: a statement's plan (EXPLAIN's JSON), the generic plan a prepared statement keeps once
// PostgreSQL stops planning it for each call's values, and how a plan reads a table.
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Database, Executor } from "./client.ts";
import { sql } from "./client.ts";

const dialect = new PgDialect();

export interface Plan {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Index Cond"?: string;
  /** With EXPLAIN (ANALYZE) only. */
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: Plan[];
}

const nodes = (node: Plan): Plan[] => [node, ...(node.Plans ?? []).flatMap(nodes)];

/** The nodes of `plan` that read a table or a partition, in plan order. */
export const scans = (plan: Plan): Plan[] => nodes(plan).filter((n) => n["Relation Name"] !== undefined);

/** The plan of an `explain (format json) …` statement (with `analyze` too, to have actual rows). */
export async function explain(database: Database, statement: SQL, executor?: Executor): Promise<Plan> {
  const [row] = await database.rows<{ "QUERY PLAN": { Plan: Plan }[] }>(statement, executor);
  const top = row?.["QUERY PLAN"][0];
  if (!top) throw new Error("no plan");
  return top.Plan;
}

/** The generic plan of `query` (its parameters unknown), as PREPARE and EXECUTE make it. */
export async function genericPlan(database: Database, query: SQL): Promise<Plan> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const literals = params.map((p) => `'${String(p).replaceAll("'", "''")}'`).join(", ");
  return await database.db.transaction(async (tx) => {
    await tx.execute(sql.raw("set local plan_cache_mode = force_generic_plan"));
    await tx.execute(sql.raw(`prepare generic_plan_probe as ${text}`));
    try {
      return await explain(
        database,
        sql.raw(`explain (format json) execute generic_plan_probe(${literals})`),
        tx,
      );
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
