// The handler types (http/typed.ts) resolve to the spec's shapes, and a handler that strays from
// them does not compile. Checked by `vitest --typecheck` (part of this package's `npm test`).
import type { components } from "@oisr/contract/schema";
import type { IngestBodies } from "@oisr/domain";
import { describe, expectTypeOf, it } from "vitest";
import {
  type OperationBody,
  type OperationParams,
  type OperationQuery,
  type OperationReply,
  type OperationRequest,
  type OperationResponse,
  type OperationSuccess,
  operation,
} from "../http/typed.ts";

type Schemas = components["schemas"];

describe("request types", () => {
  it("give the path parameters of the operation, as strings", () => {
    expectTypeOf<OperationRequest<"getOrder">["params"]>().toEqualTypeOf<{ identifier: string }>();
    expectTypeOf<OperationParams<"ingestDispositions">>().toEqualTypeOf<{ return_id: string }>();
    // No path parameters: nothing to read.
    expectTypeOf<OperationParams<"listOrders">>().toEqualTypeOf<Record<string, never>>();
  });

  it("give the query as the OpenAPI middleware leaves it: limit a number, filters the spec's enums", () => {
    type Query = OperationQuery<"listRequests">;
    expectTypeOf<Query["limit"]>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Query["cursor"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Query["kind"]>().toEqualTypeOf<Schemas["RequestKind"] | undefined>();
    expectTypeOf<OperationRequest<"listOrders">["query"]>().toHaveProperty("updated_since");
  });

  it("give each ingest operation the spec's body, which is the domain's body of that kind", () => {
    expectTypeOf<OperationRequest<"ingestOrders">["body"]>().toEqualTypeOf<Schemas["OrdersIngestBody"]>();
    expectTypeOf<OperationBody<"ingestOrders">>().toEqualTypeOf<IngestBodies["orders"]>();
    expectTypeOf<OperationBody<"ingestInventory">>().toEqualTypeOf<IngestBodies["inventory"]>();
    expectTypeOf<OperationBody<"ingestShipments">>().toEqualTypeOf<IngestBodies["shipments"]>();
    expectTypeOf<OperationBody<"ingestReturns">>().toEqualTypeOf<IngestBodies["returns"]>();
    expectTypeOf<OperationBody<"ingestDispositions">>().toEqualTypeOf<IngestBodies["dispositions"]>();
    expectTypeOf<OperationBody<"updateWebhookSubscription">>().toEqualTypeOf<
      Schemas["WebhookSubscriptionUpdate"]
    >();
    // Reads take no body.
    expectTypeOf<OperationBody<"getOrder">>().toEqualTypeOf<undefined>();
  });
});

describe("response types", () => {
  it("are the spec's body for a status, and a handler answers only success bodies", () => {
    expectTypeOf<OperationResponse<"getOrder", 200>>().toEqualTypeOf<Schemas["Order"]>();
    expectTypeOf<OperationResponse<"listOrders", 200>>().toEqualTypeOf<Schemas["OrderPage"]>();
    expectTypeOf<OperationSuccess<"ingestOrders">>().toEqualTypeOf<Schemas["IngestAccepted"]>();
    expectTypeOf<OperationSuccess<"createWebhookSubscription">>().toEqualTypeOf<
      Schemas["WebhookSubscriptionWithSecret"]
    >();
    // 204: no body at all.
    expectTypeOf<OperationSuccess<"deleteWebhookSubscription">>().toEqualTypeOf<never>();
    expectTypeOf<OperationReply<"getOrder">["json"]>()
      .parameter(0)
      .toEqualTypeOf<Schemas["Order"] | undefined>();
  });
});

describe("operation()", () => {
  it("types the handler from the operation it names", () => {
    operation("getOrder", (req, res) => {
      expectTypeOf(req.params.identifier).toEqualTypeOf<string>();
      expectTypeOf(res.locals.account.id).toEqualTypeOf<string>();
      expectTypeOf(res.locals.traceId).toEqualTypeOf<string>();
    });
  });

  it("refuses fields the operation does not have, and answers of another shape", () => {
    operation("getOrder", (req, res) => {
      // @ts-expect-error getOrder's path parameter is `identifier`
      req.params.order_id;
      // @ts-expect-error getOrder has no query parameters
      req.query.limit.toFixed();
      // @ts-expect-error an order page is not an order
      res.json({ data: [], next_cursor: "", has_more: false });
    });
    operation("ingestOrders", (req, res) => {
      // @ts-expect-error the orders body holds `orders`, not `returns`
      req.body.returns;
      // @ts-expect-error the acknowledgement needs request_id and trace_id
      res.status(202).json({ message: "accepted" });
    });
    operation("listRequests", (req) => {
      // @ts-expect-error `kind` is the spec's enum, not any string
      const kind: Schemas["RequestKind"] | undefined = req.query.kind === "order" ? "orders" : undefined;
      return void kind;
    });
    // @ts-expect-error not an operation of the spec
    operation("getOrders", () => {});
  });
});
