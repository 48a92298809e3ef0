// The one source of the spec's `x-codeSamples` (issue 27 item 6): for each operation the
// @oisr/sdk call and, where the CLI has the command, the `oisr` command line. /docs (Scalar) shows
// them beside its own curl. scripts/generate.mjs adds them to the generated document (what
// /v2/openapi.json, /docs and the mock serve); spec/openapi.yaml stays hand-written. The SDK
// samples are type-checked against the built SDK by
// packages/contract-tests/test/code-samples.test.ts, the commands against `oisr --help`.
//
// A sample continues the setup below (the `oisr` client); the names it uses but does not define
// (`orders`, `requestId`, …) are the reader's, declared in that test.

/** What every SDK sample starts with: the client, made once. */
export const SDK_SETUP = `import { createClient } from "@oisr/sdk";

const oisr = createClient({ baseUrl: "https://api.example.com/v2", token: process.env.OISR_TOKEN ?? "" });
`;

/** The SDK call of every operation the SDK covers, by operationId. */
export const SDK_SAMPLES = {
  ingestOrders: `const ack = await oisr.orders.ingest(orders);
const record = await oisr.requests.waitFor(ack.request_id);`,
  ingestInventory: `const ack = await oisr.inventory.ingest(snapshots);`,
  ingestShipments: `const ack = await oisr.shipments.ingest(shipments);`,
  ingestReturns: `const ack = await oisr.returns.ingest(returns);`,
  ingestDispositions: `const ack = await oisr.returns.ingestDispositions("RMA-10042", dispositions);`,
  listOrders: `const page = await oisr.orders.list({ status: "open", limit: 100 });
for await (const order of oisr.orders.iterate({ source: "shopify" })) console.log(order.id);`,
  getOrder: `const order = await oisr.orders.get("5123456789012"); // server id or external_id`,
  listReturns: `const page = await oisr.returns.list({ status: "received" });`,
  getReturn: `const ret = await oisr.returns.get("RMA-10042"); // server id or external_id`,
  listRequests: `const page = await oisr.requests.list({ status: "dead" });`,
  retryRequests: `const sent = await oisr.requests.retryMany({ status: "dead", accepted_since: "2025-03-23T00:00:00Z" });
console.log(sent.count, sent.has_more);`,
  getRequest: `const record = await oisr.requests.get(requestId);
const final = await oisr.requests.waitFor(requestId); // polls until succeeded, failed or dead`,
  retryRequest: `const ack = await oisr.requests.retry(requestId);`,
  getRequestBody: `const body = await oisr.requests.body(requestId); // errors[].pointer points into it`,
  listInventory: `const page = await oisr.inventory.list({ location_id: "WH-PDX-01" });`,
  listWebhookSubscriptions: `const page = await oisr.webhooks.list();`,
  createWebhookSubscription: `const subscription = await oisr.webhooks.create({
  url: "https://example.com/webhooks/oisr",
  events: ["return.created", "return.completed"],
});
await secrets.put("OISR_WEBHOOK_SECRET", subscription.secret);`,
  getWebhookSubscription: `const subscription = await oisr.webhooks.get(subscriptionId);`,
  updateWebhookSubscription: `const subscription = await oisr.webhooks.update(subscriptionId, { status: "disabled" });`,
  deleteWebhookSubscription: `await oisr.webhooks.delete(subscriptionId);`,
  rotateWebhookSecret: `const { secret } = await oisr.webhooks.rotateSecret(subscriptionId);`,
  testWebhookSubscription: `const delivery = await oisr.webhooks.test(subscriptionId);`,
  listWebhookDeliveries: `const page = await oisr.webhooks.deliveries(subscriptionId);`,
  retryWebhookDelivery: `const delivery = await oisr.webhooks.retryDelivery(subscriptionId, deliveryId);`,
  recoverWebhookSubscription: `const recovery = await oisr.webhooks.recover(subscriptionId, { since: "2025-03-26T00:00:00Z" });`,
  getWebhookRecovery: `const recovery = await oisr.webhooks.getRecovery(subscriptionId, recoveryId);`,
  listEvents: `const page = await oisr.events.list({ type: ["return.created"] });`,
  getEvent: `const event = await oisr.events.get(eventId);`,
  listApiKeys: `const page = await oisr.keys.list();`,
  createApiKey: `const key = await oisr.keys.create({ name: "WMS poller", permissions: ["orders:read", "ingest:write"] });
await secrets.put("WMS_OISR_TOKEN", key.secret);`,
  getApiKey: `const key = await oisr.keys.get(apiKeyId);`,
  revokeApiKey: `const key = await oisr.keys.revoke(apiKeyId);`,
  rotateApiKey: `const { secret } = await oisr.keys.rotate(apiKeyId, { overlapSeconds: 3600 });`,
};

