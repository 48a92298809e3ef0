import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

// The published files, not src/: both module formats must load and work the same.
const require = createRequire(import.meta.url);
const formats = {
  esm: () => import("../dist/index.js"),
  cjs: async () => require("../dist/index.cjs") as typeof import("../dist/index.js"),
};

describe.each(Object.entries(formats))("dist (%s)", (_format, load) => {
  it("ingests through an injected fetch with an idempotency key", async () => {
    const sdk = await load();
    const seen: Request[] = [];
    const client = sdk.createClient({
      baseUrl: "https://api.test/v2",
      token: "oisr_x",
      fetch: async (request: Request) => {
        seen.push(request);
        return new Response(JSON.stringify({ message: "Accepted", request_id: "r1", trace_id: "t" }), {
          status: 202,
          headers: { "content-type": "application/json" },
        });
      },
    });
    const ack = await client.shipments.ingest([]);
    expect(ack.request_id).toBe("r1");
    expect(seen[0]?.headers.get("idempotency-key")).toBeTruthy();
  });

  it("verifies what it signs and exports the error classes", async () => {
    const sdk = await load();
    const secret = sdk.generateWebhookSecret();
    const payload = {
      id: "evt_1",
      type: "webhook.test",
      created_at: "2025-01-01T00:00:00Z",
      data: { object: { subscription_id: "whs_1", message: "hi" } },
    } as const;
    const { body, headers } = await sdk.signWebhook({ payload, secret });
    await expect(sdk.verifyWebhook(body, headers, secret)).resolves.toEqual(payload);
    expect(
      new sdk.NotFoundError(404, { type: "t", title: "Not found", status: 404 }, new Headers()),
    ).toBeInstanceOf(sdk.ApiError);
  });

  it("gives raw responses, calls the hooks and sends the traceparent", async () => {
    const sdk = await load();
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    const seen: Request[] = [];
    const events: string[] = [];
    const client = sdk.createClient({
      baseUrl: "https://api.test/v2",
      token: "oisr_x",
      traceparent: () => traceparent,
      hooks: {
        onRequest: ({ attempt }) => void events.push(`request ${attempt}`),
        onResponse: ({ response }) => void events.push(`response ${response.status}`),
      },
      fetch: async (request: Request) => {
        seen.push(request);
        return new Response(JSON.stringify({ id: "ord_1" }), {
          headers: { "content-type": "application/json", "x-trace-id": "4bf92f3577b34da6a3ce929d0e0e4736" },
        });
      },
    });
    const { data, response } = await client.orders.get("A-1").withResponse();
    expect(data).toEqual({ id: "ord_1" });
    expect(response.headers.get("x-trace-id")).toBe("4bf92f3577b34da6a3ce929d0e0e4736");
    expect(seen[0]?.headers.get("traceparent")).toBe(traceparent);
    expect(events).toEqual(["request 1", "response 200"]);
  });
});
