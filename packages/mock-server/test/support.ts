// Shared by the behaviour tests: a small JSON client over a mock (no msw needed), and valid
// request bodies built to the spec's input schemas.
import {
  createMock,
  type DispositionInput,
  type Mock,
  type MockOptions,
  type OrderInput,
  type ReturnInput,
} from "../src/index.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the tests' assertions.
type Json = any;

export interface Answer<T = Json> {
  status: number;
  headers: Headers;
  body: T;
}

export type Call = <T = Json>(
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Answer<T>>;

/** Calls the mock's API as `token` (JSON in, JSON out), straight through `mock.handle`. */
export function client(mock: Mock, token: string): Call {
  return async (method, path, body, headers = {}) => {
    const request = new Request(`${mock.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const response = await mock.handle(request);
    if (!response) throw new Error(`the mock did not answer ${method} ${path}`);
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
}

/** A mock on a frozen clock (nothing moves unless the test says so) and a client for a fresh account. */
export function frozenMock(options: MockOptions = {}) {
  const mock = createMock({ clock: { start: "2025-06-01T12:00:00Z", frozen: true }, ...options });
  const { token } = mock.controls.createAccount("test");
  return { mock, token, call: client(mock, token) };
}

/** The mock's answer, which must exist (the URL is the mock's). */
export function answered(response: Response | undefined): Response {
  if (!response) throw new Error("the mock did not answer");
  return response;
}

/** Lets timers due now run (the mock never processes synchronously inside a call). */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

export async function waitForFinal(call: Call, requestId: string, timeoutMs = 2000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await call("GET", `/requests/${requestId}`);
    if (["succeeded", "failed", "dead"].includes(body.status)) return body;
    if (Date.now() > deadline) throw new Error(`request ${requestId} still ${body.status}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function order(externalId: string, overrides: Record<string, unknown> = {}): OrderInput {
  return {
    external_id: externalId,
    source: "shopify",
    currency: "USD",
    placed_at: "2025-03-14T09:00:00Z",
    ship_to: { name: "Ava Thompson", line1: "1820 SE Belmont St", city: "Portland", country: "US" },
    lines: [
      { line_id: "L1", sku: "TEE-BLK-M", quantity: 2, unit_price: "24.00" },
      { line_id: "L2", sku: "MUG-12OZ", quantity: 1, unit_price: "14.50" },
    ],
    source_updated_at: "2025-03-14T09:01:00Z",
    ...overrides,
  } as OrderInput;
}

export function returnOf(
  externalId: string,
  orderRef: string,
  overrides: Record<string, unknown> = {},
): ReturnInput {
  return {
    external_id: externalId,
    order_id: orderRef,
    status: "approved",
    items: [{ line_id: "L1", quantity: 1, reason_code: "size_or_fit" }],
    requested_at: "2025-03-15T10:00:00Z",
    source_updated_at: "2025-03-15T10:00:00Z",
    ...overrides,
  } as ReturnInput;
}

export function disposition(externalId: string, lineId = "L1", quantity = 1): DispositionInput {
  return {
    external_id: externalId,
    line_id: lineId,
    quantity,
    outcome: "restock",
    decided_at: "2025-03-20T10:00:00Z",
  };
}
