// The contract areas a run is grouped by: one per test file of the suite, named after it, with
// the spec operations its rules are about (linked as <origin>/docs#operation/<operationId>). A
// test file added without an entry here still runs, as an area named after its file.

export interface Area {
  title: string;
  operations: string[];
}

export const AREAS: Record<string, Area> = {
  health: {
    title: "Probes, the served spec and /docs",
    operations: ["getHealth", "getReadiness", "getOpenApiDocument"],
  },
  auth: { title: "Authentication and account isolation", operations: ["getOrder", "listOrders"] },
  "ingest-ack": {
    title: "Ingest acknowledgment: 202, Location, Retry-After, trace ids, problem+json",
    operations: ["ingestOrders", "ingestInventory", "ingestShipments", "ingestReturns", "ingestDispositions"],
  },
  idempotency: { title: "Idempotency-Key replays and reuse", operations: ["ingestOrders"] },
  validation: {
    title: "What is refused before anything is stored",
    operations: ["ingestOrders", "ingestReturns"],
  },
  "validation-property": { title: "Invalid bodies, generated (fast-check)", operations: ["ingestOrders"] },
  "hostile-input": { title: "Hostile input: bounded answers, never a 500", operations: ["ingestOrders"] },
  "proto-keys": { title: "Prototype keys in query strings", operations: ["listOrders"] },
  "query-limits": { title: "Integer query parameters and request size", operations: ["listOrders"] },
  lifecycle: {
    title: "Order → shipment → return → dispositions, and every business rule",
    operations: ["ingestOrders", "ingestShipments", "ingestReturns", "ingestDispositions", "getReturn"],
  },
  inventory: { title: "Inventory snapshots and levels", operations: ["ingestInventory", "listInventory"] },
  requests: { title: "Request records and their states", operations: ["getRequest", "listRequests"] },
  feeds: { title: "Change feeds: /orders and /returns", operations: ["listOrders", "listReturns"] },
  "first-steps": {
    title: "The first calls a new integrator makes",
    operations: ["ingestOrders", "getRequest"],
  },
  "rate-limits": { title: "Rate limits: headers, 429, scopes", operations: ["ingestOrders", "listOrders"] },
  "api-keys": {
    title: "API keys: permissions and creation",
    operations: ["createApiKey", "listApiKeys", "getApiKey"],
  },
  "api-keys-lifecycle": {
    title: "API keys: rotation, revocation, expiry",
    operations: ["rotateApiKey", "revokeApiKey"],
  },
  events: { title: "The events feed", operations: ["listEvents", "getEvent"] },
  "request-events": {
    title: "Request events (request.succeeded, .failed, .dead)",
    operations: ["onRequestSucceeded"],
  },
  "webhook-recovery": {
    title: "Webhook signing, redelivery and recovery",
    operations: ["createWebhookSubscription", "retryWebhookDelivery", "recoverWebhookSubscription"],
  },
  "webhook-backpressure": {
    title: "A receiver's 429/503 Retry-After",
    operations: ["listWebhookDeliveries"],
  },
  "webhook-response-snippet": {
    title: "The receiver's answer in the deliveries log",
    operations: ["listWebhookDeliveries"],
  },
  "database-failures": { title: "Database failures: dead requests, 503", operations: ["getRequest"] },
};

/**
 * Files of test/ that stay in the repository: they start OISR's server processes, read its
 * database or the repository itself, so no HTTP-only run could satisfy them.
 */
export const REPOSITORY_ONLY = new Set(["multi-process", "api-keys-processes", "repository-references"]);

export function areaOf(name: string): Area {
  return AREAS[name] ?? { title: name, operations: [] };
}

/** `<origin>/docs#operation/<id>`: the served reference page's anchor for an operation. */
export function operationLink(origin: string, operationId: string): string {
  return `${origin}/docs#operation/${operationId}`;
}
