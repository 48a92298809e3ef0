// docs/product.md §4, §5 and §8 scaled out: two API processes and two worker processes on one database,
// with the default ingest limit (600 per 60 s). 601 ingests in concurrent bursts across both APIs:
// exactly 600 accepted and one 429; each accepted request applied exactly once; and a feed poller
// running while they are processed sees all 600 orders. PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiResponse, Json } from "../../src/client.ts";
import { order } from "../../src/fixtures.ts";
import { type Client, client, expectProblem } from "../../src/harness.ts";
import { waitFor } from "../../src/poll.ts";
import { adminUrl, drainFeed, listAll, type Minter, systemAt } from "../../src/processes.ts";
import {
  accountMinter,
  freshDatabase,
  type SpawnedServer,
  type System,
  spawnServer,
} from "../../src/targets.ts";

const REASON = "(PostgreSQL only: needs DATABASE_URL, PGlite cannot be shared by processes)";
const LIMIT = 600;

describe.skipIf(!adminUrl)(`two API and two worker processes on one database ${REASON}`, () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let minter: Minter;
  const servers: SpawnedServer[] = [];
  let systems: System[] = [];

  beforeAll(async () => {
    db = await freshDatabase(adminUrl as string);
    const env = {
      DATABASE_URL: db.url,
      // The ingest limit stays at its default; reads are relaxed so the poller and the checks never trip them.
      OISR_RATE_LIMITS: JSON.stringify({ orders_read: 100_000, requests_read: 100_000 }),
    };
    // The first process runs the migrations; the others start once they are done.
    const first = spawnServer({ ...env, OISR_ROLE: "api" });
    servers.push(first);
    const firstUrl = await first.ready;
    const rest = [
      spawnServer({ ...env, OISR_ROLE: "api" }),
      spawnServer({ ...env, OISR_ROLE: "worker" }),
      spawnServer({ ...env, OISR_ROLE: "worker" }),
    ];
    servers.push(...rest);
    const [secondUrl] = await Promise.all(rest.map((s) => s.ready));
    minter = await accountMinter(db.url);
    systems = [firstUrl, secondUrl as string].map((url) => systemAt(url, db.url, minter));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await minter?.close();
    await db?.drop();
  });

  it(`${LIMIT + 1} ingests in concurrent bursts across both APIs: exactly ${LIMIT} accepted and one 429; each applied exactly once; a feed poller sees every order`, async () => {
    const account = await minter.create("scale");
    const [a, b] = systems.map((s) => client(s, account)) as [Client, Client];
    const sent: { externalId: string; via: number; res: ApiResponse }[] = [];

    // The poller follows next_cursor through both APIs in turn while the requests are accepted and processed.
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    let polling = true;
    let polls = 0;
    let pagesWhileProcessing = 0;
    const poller = (async () => {
      while (polling) {
        const page = await drainFeed(polls++ % 2 ? a : b, cursor);
        cursor = page.cursor;
        if (page.items.length > 0) pagesWhileProcessing++;
        for (const o of page.items) seen.set(o.external_id, (seen.get(o.external_id) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    const started = performance.now();
    const total = LIMIT + 1;
    const burst = 50;
    for (let offset = 0; offset < total; offset += burst) {
      // Every 200 calls, wait until the poller has seen what was accepted so far: the feed is then
      // read between commits for certain. Without it a loaded machine's workers could apply all 600
      // in one stage (a stage takes up to 1,000 requests), and the poller would see one page only.
      if (offset > 0 && offset % 200 === 0) {
        const soFar = sent.filter((s) => s.res.status === 202).map((s) => s.externalId);
        await waitFor(
          async () => (soFar.every((id) => seen.has(id)) ? true : undefined),
          `the poller to see the first ${soFar.length} orders`,
          { timeoutMs: 30_000, intervalMs: 20 },
        );
      }
      const n = Math.min(burst, total - offset);
      const results = await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const via = (offset + i) % 2;
          const o = order();
          const res = await (via ? b : a).post("/ingest/orders", { orders: [o] });
          return { externalId: o.external_id, via, res };
        }),
      );
      sent.push(...results);
    }
    const acceptMs = performance.now() - started;

    const accepted = sent.filter((s) => s.res.status === 202);
    const refused = sent.filter((s) => s.res.status === 429);
    expect(sent.filter((s) => s.res.status !== 202 && s.res.status !== 429).map((s) => s.res.text)).toEqual(
      [],
    );
    expect(accepted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(1);
    const problem = expectProblem(refused[0]?.res as ApiResponse, 429, "rate_limited");
    expect(problem.status).toBe(429);
    expect(Number(refused[0]?.res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused[0]?.res.headers.get("x-ratelimit-remaining")).toBe("0");
    // Both APIs took part.
    expect(new Set(accepted.map((s) => s.via)).size).toBe(2);

    // Every accepted request ends succeeded, on its first attempt.
    const ids = new Set(accepted.map((s) => s.res.body.request_id as string));
    const records = await waitFor(
      async () => {
        const all = (await listAll(a, "/requests")).filter((r: Json) => ids.has(r.request_id));
        return all.length === LIMIT &&
          all.every((r: Json) => r.status === "succeeded" || r.status === "failed" || r.status === "dead")
          ? all
          : undefined;
      },
      "every accepted request to be final",
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const processedMs = performance.now() - started;
    // On failure, the processes' warnings say why a stage rolled back (worker/rollback.ts).
    const rollbacks = () =>
      servers
        .flatMap((s) => s.output().split("\n"))
        .filter((line) => line.includes("rolled back"))
        .join("\n");
    expect(
      records.filter((r: Json) => r.status !== "succeeded" || r.attempts !== 1),
      rollbacks(),
    ).toEqual([]);
    for (const r of records)
      expect(r.result).toMatchObject({ created: 1, updated: 0, unchanged: 0, stale: 0 });
    // Nothing beyond the 600 was stored.
    expect((await listAll(b, "/requests")).length).toBe(LIMIT);

    // The poller sees all of them, each once (orders are never updated here), without a fresh start.
    const expected = accepted.map((s) => s.externalId);
    await waitFor(
      async () => (expected.every((id) => seen.has(id)) ? true : undefined),
      "the poller to see every order",
      {
        timeoutMs: 15_000,
        intervalMs: 50,
      },
    );
    polling = false;
    await poller;
    expect(expected.filter((id) => !seen.has(id))).toEqual([]);
    expect([...seen.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(seen.size).toBe(LIMIT);
    // At least one read for each 200 calls before the last: the waits above.
    expect(pagesWhileProcessing).toBeGreaterThanOrEqual(3);
    const { items } = await drainFeed(a, undefined);
    expect(items).toHaveLength(LIMIT);
    expect(items.every((o) => o.version === 1)).toBe(true);
    console.info(
      `scale: ${LIMIT + 1} ingests answered in ${Math.round(acceptMs)} ms, all processed after ${Math.round(processedMs)} ms, poller read ${polls} times`,
    );
  });
});
