// Shared by the behaviour tests: a small JSON client over a mock (no msw needed), and valid
// request bodies from the shared fixtures.
import * as fixtures from "@oisr/contract/fixtures";
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

function jsonRequest(
  url: string,
  token: string,
  method: string,
  body: unknown,
  headers: Record<string, string>,
): Request {
  return new Request(url, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Calls the mock's API as `token` (JSON in, JSON out), straight through `mock.handle`. */
export function client(mock: Mock, token: string): Call {
  return async (method, path, body, headers = {}) => {
    const response = await mock.handle(jsonRequest(`${mock.baseUrl}${path}`, token, method, body, headers));
    if (!response) throw new Error(`the mock did not answer ${method} ${path}`);
    return answerOf(response);
  };
}

/** Calls the API at `baseUrl` as `token` through the global fetch, which msw intercepts (setupMockServer). */
export function fetchClient(baseUrl: string, token: string): Call {
  return async (method, path, body, headers = {}) =>
    answerOf(await fetch(jsonRequest(`${baseUrl}${path}`, token, method, body, headers)));
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

// Bodies: the shared fixtures (the spec's examples, lines L1 × 2 and L2 × 1), with the external id
// first because these tests name every resource. Overrides are loose on purpose: the validation
// tests send bodies the spec refuses.

export function order(externalId: string, overrides: Record<string, unknown> = {}): OrderInput {
  return { ...fixtures.order({ external_id: externalId }), ...overrides } as OrderInput;
}

export function returnOf(
  externalId: string,
  orderRef: string,
  overrides: Record<string, unknown> = {},
): ReturnInput {
  return { ...fixtures.returnOf(orderRef, { external_id: externalId }), ...overrides } as ReturnInput;
}

export function disposition(externalId: string, lineId = "L1", quantity = 1): DispositionInput {
  return fixtures.disposition(lineId, quantity, { external_id: externalId });
}
