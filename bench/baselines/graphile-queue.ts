// The peer baseline of the queue benchmarks: graphile-worker (the well-kept PostgreSQL job queue a
// team would pick with Express) draining the same work: N jobs, each upserting one order row as
// jsonb into a table shaped like OISR's `orders`, spread over accounts. With `named`, each account's
// jobs share a named queue (serial per account: OISR's per-account FIFO promise); without, jobs run
// in any order. Jobs are enqueued first (graphile's add_jobs, in bulk), then a runner with the same
// concurrency as OISR's workers is started and timed until the jobs table is empty.
import { Logger, run } from "graphile-worker";
import pg from "pg";
import postgres from "postgres";
import { order } from "../lib/fixtures.ts";

export async function graphileDrain(options: {
  databaseUrl: string;
  jobs: number;
  accounts: number;
  named: boolean;
  concurrency: number;
  limitS: number;
}): Promise<{ seconds: number | null; done: number }> {
  const sql = postgres(options.databaseUrl, { max: 2, onnotice: () => {} });
  // Our own pool, ended before the caller drops the database: an idle connection of graphile's own
  // pool, terminated by the drop, would emit an unhandled 'error' and end the process.
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.concurrency + 2 });
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  try {
    await sql`create table if not exists bench_orders (
      account_id text not null, id text not null, external_id text not null, body jsonb not null,
      primary key (account_id, id), unique (account_id, external_id))`;
    // Installs graphile's schema (and stops at once: nothing is queued yet).
    const installer = await run({
      pgPool: pool,
      concurrency: 1,
      noHandleSignals: true,
      pollInterval: 1000,
      taskList: { upsert_order: async () => {} },
      logger: quietLogger(),
    });
    await installer.stop();

    const specs = Array.from({ length: options.jobs }, (_, i) => {
      const account = `acc_${i % options.accounts}`;
      return {
        identifier: "upsert_order",
        payload: { account, order: order(`G-${i}`) },
        queue_name: options.named ? account : null,
      };
    });
    for (let i = 0; i < specs.length; i += 5000) {
      const chunk = JSON.stringify(specs.slice(i, i + 5000));
      await sql.unsafe(
        `select graphile_worker.add_jobs(array(select json_populate_recordset(null::graphile_worker.job_spec, $1::text::json)))`,
        [chunk],
      );
    }

    const started = performance.now();
    const runner = await run({
      pgPool: pool,
      concurrency: options.concurrency,
      noHandleSignals: true,
      pollInterval: 100,
      logger: quietLogger(),
      taskList: {
        upsert_order: async (payload, helpers) => {
          const { account, order: o } = payload as { account: string; order: { external_id: string } };
          await helpers.query(
            `insert into bench_orders (account_id, id, external_id, body) values ($1, $2, $3, $4::jsonb)
             on conflict (account_id, external_id) do update set body = excluded.body`,
            [account, `ord_${o.external_id}`, o.external_id, JSON.stringify(o)],
          );
        },
      },
    });
    let left = options.jobs;
    try {
      for (;;) {
        const [row] = await sql<
          { n: number }[]
        >`select count(*)::int as n from graphile_worker._private_jobs`;
        left = row?.n ?? 0;
        if (left === 0) return { seconds: (performance.now() - started) / 1000, done: options.jobs };
        if (performance.now() - started > options.limitS * 1000)
          return { seconds: null, done: options.jobs - left };
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await runner.stop();
    }
  } finally {
    await sql.end();
    await pool.end();
  }
}

function quietLogger() {
  // graphile-worker's Logger takes a factory of log functions; only errors are worth printing here.
  return new Logger(() => (level: string, message: string) => {
    if (level === "error") console.error(`graphile-worker: ${message}`);
  });
}
