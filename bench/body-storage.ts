// What storing and reading a request body costs PostgreSQL, as jsonb (the column before migration
// 0022) and as json (since; decision 028): one backend's CPU (/proc/<pid>/stat) over BENCH_BODIES
// bodies of 1,000 orders each (e2e-throughput's), stored through the accept statement's recordset
// and read back, with the parameters typed as the server sends them (`$1::jsonb`, `$1::json`,
// prepared, the driver passing the text as is, as drizzle sets it). Casting through text instead
// (`$1::text::jsonb`) measures another, much slower path (decision 028, "Tried and dropped").
//   node bench/body-storage.ts     (BENCH_BODIES=40, BENCH_ROUNDS=2; DATABASE_URL as for the others)
import postgres from "postgres";
import { cpuSeconds } from "./lib/cpu.ts";
import { order } from "./lib/fixtures.ts";
import { freshDatabase } from "./lib/processes.ts";
import { fmt, printTable, ratio, spread } from "./lib/report.ts";

const BODIES = Number(process.env.BENCH_BODIES ?? 40);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));

const db = await freshDatabase();
const sql = postgres(db.url, { max: 1, onnotice: () => {} });
// The server's driver passes json and jsonb parameters as the text it is given (drizzle sets these).
const serializers = (sql as unknown as { options: { serializers: Record<number, (x: unknown) => unknown> } })
  .options.serializers;
serializers[114] = (x) => x;
serializers[3802] = (x) => x;

try {
  const [backend] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  const pid = (backend as { pid: number }).pid;
  const lz4 = await sql<{ ok: boolean }[]>`select 'lz4' = any(enumvals) as ok from pg_settings
    where name = 'default_toast_compression'`;
  const compression = lz4[0]?.ok ? "lz4" : "pglz";
  await sql.unsafe(`create table body_jsonb (id int, body jsonb not null);
    create table body_json (id int, body json not null);
    alter table body_jsonb alter column body set compression ${compression};
    alter table body_json alter column body set compression ${compression};`);
  const bodies = Array.from({ length: BODIES }, (_, r) =>
    JSON.stringify({ orders: Array.from({ length: 1000 }, (_, i) => order(`body-${r}-${i}`)) }),
  );

  /** Milliseconds of the backend's CPU per body. */
  const perBody = async (run: (body: string, i: number) => Promise<unknown>) => {
    const before = cpuSeconds(pid);
    for (let i = 0; i < bodies.length; i++) await run(bodies[i] as string, i);
    return ((cpuSeconds(pid) - before) * 1000) / bodies.length;
  };
  const batch = (body: string, i: number) => `[{"i":${i},"b":${body}}]`;
  const steps = {
    storeJsonb: (b: string, i: number) =>
      sql.unsafe(
        "insert into body_jsonb select x.i, x.b from jsonb_to_recordset($1::jsonb) as x(i int, b jsonb)",
        [batch(b, i)],
        { prepare: true },
      ),
    storeJson: (b: string, i: number) =>
      sql.unsafe(
        "insert into body_json select x.i, x.b from json_to_recordset($1::json) as x(i int, b json)",
        [batch(b, i)],
        { prepare: true },
      ),
    readJsonb: (_b: string, i: number) =>
      sql.unsafe("select body from body_jsonb where id = $1 limit 1", [i], { prepare: true }),
    readJson: (_b: string, i: number) =>
      sql.unsafe("select body from body_json where id = $1 limit 1", [i], { prepare: true }),
  };
  const figures: Record<keyof typeof steps, number[]> = {
    storeJsonb: [],
    storeJson: [],
    readJsonb: [],
    readJson: [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts from empty tables: it stores every body once as each type, then reads each back.
    if (round > 0) await sql.unsafe("truncate body_jsonb, body_json");
    for (const name of Object.keys(steps) as (keyof typeof steps)[])
      figures[name].push(await perBody(steps[name]));
  }
  const m = Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, spread(v).p50])) as Record<
    keyof typeof steps,
    number
  >;
  const rounds = (xs: number[]) => xs.map((x) => fmt(x, 1)).join(", ");
  printTable(
    `Request body storage: ${BODIES} bodies of 1,000 orders (${fmt(bodies[0]?.length ?? 0)} bytes), PostgreSQL CPU per body, ${compression}, median of ${ROUNDS} rounds`,
    [
      {
        figure: "store through the accept statement's recordset, ms: json (since 0022)",
        value: `${fmt(m.storeJson, 1)} (rounds ${rounds(figures.storeJson)})`,
        baseline: `jsonb ${fmt(m.storeJsonb, 1)} (rounds ${rounds(figures.storeJsonb)})`,
        ratio: ratio(m.storeJson, m.storeJsonb),
      },
      {
        figure: "read back, ms: json (since 0022)",
        value: `${fmt(m.readJson, 1)} (rounds ${rounds(figures.readJson)})`,
        baseline: `jsonb ${fmt(m.readJsonb, 1)} (rounds ${rounds(figures.readJsonb)})`,
        ratio: ratio(m.readJson, m.readJsonb),
      },
    ],
  );
} finally {
  await sql.end();
  await db.drop();
}
