// OISR_READ_DATABASE_URL (decision 021): refused without PostgreSQL; a replica that cannot be
// reached, at start or later, leaves the feeds on the primary and /readyz ready; a real replica
// (OISR_REPLICA_URL, scripts/replica.sh) serves them, through transaction pooling too.
import { connect, createServer, type Server, type Socket } from "node:net";
import { order } from "@oisr/contract/fixtures";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, READ_REPLICA_NEEDS_POSTGRES } from "../config.ts";
import { type RunningServer, startServer } from "../server.ts";
import { openServices } from "../services.ts";
import { freshDatabase } from "./fresh-database.ts";

const adminUrl = process.env.DATABASE_URL;
const replicaUrl = process.env.OISR_REPLICA_URL;

describe("OISR_READ_DATABASE_URL without DATABASE_URL", () => {
  it("is refused at start: embedded PGlite has no replica", async () => {
    expect(() => loadConfig({ OISR_READ_DATABASE_URL: "postgres://127.0.0.1:5433/x" })).toThrow(
      READ_REPLICA_NEEDS_POSTGRES,
    );
    await expect(
      openServices({
        databaseUrl: undefined,
        dataDir: "memory://",
        readDatabaseUrl: "postgres://127.0.0.1:5433/x",
      }),
    ).rejects.toThrow(READ_REPLICA_NEEDS_POSTGRES);
  });
});

/** The database on the replica, once its creation has been replayed there. */
async function onReplica(url: string, replica: string): Promise<string> {
  const on = new URL(url);
  on.host = new URL(replica).host;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const probe = postgres(on.toString(), { max: 1, onnotice: () => {} });
    try {
      await probe`select 1`;
      return on.toString();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      await probe.end();
    }
  }
}

/** A TCP relay to `target` that can be cut: its connections reset, new ones refused. */
async function relay(target: URL): Promise<{ url: string; cut(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(target.toString());
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    async cut() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}

async function call(server: RunningServer, token: string, path: string, body?: unknown) {
  const res = await fetch(`${server.origin}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { data?: unknown[] } };
}

async function metric(server: RunningServer, name: string): Promise<number | undefined> {
  const text = await (await fetch(`${server.origin}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

const ENV = {
  PORT: "0",
  LOG_LEVEL: "silent",
  OISR_RATE_LIMITS: JSON.stringify({ ingest: 100_000, orders_read: 100_000, requests_read: 100_000 }),
};

describe.runIf(adminUrl)("a read replica that cannot be reached (PostgreSQL only)", () => {
  let fresh: { url: string; drop(): Promise<void> };
  let server: RunningServer;
  let token: string;
  beforeAll(async () => {
    fresh = await freshDatabase(adminUrl as string);
    // Nothing listens on port 1: connections are refused from the start.
    server = await startServer(
      loadConfig({
        ...ENV,
        DATABASE_URL: fresh.url,
        OISR_READ_DATABASE_URL: "postgres://postgres@127.0.0.1:1/x",
      }),
    );
    token = (await server.services.accounts.createAccount("replica-down")).token;
  });
  afterAll(async () => {
    await server?.close();
    await fresh?.drop();
  });

  it("does not stop the start; the feeds are read from the primary and /readyz stays 200, reporting it", async () => {
    const o = order();
    const ack = await call(server, token, "/v2/ingest/orders", { orders: [o] });
    expect(ack.status).toBe(202);
    let listed: unknown[] = [];
    for (let i = 0; i < 200 && listed.length === 0; i++) {
      listed = (await call(server, token, "/v2/orders")).body.data ?? [];
      if (listed.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    expect(listed).toMatchObject([{ external_id: o.external_id }]);
    const ready = await fetch(`${server.origin}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", read_replica: { status: "unreachable" } });
    expect(await metric(server, "oisr_read_replica_up")).toBe(0);
  });
});

describe.runIf(adminUrl && replicaUrl)(
  "a real streaming replica, through transaction pooling (DATABASE_URL and OISR_REPLICA_URL only)",
  () => {
    let fresh: { url: string; drop(): Promise<void> };
    let server: RunningServer;
    let cutReplica: () => Promise<void>;
    let token: string;
    beforeAll(async () => {
      fresh = await freshDatabase(adminUrl as string);
      const replica = await relay(new URL(await onReplica(fresh.url, replicaUrl as string)));
      cutReplica = replica.cut;
      server = await startServer(
        loadConfig({
          ...ENV,
          DATABASE_URL: fresh.url,
          OISR_DATABASE_POOLING: "transaction",
          OISR_READ_DATABASE_URL: replica.url,
        }),
      );
      token = (await server.services.accounts.createAccount("replica")).token;
    });
    afterAll(async () => {
      await server?.close();
      await fresh?.drop();
    });

    it("serves the feeds, reports it reachable with its lag, and when it goes away mid-life the feeds go on from the primary", async () => {
      const ready = await fetch(`${server.origin}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: "ready", read_replica: { status: "reachable" } });
      expect(await server.services.reads.replica?.status()).toMatchObject({ reachable: true, standby: true });
      expect(await metric(server, "oisr_read_replica_up")).toBe(1);
      expect(await metric(server, "oisr_read_replica_lag_bytes")).toBeGreaterThanOrEqual(0);

      const seen = async (count: number) => {
        for (let i = 0; i < 400; i++) {
          const data = (await call(server, token, "/v2/orders")).body.data ?? [];
          if (data.length >= count) return data;
          await new Promise((r) => setTimeout(r, 25));
        }
        throw new Error(`GET /orders never listed ${count} orders`);
      };
      const [a, b] = [order(), order()];
      expect((await call(server, token, "/v2/ingest/orders", { orders: [a] })).status).toBe(202);
      expect(await seen(1)).toMatchObject([{ external_id: a.external_id }]);

      // The replica goes away (its connections reset, new ones refused): the next feed read is
      // answered from the primary, not a 503.
      await cutReplica();
      expect((await call(server, token, "/v2/ingest/orders", { orders: [b] })).status).toBe(202);
      expect(await seen(2)).toMatchObject([{ external_id: a.external_id }, { external_id: b.external_id }]);
      const after = await fetch(`${server.origin}/readyz`);
      expect(after.status).toBe(200);
      expect(await after.json()).toEqual({ status: "ready", read_replica: { status: "unreachable" } });
    });
  },
);
