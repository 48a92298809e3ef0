// Slow and idle clients cannot hold connections: an unauthenticated call is closed right after its
// 401, and the header, request and keep-alive timeouts and the connection cap are applied.
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { type RunningServer, startServer } from "./server.ts";

let server: RunningServer;
let token: string;
let host: string;
let port: number;

beforeAll(async () => {
  server = await startServer(
    loadConfig({
      PORT: "0",
      LOG_LEVEL: "silent",
      OISR_DATA_DIR: "memory://",
      OISR_HEADERS_TIMEOUT_MS: "500",
      OISR_REQUEST_TIMEOUT_MS: "1500",
      OISR_KEEP_ALIVE_TIMEOUT_MS: "300",
      OISR_MAX_CONNECTIONS: "4",
    }),
  );
  token = (await server.services.accounts.createAccount("limits")).token;
  const origin = new URL(server.origin as string);
  host = origin.hostname;
  port = Number(origin.port);
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  text(): string;
  /** Resolves once `pattern` has been received; rejects after `ms`. */
  received(pattern: RegExp, ms: number): Promise<number>;
  /** Milliseconds until the server closed the connection, or undefined if still open after `ms`. */
  closedWithin(ms: number): Promise<number | undefined>;
}

async function rawClient(): Promise<RawClient> {
  const socket = connect(port, host);
  let text = "";
  let closed = false;
  socket.setEncoding("latin1");
  socket.on("data", (chunk: string) => {
    text += chunk;
  });
  // Writes racing the server's close end in ECONNRESET or EPIPE: a close like any other here.
  socket.on("error", () => {});
  socket.on("close", () => {
    closed = true;
  });
  await once(socket, "connect");
  return {
    socket,
    text: () => text,
    async received(pattern, ms) {
      const start = Date.now();
      while (!pattern.test(text)) {
        if (Date.now() - start > ms) throw new Error(`not received within ${ms} ms: ${JSON.stringify(text)}`);
        await sleep(10);
      }
      return Date.now() - start;
    },
    async closedWithin(ms) {
      const start = Date.now();
      while (!closed) {
        if (Date.now() - start > ms) return undefined;
        await sleep(10);
      }
      return Date.now() - start;
    },
  };
}

describe("an unauthenticated call", () => {
  it("trickling its body is answered 401 at once and its connection closed right after", async () => {
    const client = await rawClient();
    client.socket.write(
      "POST /v2/ingest/orders HTTP/1.1\r\nHost: oisr\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    );
    // One byte every 200 ms, as a slowloris client would, until the server hangs up.
    const drip = setInterval(() => {
      if (!client.socket.destroyed) client.socket.write(" ");
    }, 200);
    try {
      await client.received(/^HTTP\/1\.1 401 /, 2000);
      // Well before the 1.5 s request timeout, which would close it too.
      expect(await client.closedWithin(500)).toBeDefined();
      expect(client.text()).toMatch(/\r\nconnection: close\r\n/i);
      expect(client.text()).toMatch(/\r\nwww-authenticate: Bearer realm="oisr"\r\n/i);
      // A 408 status line, not the digits anywhere: a random trace id can hold "408".
      expect(client.text()).not.toMatch(/HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
      client.socket.destroy();
    }
  });

  it("with an unknown token is closed after its 401 too", async () => {
    const client = await rawClient();
    client.socket.write(
      "POST /v2/ingest/orders HTTP/1.1\r\nHost: oisr\r\nAuthorization: Bearer oisr_unknown\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
    );
    try {
      await client.received(/^HTTP\/1\.1 401 /, 2000);
      expect(await client.closedWithin(500)).toBeDefined();
    } finally {
      client.socket.destroy();
    }
  });
});

describe("timeouts", () => {
  it("a client that never finishes its headers is answered 408 and closed (OISR_HEADERS_TIMEOUT_MS=500)", async () => {
    const client = await rawClient();
    client.socket.write("GET /v2/orders HTTP/1.1\r\nHost: oisr\r\nX-Slow: a");
    try {
      const ms = await client.received(/^HTTP\/1\.1 408 /, 3000);
      expect(ms).toBeGreaterThanOrEqual(400);
      expect(await client.closedWithin(1000)).toBeDefined();
    } finally {
      client.socket.destroy();
    }
  });

  it("an authenticated client trickling its body is answered 408 and closed (OISR_REQUEST_TIMEOUT_MS=1500)", async () => {
    const client = await rawClient();
    client.socket.write(
      `POST /v2/ingest/orders HTTP/1.1\r\nHost: oisr\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    const drip = setInterval(() => {
      if (!client.socket.destroyed) client.socket.write(" ");
    }, 200);
    try {
      const ms = await client.received(/^HTTP\/1\.1 408 /, 4000);
      expect(ms).toBeGreaterThanOrEqual(1000);
      expect(await client.closedWithin(1000)).toBeDefined();
    } finally {
      clearInterval(drip);
      client.socket.destroy();
    }
  });

  it("an idle keep-alive connection is closed after OISR_KEEP_ALIVE_TIMEOUT_MS=300", async () => {
    const client = await rawClient();
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: oisr\r\n\r\n");
    try {
      await client.received(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n/, 2000);
      expect(client.text()).toMatch(/\r\nconnection: keep-alive\r\n/i);
      const ms = await client.closedWithin(2000);
      expect(ms).toBeDefined();
      expect(ms).toBeGreaterThanOrEqual(200);
    } finally {
      client.socket.destroy();
    }
  });
});

describe("a request line and headers over Node's limit", () => {
  it("is answered 431 problem+json with a trace id, also after a call on the same connection, and closed", async () => {
    const client = await rawClient();
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: oisr\r\n\r\n");
    await client.received(/^HTTP\/1\.1 200 [\s\S]*\r\n\r\n[\s\S]*\}/, 2000);
    client.socket.write(`GET /v2/orders?cursor=${"a".repeat(100_000)} HTTP/1.1\r\nHost: oisr\r\n\r\n`);
    try {
      await client.received(/HTTP\/1\.1 431 Request Header Fields Too Large\r\n[\s\S]*\r\n\r\n\{.*\}$/, 3000);
      expect(await client.closedWithin(1000)).toBeDefined();
      const answer = client.text().slice(client.text().indexOf("HTTP/1.1 431"));
      const [head = "", body = ""] = answer.split("\r\n\r\n");
      expect(head).toMatch(/\r\ncontent-type: application\/problem\+json; charset=utf-8\r\n/i);
      expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
      const traceId = /\r\nx-trace-id: ([0-9a-f]{32})(\r\n|$)/i.exec(head)?.[1];
      expect(JSON.parse(body)).toMatchObject({
        type: "https://oisr.dev/problems/request_header_fields_too_large",
        status: 431,
        code: "request_header_fields_too_large",
        trace_id: traceId,
      });
    } finally {
      client.socket.destroy();
    }
  });
});

describe("connection cap", () => {
  it("drops connections beyond OISR_MAX_CONNECTIONS=4", async () => {
    const held = await Promise.all([rawClient(), rawClient(), rawClient(), rawClient()]);
    try {
      // Let the server accept the four before the fifth arrives.
      await sleep(100);
      const extra = await rawClient();
      expect(await extra.closedWithin(300)).toBeDefined();
      expect(extra.text()).toBe("");
    } finally {
      for (const client of held) client.socket.destroy();
    }
    // Room again once they are gone.
    await sleep(100);
    const client = await rawClient();
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: oisr\r\nConnection: close\r\n\r\n");
    await client.received(/^HTTP\/1\.1 200 /, 2000);
    client.socket.destroy();
  });
});
