import { describe, expect, it } from "vitest";
import { toProblem } from "./errors.ts";

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
