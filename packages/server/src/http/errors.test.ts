import { describe, expect, it } from "vitest";
import { toProblem } from "./errors.ts";

const validatorError = (path: string, errorCode: string) => ({
  status: 400,
  errors: [{ path, message: "m", errorCode }],
});

describe("validator errors as problem+json", () => {
  const body = { orders: [{ "a/b": 1, "~x": 2, lines: [{ quantity: 0 }], metadata: { "k/1": "v" } }] };

  it.each([
    [
      "/body/orders/0/lines/0/quantity",
      "minimum.openapi.validation",
      "/orders/0/lines/0/quantity",
      "minimum",
    ],
    [
      "/body/orders/0/a/b",
      "additionalProperties.openapi.validation",
      "/orders/0/a~1b",
      "additionalProperties",
    ],
    ["/body/orders/0/~x", "additionalProperties.openapi.validation", "/orders/0/~0x", "additionalProperties"],
    ["/body/orders/0/ship_to", "required.openapi.validation", "/orders/0/ship_to", "required"],
    ["/body/orders/0/placed_at", "x-eov-type.openapi.validation", "/orders/0/placed_at", "type"],
    ["/query/limit", "maximum.openapi.validation", "/query/limit", "maximum"],
  ])("%s (%s) points at %s with code %s", (path, errorCode, pointer, code) => {
    const problem = toProblem(validatorError(path, errorCode), body);
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual([{ pointer, code, message: "m" }]);
  });
});
