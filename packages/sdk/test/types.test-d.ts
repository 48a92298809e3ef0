// The SDK's public types are the spec's (@oisr/contract/schema, generated from spec/openapi.yaml):
// what a call resolves to, what it takes, and what it refuses. Checked by `vitest --typecheck`
// (the "types" project of this package's `npm test`), against the sources the build publishes.
import type { components, operations, webhooks } from "@oisr/contract/schema";
import { describe, expectTypeOf, it } from "vitest";
import {
  type ApiKey,
  type ApiKeyWithSecret,
  type ApiPromise,
  type AuthenticationError,
  createClient,
  type Event,
  type EventPage,
  type OrderInput,
  type Permission,
  type PermissionError,
  type RequestEvent,
  verifyWebhook,
  type WebhookEvent,
  type WithResponse,
} from "../src/index.ts";

type Schemas = components["schemas"];

const client = createClient({ baseUrl: "https://api.example.com/v2", token: "oisr_test" });

describe("resources", () => {
  it("orders.get resolves to the spec's Order, and withResponse() to it and the Response", () => {
    expectTypeOf(client.orders.get).parameter(0).toEqualTypeOf<string>();
    expectTypeOf(client.orders.get).returns.toEqualTypeOf<ApiPromise<Schemas["Order"]>>();
    expectTypeOf(client.orders.get).returns.resolves.toEqualTypeOf<Schemas["Order"]>();
    const call = client.orders.get("A-1");
    expectTypeOf(call.withResponse()).resolves.toEqualTypeOf<WithResponse<Schemas["Order"]>>();
    expectTypeOf<WithResponse<Schemas["Order"]>["data"]>().toEqualTypeOf<Schemas["Order"]>();
    expectTypeOf<WithResponse<Schemas["Order"]>["response"]>().toEqualTypeOf<Response>();
  });

  it("lists resolve to the spec's pages and take the spec's query parameters", () => {
    expectTypeOf(client.orders.list).returns.resolves.toEqualTypeOf<Schemas["OrderPage"]>();
    expectTypeOf(client.events.list).returns.resolves.toEqualTypeOf<Schemas["EventPage"]>();
    expectTypeOf<EventPage>().toEqualTypeOf<Schemas["EventPage"]>();
    expectTypeOf(client.events.list)
      .parameter(0)
      .toEqualTypeOf<NonNullable<operations["listEvents"]["parameters"]["query"]> | undefined>();
    expectTypeOf(client.events.get).returns.resolves.toEqualTypeOf<Event>();
    expectTypeOf<Event>().toEqualTypeOf<Schemas["Event"]>();
  });

  it("webhooks.recover, getRecovery and retryDelivery take and resolve to the spec's types", () => {
    type RecoverBody = operations["recoverWebhookSubscription"]["requestBody"]["content"]["application/json"];
    expectTypeOf(client.webhooks.recover).parameter(1).toEqualTypeOf<RecoverBody>();
    expectTypeOf(client.webhooks.recover).returns.toEqualTypeOf<ApiPromise<Schemas["WebhookRecovery"]>>();
    expectTypeOf(client.webhooks.getRecovery).returns.resolves.toEqualTypeOf<Schemas["WebhookRecovery"]>();
    expectTypeOf(client.webhooks.retryDelivery).returns.resolves.toEqualTypeOf<Schemas["WebhookDelivery"]>();
    expectTypeOf<Schemas["WebhookDelivery"]["trigger"]>().toEqualTypeOf<
      "event" | "test" | "retry" | "recover"
    >();
    // `since` is required; nothing but the window is taken.
    // @ts-expect-error since is missing
    client.webhooks.recover("whs_1", { until: "2025-03-27T00:00:00Z" });
    // @ts-expect-error no such field
    client.webhooks.recover("whs_1", { since: "2025-03-26T00:00:00Z", types: ["return.created"] });
  });

  it("ingest takes OrderInput and acknowledges with the spec's IngestAccepted", () => {
    expectTypeOf(client.orders.ingest).parameter(0).toEqualTypeOf<OrderInput[]>();
    expectTypeOf(client.orders.ingest).returns.resolves.toEqualTypeOf<Schemas["IngestAccepted"]>();
    expectTypeOf(client.orders.ingestAndWait).returns.resolves.toEqualTypeOf<Schemas["RequestRecord"]>();
  });
});

