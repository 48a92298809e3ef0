// The route table against the spec: it answers every authenticated operation and no other, and
// each handler's inputs and answers are its operation's. Checked by `vitest --typecheck` (part of
// this package's `npm test`) and by `tsc --noEmit`.
import type { components, operations } from "@oisr/contract/schema";
import type { IngestBodies } from "@oisr/domain";
import { describe, expectTypeOf, it } from "vitest";
import type { ApiOperationId, OperationResult, RouteContext, RouteHandler, RouteTable } from "./context.ts";
import { routes } from "./index.ts";

type Schemas = components["schemas"];
declare const order: Schemas["Order"];

/**
 * Every operation of the spec but the unauthenticated service routes core.ts serves itself and the
 * webhooks (`on…`), which the mock sends. An operation added to the spec is in here, so it fails
 * the checks below until the table has its handler.
 */
type SpecApiOperation = Exclude<
  keyof operations,
  "getOpenApiDocument" | "getHealth" | "getReadiness" | `on${string}`
>;

describe("the route table", () => {
  it("has a handler for every authenticated operation of the spec, and no other key", () => {
    expectTypeOf<ApiOperationId>().toEqualTypeOf<SpecApiOperation>();
    expectTypeOf<keyof typeof routes>().toEqualTypeOf<SpecApiOperation>();
    expectTypeOf<keyof RouteTable>().toEqualTypeOf<SpecApiOperation>();
  });

  it("refuses a table that lacks a handler or misspells one", () => {
    const { getOrder, ...lacking } = routes;
    // @ts-expect-error getOrder has no handler
    const missing: RouteTable = lacking;
    // @ts-expect-error `getOrders` is not an operation of the spec, and getOrder is still missing
    const misspelt: RouteTable = { ...lacking, getOrders: getOrder };
    // @ts-expect-error getRequest's handler answers another operation
    const swapped: RouteTable = { ...lacking, getOrder: routes.getRequest };
    return void [missing, misspelt, swapped];
  });
});

describe("a handler's inputs", () => {
  it("are its operation's path parameters, as strings", () => {
    expectTypeOf<RouteContext<"getOrder">["params"]>().toEqualTypeOf<{ identifier: string }>();
    expectTypeOf<RouteContext<"ingestDispositions">["params"]>().toEqualTypeOf<{ return_id: string }>();
    expectTypeOf<RouteContext<"listOrders">["params"]>().toEqualTypeOf<Record<string, never>>();
  });

  it("are its operation's query, coerced to the spec's types", () => {
    expectTypeOf<RouteContext<"listRequests">["query"]["limit"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<RouteContext<"listRequests">["query"]["kind"]>().toEqualTypeOf<
      Schemas["RequestKind"] | undefined
    >();
  });

  it("are its operation's JSON body, so no handler casts it", () => {
    expectTypeOf<RouteContext<"createApiKey">["body"]>().toEqualTypeOf<Schemas["ApiKeyCreate"]>();
    expectTypeOf<RouteContext<"rotateApiKey">["body"]>().toEqualTypeOf<Schemas["ApiKeyRotate"] | undefined>();
    expectTypeOf<RouteContext<"createWebhookSubscription">["body"]>().toEqualTypeOf<
      Schemas["WebhookSubscriptionCreate"]
    >();
    expectTypeOf<RouteContext<"ingestOrders">["body"]>().toEqualTypeOf<IngestBodies["orders"]>();
    expectTypeOf<RouteContext<"ingestDispositions">["body"]>().toEqualTypeOf<IngestBodies["dispositions"]>();
    expectTypeOf<RouteContext<"getOrder">["body"]>().toEqualTypeOf<undefined>();
  });
});

describe("a handler's answer", () => {
  it("is one of its operation's success statuses with the spec's body", () => {
    expectTypeOf<OperationResult<"getOrder">>().toEqualTypeOf<{
      status: 200;
      body: Schemas["Order"];
      headers?: Record<string, string>;
    }>();
    expectTypeOf<OperationResult<"ingestOrders">["body"]>().toEqualTypeOf<Schemas["IngestAccepted"]>();
    expectTypeOf<OperationResult<"deleteWebhookSubscription">["status"]>().toEqualTypeOf<204>();
  });

  it("refuses another status or another body", () => {
    const orderPage = { data: [], next_cursor: "", has_more: false };
    // @ts-expect-error getOrder answers 200, not 201
    const created: RouteHandler<"getOrder"> = () => ({ status: 201, body: order });
    // @ts-expect-error an order page is not an order
    const page: RouteHandler<"getOrder"> = () => ({ status: 200, body: orderPage });
    return void [created, page];
  });
});
