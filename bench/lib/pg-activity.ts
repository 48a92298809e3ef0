// Samples pg_stat_activity of one database while a benchmark runs: what the server's connections
// are doing (executing which statement, or idle inside a transaction = waiting on the Node.js
// process). A way to split a transaction's wall time between PostgreSQL and the server's CPU
// without touching the server.
import postgres from "postgres";

export interface ActivitySampler {
  stop(): Promise<{ samples: number; busySamples: number; states: [string, number][] }>;
}

/** Normalises a statement to its first words, e.g. `insert into "orders"`, `select … from requests`. */
function label(state: string, query: string): string {
  const q = query.replace(/\s+/g, " ").trim().toLowerCase().replace(/"/g, "");
  const m =
    /^(insert into \S+|update \S+(?: [a-z])? set \S+ = \S+|delete from \S+|select .*? from \S+|select \S+|\S+( \S+)?)/.exec(
      q,
    );
  const stmt = (m?.[1] ?? q).replace(/^select (.{30}).*? from/, "select $1… from");
  return state === "idle in transaction"
    ? `idle in transaction (waiting on Node.js) after: ${stmt}`
    : `executing: ${stmt}`;
}

export function sampleActivity(databaseUrl: string, everyMs = 2): ActivitySampler {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  const counts = new Map<string, number>();
  let samples = 0;
  let busySamples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const rows = await sql<{ state: string; query: string }[]>`
        select state, query from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()
           and backend_type = 'client backend'
           and state in ('active', 'idle in transaction')
           and query not like 'LISTEN%'`;
      samples++;
      if (rows.length > 0) busySamples++;
      for (const r of rows) {
        const key = label(r.state, r.query);
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await sql.end();
      return { samples, busySamples, states: [...counts].sort((a, b) => b[1] - a[1]) };
    },
  };
}

export function activityText(r: Awaited<ReturnType<ActivitySampler["stop"]>>, top = 12): string {
  const total = r.states.reduce((a, [, n]) => a + n, 0);
  return [
    `${r.samples} samples of pg_stat_activity; server connections busy (active or in a transaction) in ${r.busySamples}`,
    "share of connection-samples in each state:",
    ...r.states.slice(0, top).map(([k, n]) => `  ${((100 * n) / total).toFixed(1).padStart(5)} %  ${k}`),
  ].join("\n");
}
