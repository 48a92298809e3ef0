// limit is decimal digits (issue 25): the validator's Ajv alone reads `0x10` as 16 and `1e1` as 10.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { type RunningServer, startServer } from "../server.ts";

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
  token = (await server.services.accounts.createAccount("limits")).token;
});
afterAll(() => server.close());

const get = async (path: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json() };
};

describe("integer query parameters", () => {
  // %2B is "+" ("+" itself is a space in a query), %20 a space.
  it.each(["0x10", "1e1", "0b11", "0o7", "5.0", "%2B5", "%205", "5%20", "-5", "Infinity", "1e3"])(
    "limit=%s is 400 validation_failed at /query/limit, that error alone",
    async (limit) => {
      const res = await get(`/orders?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors).toEqual([
        { pointer: "/query/limit", code: "type", message: "must be integer" },
      ]);
    },
  );

  it("is listed with the call's other errors", async () => {
    const res = await get("/orders?limit=0x10&status=nope");
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      "/query/limit",
      "/query/status",
    ]);
  });

  it("on an operation without limit, it is still an unknown parameter", async () => {
    const res = await get("/orders/A?limit=0x10");
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ pointer: "/query/limit", code: "invalid" })]);
  });

  it.each([
    ["1", 200],
    ["200", 200],
    ["007", 200],
    ["0", 400],
    ["201", 400],
  ])("limit=%s is %d", async (limit, status) => {
    expect((await get(`/orders?limit=${limit}`)).status).toBe(status);
  });
});
