// The mock's public event type is the contract's, written out (types.ts says why): the two stay equal.
import type { WebhookEventBody as ContractWebhookEventBody } from "@oisr/contract";
import { expectTypeOf, test } from "vitest";
import type { WebhookEventBody } from "./types.ts";

test("the mock's WebhookEventBody is the contract's", () => {
  expectTypeOf<WebhookEventBody>().toEqualTypeOf<ContractWebhookEventBody>();
});
