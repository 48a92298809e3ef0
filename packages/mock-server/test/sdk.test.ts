// The README's worked example, kept honest: code written with @oisr/sdk, tested offline against
// the mock through msw, including what is hard to provoke on a real server.
import { createClient, RateLimitError, RequestFailedError, verifyWebhook } from "@oisr/sdk";
import { HttpResponse, http } from "msw";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setupMockServer } from "../src/node/index.ts";
import { order, returnOf } from "./support.ts";

const api = setupMockServer();
beforeAll(() => api.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  api.controls.reset();
  api.server.resetHandlers();
});
afterAll(() => api.close());

const { token } = api.controls.createAccount("shop");
const client = createClient({ baseUrl: api.baseUrl, token, maxRetries: 0 });

describe("@oisr/sdk against the mock", () => {
  it("ingests and waits, then reads the order back", async () => {
    const record = await client.orders.ingestAndWait([order("A")]);
    expect(record).toMatchObject({ status: "succeeded", result: { created: 1 } });
    expect(await client.orders.get("A")).toMatchObject({ external_id: "A", status: "open" });
  });

  it("surfaces a dead request as RequestFailedError carrying the record", async () => {
    api.controls.failNext("dead", { token });
    const error = await client.orders.ingestAndWait([order("A")]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestFailedError);
    expect((error as RequestFailedError).record).toMatchObject({
      status: "dead",
      error: { code: "processing_failed" },
    });
  });

  it("reports business-rule rejections on seeded data", async () => {
    api.controls.seed(
      {
        orders: [order("A")],
        shipments: [
          {
            external_id: "S1",
            order_id: "A",
            carrier: "UPS",
            shipped_at: "2025-03-15T10:00:00Z",
            lines: [{ line_id: "L1", quantity: 1 }],
          },
        ],
      },
      { token },
    );
    const cancel = order("A", { status: "cancelled", source_updated_at: "2025-03-16T00:00:00Z" });
    await expect(client.orders.ingestAndWait([cancel])).rejects.toMatchObject({
      record: { status: "failed", errors: [{ code: "order_has_shipments" }] },
    });
    expect(api.store.account(token).order("A")?.status).toBe("partially_shipped");
  });

  it("surfaces a 429 as RateLimitError with the wait from Retry-After", async () => {
    api.controls.clock.freeze();
    api.controls.exhaustRateLimit("ingest", token);
    const error = await client.orders.ingest([order("A")]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(60_000);
  });

  it("delivers webhooks the SDK's verifyWebhook accepts", async () => {
    const received: { body: string; headers: Headers }[] = [];
    api.server.use(
      http.post("https://hooks.example.test/oisr", async ({ request }) => {
        received.push({ body: await request.text(), headers: request.headers });
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const subscription = await client.webhooks.create({
      url: "https://hooks.example.test/oisr",
      events: ["return.created"],
    });
    await client.orders.ingestAndWait([order("A")]);
    await client.returns.ingestAndWait([returnOf("RMA-1", "A")]);
    await api.controls.flush();
    expect(received).toHaveLength(1);
    const [delivery] = received as [{ body: string; headers: Headers }];
    const event = await verifyWebhook(delivery.body, delivery.headers, subscription.secret);
    expect(event).toMatchObject({ type: "return.created", data: { object: { external_id: "RMA-1" } } });
  });
});
