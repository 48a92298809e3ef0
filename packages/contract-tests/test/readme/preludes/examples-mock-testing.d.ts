// The free variables of examples/mock-testing's README fragment: what its test file
// (examples/mock-testing/test/sync-orders.test.ts) has in scope. A global script on purpose.
declare const api: import("@oisr/mock-server/node").MockServer;
declare const token: string;
declare const orders: import("@oisr/sdk").OrderInput[];
declare const shipments: import("@oisr/sdk").ShipmentInput[];
