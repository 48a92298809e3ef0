import { createServer as createHttpServer, STATUS_CODES } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { HTTP_STATUS_TEXT } from "@oisr/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedLookup, type SendOptions, sendWebhook as sendOrHold } from "./http-sender.ts";
import type { Resolver } from "./ssrf-guard.ts";
import { type Receiver, startReceiver } from "./test-support.ts";

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((req) =>
    req.path.endsWith("/gone")
      ? 410
      : req.path.endsWith("/teapot")
        ? 418
        : req.path.endsWith("/slow")
          ? new Promise(() => {})
          : 204,
  );
});
afterAll(() => receiver.close());

const open = { allowPrivateNetworks: true, timeoutMs: 2000 };

/** sendWebhook without `hold`: it always sends, so it always answers. */
async function sendWebhook(url: string, headers: Record<string, string>, body: string, options: SendOptions) {
  const result = await sendOrHold(url, headers, body, options);
  if (result === null) throw new Error("held back without a hold signal");
  return result;
}

describe("sendWebhook", () => {
  it("posts the body and headers, and reports a 2xx as success", async () => {
    const result = await sendWebhook(
      receiver.url,
      { "content-type": "application/json", "webhook-id": "evt_1" },
      '{"a":1}',
      open,
    );
    expect(result).toMatchObject({ ok: true, status: 204 });
    const got = receiver.received.at(-1);
    expect(got?.body).toBe('{"a":1}');
    expect(got?.headers["webhook-id"]).toBe("evt_1");
  });

  it.each([
    ["/gone", { ok: false, status: 410, error: "HTTP 410 Gone" }],
    ["/slow", { ok: false, error: "timeout" }],
    ["/teapot", { ok: false, status: 418, error: "HTTP 418 I'm a Teapot" }],
  ])("reports %s as a failure", async (path, expected) => {
    const result = await sendWebhook(receiver.url.replace("/hooks", path), {}, "{}", {
      ...open,
      timeoutMs: 200,
    });
    expect(result).toMatchObject(expected);
  });

  it.each([
    [429, "3", 3],
    [503, () => new Date(Date.now() + 5000).toUTCString(), expect.toSatisfy((s: number) => s >= 4 && s <= 5)],
    [500, "3", undefined], // only 429 and 503 ask to slow down
    [429, "whenever", undefined],
  ])("keeps the Retry-After of a %i", async (status, header, seconds) => {
    const answering = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(status, { "retry-after": typeof header === "function" ? header() : header }).end();
    });
    await new Promise<void>((r) => answering.listen(0, "127.0.0.1", r));
    const { port } = answering.address() as AddressInfo;
    try {
      const result = await sendWebhook(`http://127.0.0.1:${port}/`, {}, "{}", open);
      expect(result).toMatchObject({ ok: false, status });
      expect(result.ok ? undefined : result.retryAfterSeconds).toEqual(seconds);
    } finally {
      await new Promise((r) => answering.close(r));
    }
  });

  it("keeps the start of the answer's body and its content type, and reads no further", async () => {
    let finished = false;
    // 5 kB, then the answer stays open: a sender that read to the end would wait for the timeout.
    const answering = createHttpServer((req, res) => {
      req.resume();
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" });
      res.write(`signature mismatch ${"x".repeat(5000)}`);
      res.on("close", () => {
        finished = true;
      });
    });
    await new Promise<void>((r) => answering.listen(0, "127.0.0.1", r));
    const { port } = answering.address() as AddressInfo;
    try {
      const started = Date.now();
      const result = await sendWebhook(`http://127.0.0.1:${port}/`, {}, "{}", { ...open, timeoutMs: 5000 });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(result).toMatchObject({ ok: false, status: 400, error: "HTTP 400 Bad Request" });
      expect(result.response).toEqual({
        contentType: "text/plain; charset=utf-8",
        body: `signature mismatch ${"x".repeat(5000)}`.slice(0, 1024),
      });
      // The connection is closed rather than drained.
      await expect.poll(() => finished).toBe(true);
    } finally {
      answering.closeAllConnections();
      await new Promise((r) => answering.close(r));
    }
  });

  it("keeps no body and no content type when the answer has neither", async () => {
    const result = await sendWebhook(receiver.url, {}, "{}", open);
    expect(result).toMatchObject({ ok: true, status: 204, response: { body: null, contentType: null } });
  });

  it("sends nothing when the subscription was paused (hold) before the request went out", async () => {
    const before = receiver.received.length;
    const hold = new AbortController();
    hold.abort();
    expect(await sendOrHold(receiver.url, {}, "{}", { ...open, hold: hold.signal })).toBeNull();
    // The same attempt with the hold not aborted does go out: the receiver sees it, and only it.
    expect(
      await sendWebhook(receiver.url, {}, "{}", { ...open, hold: new AbortController().signal }),
    ).toMatchObject({
      ok: true,
    });
    expect(receiver.received.length).toBe(before + 1);
  });

  it("reports a refused connection", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const { port } = closed.address() as AddressInfo;
    await new Promise((r) => closed.close(r));
    expect(await sendWebhook(`http://127.0.0.1:${port}/`, {}, "{}", open)).toMatchObject({
      ok: false,
      error: "connection refused",
    });
  });

  it("never connects when the host resolves to a forbidden address at delivery time", async () => {
    let connections = 0;
    const trap = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((r) => trap.listen(0, "127.0.0.1", r));
    const { port } = trap.address() as AddressInfo;
    // Passed the check when saved; now the name points at loopback (DNS rebinding).
    const rebound: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const result = await sendWebhook(`https://hooks.example.com:${port}/`, {}, "{}", {
      allowPrivateNetworks: false,
      timeoutMs: 500,
      resolve: rebound,
    });
    await new Promise((r) => trap.close(r));
    expect(result).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^url not allowed: .*127\.0\.0\.1/),
    });
    expect(connections).toBe(0);
  });
});

describe("the delivery error text", () => {
  it("spells every non-2xx final status as node:http does (the mock, which has no node:http, uses the same table)", () => {
    const node = Object.fromEntries(Object.entries(STATUS_CODES).filter(([code]) => Number(code) >= 300));
    expect(HTTP_STATUS_TEXT).toEqual(
      Object.fromEntries(Object.entries(node).map(([k, v]) => [Number(k), v])),
    );
  });
});

describe("pinnedLookup", () => {
  it("answers only with the addresses that were checked, whatever the host name", async () => {
    const lookup = pinnedLookup([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
    const single = await new Promise((resolve) =>
      lookup("evil.example", {}, (err, address, family) => resolve({ err, address, family })),
    );
    expect(single).toEqual({ err: null, address: "93.184.216.34", family: 4 });
    const all = await new Promise((resolve) =>
      lookup("evil.example", { all: true }, (_err, addresses) => resolve(addresses)),
    );
    expect(all).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
  });
});
