// CORS: browsers (which always send Origin cross-origin) get the headers they need; authenticated
// server-to-server calls without Origin skip that work; unauthenticated answers keep the headers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type RunningServer, startServer } from "../src/index.ts";

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
  token = (await server.services.accounts.createAccount("cors")).token;
});
afterAll(() => server.close());

const ORIGIN = "https://shop.example";

describe("CORS on /v2", () => {
  it("a browser's authenticated call gets Access-Control-Allow-Origin and the exposed rate-limit and trace headers", async () => {
    const res = await fetch(`${server.url}/orders`, {
      headers: { authorization: `Bearer ${token}`, origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const exposed = res.headers.get("access-control-expose-headers")?.split(",") ?? [];
    expect(exposed).toEqual(
      expect.arrayContaining([
        "X-Trace-Id",
        "X-RateLimit-Remaining",
        "Retry-After",
        "Location",
        "WWW-Authenticate",
      ]),
    );
  });

  it("a preflight is answered 204 with the allowed methods and a 600 s max age", async () => {
    const res = await fetch(`${server.url}/ingest/orders`, {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization,content-type,idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")).toBe(
      "authorization,content-type,idempotency-key",
    );
    expect(res.headers.get("access-control-max-age")).toBe("600");
  });

  it("an authenticated call without Origin (a server, an ERP) gets no CORS headers", async () => {
    const res = await fetch(`${server.url}/orders`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    expect(res.headers.get("x-ratelimit-remaining")).toMatch(/^\d+$/);
  });

  it("unauthenticated answers keep the headers without Origin, so a cached copy also serves browsers", async () => {
    const spec = await fetch(`${server.url}/openapi.json`);
    expect(spec.status).toBe(200);
    expect(spec.headers.get("access-control-allow-origin")).toBe("*");
    const unauthorized = await fetch(`${server.url}/orders`);
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get("access-control-allow-origin")).toBe("*");
  });
});
