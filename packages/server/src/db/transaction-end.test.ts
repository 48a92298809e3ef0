// A statement a transaction's function issues after that function has settled (a branch of a
// Promise.all that another branch's failure ended) must not run: after ROLLBACK or COMMIT its
// connection is back in the pool, so it would run outside the transaction or inside another one.
// postgres.js sends it there; the patched driver (patches/postgres+3.4.9.patch, decision 017
// "Session 18") refuses it. PostgreSQL only: PGlite runs one statement at a time in this process.
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { useFreshDatabase } from "../webhooks/test-support.ts";
import type { Database } from "./database.ts";

let database: Database;
useFreshDatabase((d) => {
  database = d;
});

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(process.env.DATABASE_URL)("a statement issued after its transaction ended", () => {
  beforeAll(async () => {
    await database.rows(sql`create table late_rows (n int)`);
  });

  it("is refused after a rollback, and nothing of the transaction is stored", async () => {
    let late: Promise<unknown> | undefined;
    await expect(
      database.db.transaction(async (tx) => {
        await database.rows(sql`insert into late_rows values (1)`, tx);
        late = later(20).then(() => database.rows(sql`insert into late_rows values (2)`, tx));
        throw new Error("the stage failed");
      }),
    ).rejects.toThrow("the stage failed");
    await expect(late).rejects.toThrow(/after its transaction ended/);
    expect(await database.rows(sql`select n from late_rows`)).toEqual([]);
  });

  it("is refused after a commit, which keeps what the transaction wrote", async () => {
    let late: Promise<unknown> | undefined;
    await database.db.transaction(async (tx) => {
      await database.rows(sql`insert into late_rows values (3)`, tx);
      late = later(20).then(() => database.rows(sql`insert into late_rows values (4)`, tx));
    });
    await expect(late).rejects.toThrow(/after its transaction ended/);
    expect(await database.rows(sql`select n from late_rows order by n`)).toEqual([{ n: 3 }]);
  });
});