/** The `oisr` command of the operations the CLI has one for (OISR_BASE_URL and OISR_TOKEN set). */
export const CLI_SAMPLES = {
  ingestOrders: "oisr ingest orders orders.jsonl --report failures.jsonl",
  ingestInventory: "oisr ingest inventory snapshots.jsonl",
  ingestShipments: "oisr ingest shipments shipments.csv",
  ingestReturns: "oisr ingest returns returns.jsonl",
  ingestDispositions: "oisr ingest dispositions dispositions.jsonl",
  listOrders: "oisr orders watch --once",
  getRequest: "oisr requests get 019593ed-b960-7678-bfcc-cf7dbea23c69",
  getRequestBody: "oisr requests body 0195b7d2-ccdc-7d13-a202-55eb7622333b",
  retryRequest: "oisr requests retry 0195c0ba-79b7-7a23-a88a-a13755ffd8cf",
  retryRequests: "oisr requests retry --status dead --since 2025-03-23T00:00:00Z --all",
  retryWebhookDelivery: "oisr webhooks retry whs_01JN8S7QQT86WJ5VH5F0CXSRN7 whd_01JQE7K2M8Q4T0V6X1Z3B5D7F9",
  recoverWebhookSubscription:
    "oisr webhooks recover whs_01JN8S7QQT86WJ5VH5F0CXSRN7 --since 2025-03-26T00:00:00Z --wait",
  listApiKeys: "oisr keys list",
  getApiKey: "oisr keys get key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD",
  createApiKey: 'oisr keys create --name "WMS poller" --permission orders:read --permission ingest:write',
  rotateApiKey: "oisr keys rotate key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD --overlap 1h",
  revokeApiKey: "oisr keys revoke key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD",
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/**
 * The document with `x-codeSamples` on every operation that authenticates (the SDK covers each;
 * a new operation without a sample fails the generation), in Scalar's shape `{lang, label, source}`.
 */
export function withCodeSamples(document) {
  const copy = structuredClone(document);
  const seen = new Set();
  for (const item of Object.values(copy.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const authenticated = !Array.isArray(op.security) || op.security.length > 0;
      const sdk = SDK_SAMPLES[op.operationId];
      if (!sdk) {
        if (authenticated) throw new Error(`scripts/code-samples.mjs: no SDK sample for ${op.operationId}`);
        continue;
      }
      seen.add(op.operationId);
      const cli = CLI_SAMPLES[op.operationId];
      op["x-codeSamples"] = [
        { lang: "TypeScript", label: "@oisr/sdk", source: `${SDK_SETUP}\n${sdk}\n` },
        ...(cli ? [{ lang: "Shell", label: "oisr (CLI)", source: `${cli}\n` }] : []),
      ];
    }
  }
  const unknown = [...Object.keys(SDK_SAMPLES), ...Object.keys(CLI_SAMPLES)].filter((id) => !seen.has(id));
  if (unknown.length > 0) throw new Error(`scripts/code-samples.mjs: no operation ${unknown.join(", ")}`);
  return copy;
}
