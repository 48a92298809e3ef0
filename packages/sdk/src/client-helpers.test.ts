import { afterEach, describe, expect, it, vi } from "vitest";
import { NotFoundError, RequestFailedError } from "./errors.ts";
import { ack, client, order, REQUEST_ID, record } from "./internal/client-fixtures.ts";
import { json, problem } from "./internal/test-utils.ts";
import type { RequestRecord } from "./types.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("ingestAndWait and requests", () => {
  it("polls the request until it succeeds, reporting progress", async () => {
    vi.useFakeTimers();
    const { client: c, calls } = client({
      "POST /ingest/orders": ack,
      [`GET /requests/${REQUEST_ID}`]: [
        record("pending"),
        record("processing"),
        record("succeeded", {
          result: {
            created: 1,
            updated: 0,
            unchanged: 0,
            stale: 0,
            items: [{ index: 0, type: "order", id: "ord_1", outcome: "created" }],
          },
        }),
      ],
    });
    const progress: string[] = [];
    const p = c.orders.ingestAndWait([order], { onProgress: (r) => progress.push(r.status) });
    await vi.advanceTimersByTimeAsync(1_000);
    const final = await p;
    expect(final.status).toBe("succeeded");
    expect(progress).toEqual(["pending", "processing", "succeeded"]);
    expect(calls.filter((x) => x.method === "GET")).toHaveLength(3);
  });

  it.each(["failed", "dead"] as const)(
    "throws RequestFailedError carrying the record when the request is %s",
    async (status) => {
      vi.useFakeTimers();
      const errors: RequestRecord["errors"] =
        status === "failed"
          ? [{ pointer: "/orders/0/lines/0/quantity", code: "line_below_shipped", message: "below shipped" }]
          : [];
      const error: RequestRecord["error"] =
        status === "dead" ? { code: "processing_failed", message: "Processing failed" } : null;
      const { client: c } = client({
        "POST /ingest/orders": ack,
        [`GET /requests/${REQUEST_ID}`]: record(status, { errors, error }),
      });
      const p = c.orders.ingestAndWait([order]).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(500);
      const err = (await p) as RequestFailedError;
      expect(err).toBeInstanceOf(RequestFailedError);
      expect(err.record.status).toBe(status);
      expect(err.record.errors).toEqual(errors);
    },
  );

  it("requests.waitFor resumes by id and returns a failed record without throwing", async () => {
    const { client: c } = client({ [`GET /requests/${REQUEST_ID}`]: record("failed") });
    await expect(c.requests.waitFor(REQUEST_ID)).resolves.toMatchObject({ status: "failed" });
  });

  it("requests.get maps 404 to NotFoundError", async () => {
    const { client: c } = client({});
    await expect(c.requests.get(REQUEST_ID)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("lists", () => {
  it("iterate sends the filters with every cursor and yields every item", async () => {
    const { client: c, calls } = client({
      "GET /orders": (req: Request) => {
        const cursor = new URL(req.url).searchParams.get("cursor");
        if (!cursor)
          return json({ data: [{ id: "ord_1" }, { id: "ord_2" }], next_cursor: "c1", has_more: true });
        return json({ data: [{ id: "ord_3" }], next_cursor: "c2", has_more: false });
      },
    });
    const ids: string[] = [];
    for await (const o of c.orders.iterate({ status: "open", limit: 2 })) ids.push(o.id);
    expect(ids).toEqual(["ord_1", "ord_2", "ord_3"]);
    const queries = calls.map((x) => Object.fromEntries(new URL(x.url).searchParams));
    expect(queries).toEqual([
      { status: "open", limit: "2" },
      { status: "open", limit: "2", cursor: "c1" },
    ]);
  });

  it("changes yields {order, cursor} and {return, cursor} and resumes with the filters", async () => {
    const page = (data: unknown[], next: string) => json({ data, next_cursor: next, has_more: false });
    const { client: c, calls } = client({
      "GET /orders": page([{ id: "ord_1" }], "o1"),
      "GET /returns": page([{ id: "ret_1" }], "r1"),
    });
    const controller = new AbortController();
    for await (const change of c.orders.changes({
      cursor: "o0",
      source: "pos-1",
      signal: controller.signal,
    })) {
      expect(change).toEqual({ order: { id: "ord_1" }, cursor: "o1" });
      controller.abort();
    }
    const controller2 = new AbortController();
    for await (const change of c.returns.changes({ signal: controller2.signal })) {
      expect(change).toEqual({ return: { id: "ret_1" }, cursor: "r1" });
      controller2.abort();
    }
    expect(Object.fromEntries(new URL(calls[0]?.url ?? "").searchParams)).toEqual({
      cursor: "o0",
      source: "pos-1",
    });
  });
});

describe("webhooks", () => {
  it("covers create, get, update, delete, rotateSecret, test and deliveries", async () => {
    const sub = { id: "whs_1", url: "https://x.test/hook" };
    const { client: c, calls } = client({
      "POST /webhook_subscriptions": json({ ...sub, secret: "whsec_AAAA" }, 201),
      "GET /webhook_subscriptions/*": json(sub),
      "PATCH /webhook_subscriptions/*": json(sub),
      "DELETE /webhook_subscriptions/*": new Response(null, { status: 204 }),
      "POST /webhook_subscriptions/*/rotate_secret": json({ ...sub, secret: "whsec_BBBB" }),
      "POST /webhook_subscriptions/*/test": json({ event_id: "evt_1" }, 202),
      "GET /webhook_subscriptions/*/deliveries": json({ data: [], next_cursor: "d0", has_more: false }),
    });
    expect((await c.webhooks.create({ url: sub.url, events: ["return.completed"] })).secret).toBe(
      "whsec_AAAA",
    );
    expect(await c.webhooks.get("whs_1")).toEqual(sub);
    await c.webhooks.update("whs_1", { status: "disabled" });
    await expect(c.webhooks.delete("whs_1")).resolves.toBeUndefined();
    expect((await c.webhooks.rotateSecret("whs_1")).secret).toBe("whsec_BBBB");
    await c.webhooks.test("whs_1");
    expect((await c.webhooks.deliveries("whs_1")).data).toEqual([]);
    expect(calls.map((x) => `${x.method} ${new URL(x.url).pathname}`)).toEqual([
      "POST /v2/webhook_subscriptions",
      "GET /v2/webhook_subscriptions/whs_1",
      "PATCH /v2/webhook_subscriptions/whs_1",
      "DELETE /v2/webhook_subscriptions/whs_1",
      "POST /v2/webhook_subscriptions/whs_1/rotate_secret",
      "POST /v2/webhook_subscriptions/whs_1/test",
      "GET /v2/webhook_subscriptions/whs_1/deliveries",
    ]);
    expect(calls.every((x) => !x.headers.has("idempotency-key"))).toBe(true);
  });
});

describe("raw", () => {
  it("shares auth and retries and returns { data, error } instead of throwing", async () => {
    const { client: c, calls } = client({
      "GET /orders/*": [
        problem(503, "service_unavailable", { "retry-after": "0" }),
        problem(404, "not_found"),
      ],
    });
    const { data, error, response } = await c.raw.GET("/orders/{identifier}", {
      params: { path: { identifier: "A-1" } },
    });
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ code: "not_found" });
    expect(response.status).toBe(404);
    expect(calls).toHaveLength(2);
    expect(calls[1]?.headers.get("authorization")).toBe("Bearer oisr_test");
  });

  it("aborts a call through the caller's signal", async () => {
    const { client: c } = client({
      "GET /orders/*": (req: Request) =>
        new Promise<Response>((_, reject) =>
          req.signal.addEventListener("abort", () => reject(req.signal.reason)),
        ),
    });
    const controller = new AbortController();
    const p = c.orders.get("A-1", { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
  });
});

describe("throttle option", () => {
  it("holds the next call of a scope until X-RateLimit-Reset once Remaining hits 0, without touching other scopes", async () => {
    vi.useFakeTimers({ now: Date.UTC(2025, 0, 1, 12, 0, 0) });
    const page = () =>
      json({ data: [], next_cursor: "c", has_more: false }, 200, {
        "x-ratelimit-limit": "1",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": String(Date.now() / 1000 + 5),
        date: new Date().toUTCString(),
      });
    const { client: c, calls } = client({ "GET /orders": page, "GET /returns": page }, { throttle: true });
    await c.orders.list();
    const second = c.orders.list();
    await c.returns.list(); // another scope: not held
    await vi.advanceTimersByTimeAsync(4_900);
    expect(calls.map((x) => new URL(x.url).pathname)).toEqual(["/v2/orders", "/v2/returns"]);
    await vi.advanceTimersByTimeAsync(1_200); // reset + margin
    await second;
    expect(calls).toHaveLength(3);
  });
});
