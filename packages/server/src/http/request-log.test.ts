import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger.ts";
import { REDACTED, redactHeaders, redactUrl, requestLogger } from "./request-log.ts";
import { traceMiddleware } from "./trace.ts";

let output = "";
const KEY_ID = "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD";
let server: Server;
let origin: string;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      output += String(chunk);
      done();
    },
  });
  const app = express();
  app.set("query parser", "simple");
  app.use(traceMiddleware);
  app.use(requestLogger(createLogger("info", sink)));
  app.get("/things", (_req, res) => {
    res.setHeader("Set-Cookie", "sid=s3cr3t-session");
    res.json({ ok: true });
  });
  // As accessMiddleware leaves it for a /v2 call.
  app.get("/keyed", (_req, res) => {
    res.locals.apiKey = { id: KEY_ID, permissions: ["orders:read"], expiresAtMs: null };
    res.json({ ok: true });
  });
  app.get("/healthz", (_req, res) => {
    res.json({ ok: true });
  });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The log lines written since `from`, once one for the answered call has arrived. */
async function linesSince(from: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 100 && !output.slice(from).includes("request completed"); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return output
    .slice(from)
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("requestLogger", () => {
  it("logs the call without a credential sent in the query, a header or a cookie", async () => {
    const from = output.length;
    const res = await fetch(`${origin}/things?access_token=oisr_secret123&limit=5&Api%5FKey=ak999`, {
      headers: {
        "X-Api-Key": "k123",
        Cookie: "a=b",
        Authorization: "Bearer oisr_x",
        "X-Session-Id": "sess-42",
        "X-Note": "see oisr_leaked",
        Referer: "https://shop.example/cb?code=c0de99&page=2",
      },
    });
    expect(res.status).toBe(200);
    const lines = await linesSince(from);
    const text = JSON.stringify(lines);
    for (const secret of [
      "oisr_secret123",
      "oisr_x",
      "k123",
      "a=b",
      "ak999",
      "sess-42",
      "oisr_leaked",
      "c0de99",
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain("s3cr3t-session");

    const line = lines.find((l) => l.msg === "request completed") as {
      req: { url: string; query: Record<string, unknown>; headers: Record<string, unknown> };
      res: { headers: Record<string, unknown> };
      traceId: string;
    };
    expect(line.req.url).toBe(`/things?access_token=${REDACTED}&limit=5&Api%5FKey=${REDACTED}`);
    expect(line.req.query).toEqual({ access_token: REDACTED, limit: "5", Api_Key: REDACTED });
    expect(line.req.headers).toMatchObject({
      "x-api-key": REDACTED,
      cookie: REDACTED,
      authorization: REDACTED,
      "x-session-id": REDACTED,
      "x-note": `see ${REDACTED}`,
      referer: `https://shop.example/cb?code=${REDACTED}&page=2`,
    });
    expect(line.res.headers["set-cookie"]).toBe(REDACTED);
    expect(line.traceId).toMatch(/^[\da-f]{32}$/);
    expect(text).toContain("limit=5");
  });

  it("names the calling API key by its id, and no key for a call without one", async () => {
    const from = output.length;
    await fetch(`${origin}/keyed`, { headers: { Authorization: "Bearer oisr_keyed_secret" } });
    const [keyed] = (await linesSince(from)).filter((l) => l.msg === "request completed");
    expect(keyed?.apiKeyId).toBe(KEY_ID);
    expect(JSON.stringify(keyed)).not.toContain("oisr_keyed_secret");

    const next = output.length;
    await fetch(`${origin}/things`);
    const [plain] = (await linesSince(next)).filter((l) => l.msg === "request completed");
    expect(plain).not.toHaveProperty("apiKeyId");
  });

  it("leaves the live request's headers alone", async () => {
    const app = express();
    let seen: string | undefined;
    app.use(requestLogger(createLogger("info", new Writable({ write: (_c, _e, done) => done() }))));
    app.get("/", (req, res) => {
      res.on("finish", () => {
        seen = req.headers.authorization;
      });
      res.end();
    });
    const s = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => s.once("listening", resolve));
    await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}/`, {
      headers: { Authorization: "Bearer oisr_y" },
    });
    await new Promise<void>((resolve) => s.close(() => resolve()));
    expect(seen).toBe("Bearer oisr_y");
  });

  it("does not log probes", async () => {
    const from = output.length;
    await fetch(`${origin}/healthz`);
    await fetch(`${origin}/things`);
    const lines = await linesSince(from);
    expect(lines.map((l) => (l.req as { url: string }).url)).toEqual(["/things"]);
  });
});

describe("redaction rules", () => {
  it.each([
    ["/a?token=t&apikey=k&password=p&secret=s&auth=x&signature=g&session=n&jwt=j&code=c", 9],
    ["/a?client_secret=s&refresh_token=r&my_credential=c&x-auth-key=k", 4],
    ["/a?TOKEN=t&Password=p", 2],
  ])("redacts every credential-like parameter of %s", (url, count) => {
    const redacted = redactUrl(url);
    expect(redacted.split(REDACTED).length - 1).toBe(count);
    expect(redacted).not.toMatch(/=[tkpsxgnjcr]($|&)/);
  });

  it("keeps ordinary parameters, bare names and the path", () => {
    expect(redactUrl("/v2/orders?limit=5&status=open&cursor=abc&flag")).toBe(
      "/v2/orders?limit=5&status=open&cursor=abc&flag",
    );
    expect(redactUrl("/v2/orders")).toBe("/v2/orders");
  });

  it("redacts an OISR token under any name or in the path", () => {
    expect(redactUrl("/v2/oisr_abc-_9?q=oisr_def")).toBe(`/v2/${REDACTED}?q=${REDACTED}`);
  });

  it("redacts credential headers by name and keeps the others", () => {
    expect(
      redactHeaders({
        authorization: "Bearer x",
        "proxy-authorization": "Basic y",
        cookie: "a=b",
        "set-cookie": ["a=b", "c=d"],
        "x-api-key": "k",
        "x-auth-token": "t",
        "x-client-secret": "s",
        "x-signature": "g",
        "content-type": "application/json",
        "user-agent": "curl/8",
      }),
    ).toEqual({
      authorization: REDACTED,
      "proxy-authorization": REDACTED,
      cookie: REDACTED,
      "set-cookie": REDACTED,
      "x-api-key": REDACTED,
      "x-auth-token": REDACTED,
      "x-client-secret": REDACTED,
      "x-signature": REDACTED,
      "content-type": "application/json",
      "user-agent": "curl/8",
    });
  });
});
