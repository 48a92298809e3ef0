// What a new user meets first (issue 29): a relative baseUrl, and errors whose message says what
// to fix.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClient } from "./client.ts";
import { ApiError, NotFoundError, ValidationError } from "./errors.ts";
import { problem } from "./internal/test-utils.ts";

afterEach(() => {
  vi.unstubAllGlobals();
});

function recording(response: () => Response) {
  const urls: string[] = [];
  const fetch = async (request: Request) => {
    urls.push(request.url);
    return response();
  };
  return { urls, fetch };
}

const ok = () =>
  new Response(JSON.stringify({ data: [], has_more: false, next_cursor: null }), {
    headers: { "content-type": "application/json" },
  });

describe("createClient's baseUrl", () => {
  it("outside a browser must be absolute, and says so", () => {
    for (const baseUrl of ["/api/v2", "api.example.com/v2", ""]) {
      expect(() => createClient({ baseUrl, token: "oisr_x" })).toThrow(
        new TypeError("createClient: baseUrl must be absolute (https://host/v2) outside a browser"),
      );
    }
    expect(() => createClient(undefined as never)).toThrow(/baseUrl must be absolute/);
  });

  it("in a page is resolved against the document's base URL, as fetch resolves it", async () => {
    vi.stubGlobal("document", { baseURI: "https://shop.example/admin/orders?tab=1" });
    const { urls, fetch } = recording(ok);
    const c = createClient({ baseUrl: "/api/v2", token: "oisr_x", fetch });
    await c.orders.list();
    expect(urls).toEqual(["https://shop.example/api/v2/orders"]);
    // A missing baseUrl is still an error, even in a page.
    expect(() => createClient({ baseUrl: "", token: "oisr_x" })).toThrow(/baseUrl must be absolute/);
  });

  it("keeps an absolute baseUrl as it was given (trailing slashes dropped)", async () => {
    const { urls, fetch } = recording(ok);
    await createClient({ baseUrl: "https://api.example.com/v2/", token: "oisr_x", fetch }).orders.list();
    expect(urls).toEqual(["https://api.example.com/v2/orders"]);
  });

  it("without /v2, the 404 the API answers says where its paths are", async () => {
    const { urls, fetch } = recording(() =>
      problem(404, "not_found", {}, { detail: "No such path. API paths start with /v2 (e.g. /v2/orders)." }),
    );
    const c = createClient({ baseUrl: "https://api.example.com", token: "oisr_x", fetch, maxRetries: 0 });
    const err = await c.orders.get("1042").catch((e: unknown) => e);
    expect(urls).toEqual(["https://api.example.com/orders/1042"]);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toContain("API paths start with /v2");
  });
});

describe("ApiError.message", () => {
  const fieldErrors = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      pointer: `/orders/${i}/currency`,
      code: "required",
      message: "is required",
    }));
  const validation = (extra: Record<string, unknown>) =>
    new ValidationError(
      400,
      {
        type: "t",
        title: "Validation failed",
        status: 400,
        code: "validation_failed",
        detail: "The request does not match the API schema.",
        ...extra,
      },
      new Headers(),
    );

  it("names a 400's first two pointers and messages, and how many more", () => {
    expect(validation({ errors: fieldErrors(5), trace_id: "abc" }).message).toBe(
      "400 validation_failed: The request does not match the API schema. /orders/0/currency is required; /orders/1/currency is required (and 3 more) (trace abc)",
    );
    expect(validation({ errors: fieldErrors(1) }).message).toBe(
      "400 validation_failed: The request does not match the API schema. /orders/0/currency is required",
    );
    expect(validation({ errors: fieldErrors(2) }).message).not.toContain("more");
  });

  it("is bounded however long the pointers and messages are", () => {
    const long = [1, 2, 3].map(() => ({
      pointer: `/${"k".repeat(10_000)}`,
      code: "x",
      message: "m".repeat(10_000),
    }));
    const message = validation({ errors: long }).message;
    expect(message.length).toBeLessThan(400);
    expect(message).toMatch(/ \(and 1 more\)$/);
  });

  it("is the detail alone without field errors", () => {
    const err = new ApiError(
      404,
      { type: "t", title: "Not found", status: 404, code: "not_found" },
      new Headers(),
    );
    expect(err.message).toBe("404 not_found: Not found");
  });
});
