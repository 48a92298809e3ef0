// The free variables of @oisr/sdk's README: the client the fragments continue with, and what the
// reader's own application holds (data to send, a key-value store, an express app…). A global
// script on purpose (no import/export), so blocks see these without importing them. The testing
// blocks run under vitest with `globals: true`.
/// <reference types="vitest/globals" />

// Fragments continue earlier blocks, which imported these.
declare const createClient: typeof import("@oisr/sdk").createClient;
declare const verifyWebhook: typeof import("@oisr/sdk").verifyWebhook;
declare const oisr: import("@oisr/sdk").OisrClient;
declare const baseUrl: string;
declare const token: string;
declare const myFetch: (request: Request) => Promise<Response>;

declare const orders: import("@oisr/sdk").OrderInput[];
declare const batch: { id: string; orders: import("@oisr/sdk").OrderInput[] };
declare const snapshots: import("@oisr/sdk").InventorySnapshotInput[];
declare const shipments: import("@oisr/sdk").ShipmentInput[];
declare const returns: import("@oisr/sdk").ReturnInput[];
declare const dispositions: import("@oisr/sdk").DispositionInput[];

declare const requestId: string;
declare const onProgress: (record: import("@oisr/sdk").RequestRecord) => void;
declare const signal: AbortSignal;

declare const store: {
  get(key: string): Promise<string | null>;
  set(key: string, value: string | null): Promise<void>;
};
declare function upsert(order: import("@oisr/sdk").Order): Promise<void>;
declare function upsertReturn(ret: import("@oisr/sdk").Return): Promise<void>;

declare const secrets: { put(name: string, value: string): Promise<void> };
declare const traceparent: string;
declare const metrics: { count(status: number): void };

declare const app: import("express").Express;
declare function seen(eventId: string): Promise<boolean>;
declare function refund(ret: import("@oisr/sdk").Return): Promise<void>;
declare const request: Request;
declare const secret: string;
declare const myEvent: import("@oisr/sdk").WebhookEvent;