describe("API keys", () => {
  it("Permission, ApiKey and ApiKeyWithSecret are the spec's", () => {
    expectTypeOf<Permission>().toEqualTypeOf<Schemas["Permission"]>();
    expectTypeOf<ApiKey>().toEqualTypeOf<Schemas["ApiKey"]>();
    expectTypeOf<ApiKeyWithSecret>().toEqualTypeOf<Schemas["ApiKeyWithSecret"]>();
  });

  it("keys.* take and resolve to the spec's types", () => {
    expectTypeOf(client.keys.create).returns.toEqualTypeOf<ApiPromise<Schemas["ApiKeyWithSecret"]>>();
    expectTypeOf(client.keys.create)
      .parameter(0)
      .toHaveProperty("permissions")
      .toEqualTypeOf<readonly Schemas["Permission"][]>();
    expectTypeOf(client.keys.list).returns.resolves.toEqualTypeOf<Schemas["ApiKeyPage"]>();
    expectTypeOf(client.keys.list)
      .parameter(0)
      .toEqualTypeOf<NonNullable<operations["listApiKeys"]["parameters"]["query"]> | undefined>();
    expectTypeOf(client.keys.iterate).returns.toEqualTypeOf<
      AsyncGenerator<Schemas["ApiKey"], void, undefined>
    >();
    expectTypeOf(client.keys.get).returns.resolves.toEqualTypeOf<Schemas["ApiKey"]>();
    expectTypeOf(client.keys.rotate).returns.toEqualTypeOf<ApiPromise<Schemas["ApiKeyWithSecret"]>>();
    expectTypeOf(client.keys.revoke).returns.resolves.toEqualTypeOf<Schemas["ApiKey"]>();
    expectTypeOf<ApiKeyWithSecret["secret"]>().toEqualTypeOf<string>();
  });

  it("the key errors expose the problem's members", () => {
    expectTypeOf<PermissionError["permission"]>().toEqualTypeOf<Schemas["Permission"] | undefined>();
    expectTypeOf<PermissionError["apiKeyId"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AuthenticationError["expiredAt"]>().toEqualTypeOf<string | undefined>();
  });

  it("refuses permissions the spec does not have and misspelt options", () => {
    client.keys.create({ name: "ERP", permissions: ["orders:read", "ingest:write"] });
    const reads = ["orders:read", "returns:read"] as const; // a readonly tuple is taken too
    client.keys.create({ name: "ERP", permissions: reads, expiresAt: new Date() });
    // @ts-expect-error not a permission of the spec (orders are read-only)
    client.keys.create({ name: "ERP", permissions: ["orders:write"] });
    // @ts-expect-error permissions are required
    client.keys.create({ name: "ERP" });
    // @ts-expect-error the SDK's options are camelCase: expiresAt
    client.keys.create({ name: "ERP", permissions: ["orders:read"], expires_at: "2026-01-01T00:00:00Z" });
    client.keys.rotate("key_1");
    client.keys.rotate("key_1", { overlapSeconds: 0 });
    // @ts-expect-error the overlap is a number of seconds
    client.keys.rotate("key_1", { overlapSeconds: "1h" });
    // @ts-expect-error the SDK's options are camelCase: overlapSeconds
    client.keys.rotate("key_1", { overlap_seconds: 60 });
  });
});

describe("OrderInput", () => {
  it("is the spec's OrderInput, `status` optional (the server defaults it to open)", () => {
    expectTypeOf<Omit<OrderInput, "status">>().toEqualTypeOf<Omit<Schemas["OrderInput"], "status">>();
    expectTypeOf<OrderInput["status"]>().toEqualTypeOf<Schemas["OrderInputStatus"] | undefined>();
    // The same type written differently (an intersection): each is assignable to the other.
    expectTypeOf<OrderInput>().toExtend<Schemas["OrderInput"]>();
    expectTypeOf<Schemas["OrderInput"]>().toExtend<OrderInput>();
  });
});

describe("verifyWebhook", () => {
  it("resolves to the union of every webhook body the spec declares", () => {
    // Distributes over the spec's webhooks (`return.created`, …, `webhook.test`).
    type JsonBody<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
    type SpecWebhookBody = JsonBody<webhooks[keyof webhooks]["post"]["requestBody"]>;
    expectTypeOf(verifyWebhook).returns.resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEvent>().toEqualTypeOf<
      Schemas["ReturnEvent"] | Schemas["RequestEvent"] | Schemas["WebhookTestEvent"]
    >();
    // The spec narrows each webhook's body to its own `type`; verifyWebhook's type holds them all,
    // and its `type` is exactly the spec's set of webhooks.
    expectTypeOf<SpecWebhookBody>().toExtend<WebhookEvent>();
    expectTypeOf<WebhookEvent["type"]>().toEqualTypeOf<keyof webhooks>();
  });
});

describe("verifyWebhook narrowing", () => {
  it("request.* events carry the request record, return.* events the return", async () => {
    const event = await verifyWebhook("{}", {}, "whsec_x");
    if (
      event.type === "request.failed" ||
      event.type === "request.succeeded" ||
      event.type === "request.dead"
    ) {
      expectTypeOf(event).toEqualTypeOf<RequestEvent>();
      expectTypeOf(event.data.object).toEqualTypeOf<Schemas["RequestEventObject"]>();
      expectTypeOf(event.data.object.errors).toEqualTypeOf<Schemas["ItemError"][]>();
      expectTypeOf(event.data.object.url).toEqualTypeOf<string>();
      // Left out for batches of more than 100 items.
      expectTypeOf(event.data.object.result)
        .exclude<null>()
        .toHaveProperty("items")
        .toEqualTypeOf<Schemas["RequestResultItem"][] | undefined>();
    }
    if (event.type === "return.completed") expectTypeOf(event.data.object).toEqualTypeOf<Schemas["Return"]>();
  });
});

describe("misuse does not compile", () => {
  it("refuses wrong arguments and fields the spec does not have", async () => {
    // @ts-expect-error an identifier is a string
    client.orders.get(1001);
    // @ts-expect-error an order needs currency, lines, placed_at, source…
    client.orders.ingest([{ external_id: "A-1" }]);
    // @ts-expect-error not an event type of the spec
    client.events.list({ type: ["order.created"] });
    // @ts-expect-error `limit` is a number
    client.orders.list({ limit: "100" });
    const order = await client.orders.get("A-1");
    // @ts-expect-error an order has no `sku` (its lines do)
    order.sku;
    const event = await verifyWebhook("{}", {}, "whsec_x");
    if (event.type === "webhook.test") {
      // @ts-expect-error narrowed on `type`: a test event's object is no return
      event.data.object.items;
    }
    if (event.type === "request.failed") {
      // @ts-expect-error narrowed on `type`: a request event's object is a request record, no return
      event.data.object.order_external_id;
      // @ts-expect-error and its record has no `version`
      event.data.object.version;
    }
  });
});
