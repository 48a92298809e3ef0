// Benchmark 3: processing latency on PostgreSQL. Single-order requests at a steady rate; for
// each, the time from receiving its 202 until `GET /v2/requests/{id}` first shows `succeeded`,
// measured by a tight poll loop per request (the next GET leaves as soon as the previous answers).
// Also the server's own view from the record's timestamps, so queueing and polling overhead show.
//   node bench/latency.ts     (BENCH_LATENCY_RATE=20 per s, BENCH_LATENCY_SECONDS=20)
import { api, epochMs, sleep } from "./lib/client.ts";
import { meterText, runMeter } from "./lib/cpu.ts";
import { order } from "./lib/fixtures.ts";
import { freshDatabase, NO_RATE_LIMITS, startOisr } from "./lib/processes.ts";
import { fmt, printTable, type Row, spread } from "./lib/report.ts";

const RATE = Number(process.env.BENCH_LATENCY_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 20);
const WARMUP_SECONDS = 3;

interface Sample {
  ackMs: number;
  visibleMs: number;
  polls: number;
  status: string;
  queuedMs: number;
  toApplyStartMs: number;
}

interface RequestRecord {
  status: string;
  accepted_at: string;
  started_at: string | null;
  completed_at: string | null;
}

const db = await freshDatabase();
try {
  const server = await startOisr(db.url, { OISR_RATE_LIMITS: NO_RATE_LIMITS });
  try {
    const client = api(server.url, server.token);
    let seq = 0;
    const getMs: number[] = [];

    async function one(): Promise<Sample> {
      const body = JSON.stringify({ orders: [order(`lat-${++seq}`)] });
      const sent = performance.now();
      const ack = await client.post("/ingest/orders", body);
      const acked = performance.now();
      if (ack.status !== 202) throw new Error(`POST ${ack.status}: ${JSON.stringify(ack.json)}`);
      const id = ack.json.request_id as string;
      let polls = 0;
      for (;;) {
        const t = performance.now();
        const res = await client.get<RequestRecord>(`/requests/${id}`);
        getMs.push(performance.now() - t);
        polls++;
        const r = res.json;
        if (r.status !== "pending" && r.status !== "processing") {
          const accepted = epochMs(r.accepted_at);
          return {
            ackMs: acked - sent,
            visibleMs: performance.now() - acked,
            polls,
            status: r.status,
            queuedMs: epochMs(r.started_at as string) - accepted,
            toApplyStartMs: epochMs(r.completed_at as string) - accepted,
          };
        }
      }
    }

    /** Starts one request every 1/RATE s on an absolute schedule (no drift), for `seconds`. */
    async function steady(seconds: number): Promise<Sample[]> {
      const every = 1000 / RATE;
      const start = performance.now();
      const running: Promise<Sample>[] = [];
      for (let k = 0; k < seconds * RATE; k++) {
        const wait = start + k * every - performance.now();
        if (wait > 0) await sleep(wait);
        running.push(one());
      }
      return Promise.all(running);
    }

    await steady(WARMUP_SECONDS);
    getMs.length = 0;
    const meter = await runMeter(db.url, { server: server.child.pid as number });
    const samples = await steady(SECONDS);
    const cpu = await meter();

    const seen = spread(samples.map((s) => s.visibleMs));
    const applyStart = spread(samples.map((s) => s.toApplyStartMs));
    const queued = spread(samples.map((s) => s.queuedMs));
    const ack = spread(samples.map((s) => s.ackMs));
    const polls = spread(samples.map((s) => s.polls));
    const get = spread(getMs);
    const failed = samples.filter((s) => s.status !== "succeeded").length;
    const ms = (x: number) => fmt(x, 1);
    const quad = (s: ReturnType<typeof spread>) =>
      `${ms(s.p50)} / ${ms(s.p90)} / ${ms(s.p99)} / ${ms(s.max)}`;
    const rows: Row[] = [
      { figure: "202 received → GET shows succeeded, p50, ms", value: ms(seen.p50), goal: "≤ 20 ms" },
      { figure: "202 received → GET shows succeeded, p99, ms", value: ms(seen.p99), goal: "≤ 100 ms" },
      { figure: "  same, p50 / p90 / p99 / max, ms", value: quad(seen) },
      {
        figure: "server view: accepted_at → completed_at, p50 / p90 / p99 / max, ms",
        value: quad(applyStart),
        summary: true,
      },
      {
        figure: "  of which accepted_at → started_at (waiting in the queue until claimed)",
        value: quad(queued),
      },
      { figure: "POST → 202, p50 / p90 / p99 / max, ms", value: quad(ack) },
      {
        figure: "GETs per request until succeeded, p50 / p99 / max",
        value: `${polls.p50} / ${polls.p99} / ${polls.max}`,
      },
      {
        figure: "one GET /requests/{id} round trip (the polling resolution), p50 / p90 / p99 / max, ms",
        value: quad(get),
      },
      { figure: "CPU cores used on average", value: meterText(cpu) },
      {
        figure: "requests measured (after warm-up); not succeeded",
        value: `${samples.length}; ${failed}`,
      },
    ];
    printTable(
      `Processing latency: 1-order requests at ${RATE}/s for ${SECONDS} s (after ${WARMUP_SECONDS} s warm-up), PostgreSQL, one process (role all)`,
      rows,
    );
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
}
