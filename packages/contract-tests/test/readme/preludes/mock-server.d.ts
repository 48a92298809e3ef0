// The free variables of @oisr/mock-server's README: the fixtures its text says are the reader's
// (test/readme/mock-fixtures.ts implements them for the blocks that run), and the `api` and
// `client` of the worked example, which the webhook fragment continues. A global script on
// purpose (no import/export), so blocks see these without importing them.
declare function order(
  externalId: string,
  overrides?: Partial<import("@oisr/sdk").OrderInput>,
): import("@oisr/sdk").OrderInput;
declare function shipmentOf(orderId: string): import("@oisr/sdk").ShipmentInput;
declare const api: import("@oisr/mock-server/node").MockServer;
declare const client: import("@oisr/sdk").OisrClient;
