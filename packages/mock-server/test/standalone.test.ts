// The standalone HTTP server (real sockets, no msw interception) and the oisr-mock bin.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type StandaloneServer, startMockServer } from "../src/node/index.ts";
import { order } from "./support.ts";

let server: StandaloneServer;
const auth = { authorization: "Bearer oisr_standalone", "content-type": "application/json" };

beforeAll(async () => {
  server = await startMockServer({ port: 0 });
});
afterAll(() => server.close());

describe("startMockServer", () => {
  it("serves the API over HTTP with the mock's state and rules", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
    const ack = await fetch(`${server.url}/ingest/orders`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ orders: [order("A")] }),
    });
    expect(ack.status).toBe(202);
    const { request_id } = (await ack.json()) as { request_id: string };
    await server.mock.controls.flush();
    const record = await (await fetch(`${server.url}/requests/${request_id}`, { headers: auth })).json();
    expect(record).toMatchObject({ status: "succeeded" });
    const head = await fetch(`${server.url}/orders/A`, { method: "HEAD", headers: auth });
    expect(head.status).toBe(405);
    expect(head.headers.get("allow")).toBe("GET");
    expect(await (await fetch(`${server.origin}/healthz`)).json()).toEqual({ status: "ok" });
    const unknown = await fetch(`${server.origin}/nope`);
    expect([unknown.status, unknown.headers.get("content-type")]).toEqual([
      404,
      "application/problem+json; charset=utf-8",
    ]);
  });

  it("answers a request line over Node's header limit with a 431 problem, as the server does", async () => {
    const res = await fetch(`${server.url}/orders?cursor=${"a".repeat(100_000)}`, { headers: auth });
    expect(res.status).toBe(431);
    expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    const traceId = res.headers.get("x-trace-id");
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(await res.json()).toMatchObject({
      type: "https://oisr.dev/problems/request_header_fields_too_large",
      title: "Request header fields too large",
      status: 431,
      code: "request_header_fields_too_large",
      trace_id: traceId,
    });
    // The next call on a new connection is served as usual.
    expect((await fetch(`${server.origin}/healthz`)).status).toBe(200);
  });

  it("exposes the controls under /__mock/", async () => {
    const created = await fetch(`${server.origin}/__mock/accounts`, { method: "POST", body: "{}" });
    const { token, apiKeyId } = (await created.json()) as { token: string; apiKeyId: string };
    await fetch(`${server.origin}/__mock/fail-next`, {
      method: "POST",
      body: JSON.stringify({ outcome: "failed", token }),
    });
    const ack = await fetch(`${server.url}/ingest/orders`, {
      method: "POST",
      headers: { ...auth, authorization: `Bearer ${token}` },
      body: JSON.stringify({ orders: [order("B")] }),
    });
    await fetch(`${server.origin}/__mock/flush`, { method: "POST" });
    const requests = (await (await fetch(`${server.origin}/__mock/requests?token=${token}`)).json()) as {
      request_id: string;
      status: string;
    }[];
    expect(requests).toEqual([
      expect.objectContaining({
        request_id: ((await ack.json()) as { request_id: string }).request_id,
        status: "failed",
        api_key_id: apiKeyId,
      }),
    ]);
    // An optional body may be left out over HTTP too (no Content-Type, nothing sent).
    const rotated = await fetch(`${server.url}/api_keys/${apiKeyId}/rotate`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(rotated.status).toBe(200);
    await fetch(`${server.origin}/__mock/tokens/revoke`, { method: "POST", body: JSON.stringify({ token }) });
    expect(
      (await fetch(`${server.url}/orders`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(401);
    const bad = await fetch(`${server.origin}/__mock/nope`, { method: "POST" });
    expect(bad.status).toBe(404);
  });
});

describe("oisr-mock bin", () => {
  it("starts, prints its base URL, and answers", async () => {
    const bin = new URL("../src/cli.ts", import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, "--port", "0", "--rate-limits", '{"orders_read":7}'], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
          const match = /API: (\S+)/.exec(out);
          if (match?.[1]) resolve(match[1]);
        });
        child.once("exit", (code) => reject(new Error(`oisr-mock exited with ${code}: ${out}`)));
      });
      const res = await fetch(`${url}/orders`, { headers: { authorization: "Bearer oisr_anything" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("7");
    } finally {
      child.kill();
    }
    // The bin type-strips the sources and compiles the schemas before it listens: 3.3 to 7.4 s
    // measured on this two-core machine under the load of a shared test run, over vitest's 5 s.
  }, 30_000);
});
