import { describe, expect, it } from "vitest";
import { apiNotFound, toProblem } from "./errors.ts";

const validatorError = (path: string, errorCode: string) => ({
  status: 400,
  errors: [{ path, message: "m", errorCode }],
});

// The OpenAPI validator sees parameters and headers only; bodies are the BodyValidator's.
describe("validator errors as problem+json", () => {
  it.each([
    ["/query/limit", "maximum.openapi.validation", "/query/limit", "maximum"],
    ["/query/status", "enum.openapi.validation", "/query/status", "enum"],
    ["/params/request_id", "x-eov-type.openapi.validation", "/params/request_id", "type"],
    [".headers.idempotency-key", "maxLength.openapi.validation", "/headers/idempotency-key", "maxLength"],
  ])("%s (%s) points at %s with code %s", (path, errorCode, pointer, code) => {
    const problem = toProblem(validatorError(path, errorCode));
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual([{ pointer, code, message: "m" }]);
  });
});

describe("body-parser's parse error", () => {
  it("says at which line and column the body stops being JSON", () => {
    const err = Object.assign(new SyntaxError("Unexpected token"), {
      status: 400,
      type: "entity.parse.failed",
      body: '{\n  "orders": [\n    }\n',
    });
    const problem = toProblem(err);
    expect([problem.status, problem.code, problem.message]).toEqual([
      400,
      "invalid_json",
      "The request body is not valid JSON: Unexpected token } at line 3, column 5.",
    ]);
  });

  it("falls back to the plain text without the body", () => {
    expect(toProblem({ status: 400, type: "entity.parse.failed" }).message).toBe(
      "The request body is not valid JSON.",
    );
  });
});

describe("the API app's 404", () => {
  const thrown = (path: string) => {
    try {
      apiNotFound({ path } as Parameters<typeof apiNotFound>[0], {} as never, () => {});
    } catch (err) {
      return toProblem(err).message;
    }
    return undefined;
  };

  it("says API paths start with /v2 for a path outside it", () => {
    expect(thrown("/orders")).toBe("No such path. API paths start with /v2 (e.g. /v2/orders).");
    expect(thrown("/v20/orders")).toBe("No such path. API paths start with /v2 (e.g. /v2/orders).");
  });

  it("is the plain 404 under /v2", () => {
    expect(thrown("/v2/nope")).toBe("No such resource or path.");
    expect(thrown("/v2")).toBe("No such resource or path.");
  });
});
