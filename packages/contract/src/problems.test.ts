import { describe, expect, it } from "vitest";
import { openapiDocument } from "./generated/spec.gen.ts";
import { PROBLEM_TITLES } from "./http-contract.ts";
import {
  bodyTooDeep,
  HttpProblem,
  ingestReturnNotFound,
  internalError,
  invalidJson,
  invalidJsonAt,
  methodNotAllowed,
  notFound,
  orderNotFound,
  payloadTooLarge,
  problemBody,
  returnNotFound,
  SERVICE_UNAVAILABLE_DETAIL,
  serviceUnavailable,
  unauthorized,
  unsupportedMediaType,
  unversionedPathNotFound,
  validationFailed,
} from "./problems.ts";
import { requestNotFound } from "./request-record.ts";

describe("problem bodies", () => {
  it("state code, title, status, detail and trace id as RFC 9457 and the spec say", () => {
    const problem = new HttpProblem(404, "not_found", "No order 7.", { headers: { "X-A": "1" } });
    expect(problemBody(problem, "trace-1")).toEqual({
      type: "https://oisr.dev/problems/not_found",
      title: "Not found",
      status: 404,
      detail: "No order 7.",
      trace_id: "trace-1",
      code: "not_found",
    });
    expect(problem.headers).toEqual({ "X-A": "1" });
  });

  it("list at most 100 field errors and count the rest", () => {
    const errors = Array.from({ length: 150 }, (_, i) => ({
      pointer: `/a/${i}`,
      code: "type",
      message: "x",
    }));
    const body = problemBody(validationFailed(errors, 400), "t");
    expect(body.errors).toHaveLength(100);
    expect(body.errors_total).toBe(400);
    expect(body.detail).toMatch(/400/);
    expect(problemBody(validationFailed(errors.slice(0, 2)), "t")).toMatchObject({
      detail: "The request does not match the API schema.",
      errors: errors.slice(0, 2),
    });
    expect(problemBody(validationFailed(errors.slice(0, 2)), "t")).not.toHaveProperty("errors_total");
  });

  it.each([
    [notFound(), 404, "not_found", "No such resource or path."],
    [notFound("No order 1."), 404, "not_found", "No order 1."],
    [invalidJson(), 400, "invalid_json", "The request body is not valid JSON."],
    [payloadTooLarge(), 413, "payload_too_large", "The request body exceeds 5 MiB."],
    [unsupportedMediaType(), 415, "unsupported_media_type", "Send the body as application/json."],
    [internalError(), 500, "internal_error", "An unexpected error occurred."],
    [bodyTooDeep(), 400, "invalid_json", "The request body nests deeper than 32 levels."],
    [orderNotFound("1042"), 404, "not_found", 'No order with id or external_id "1042".'],
    [returnNotFound("RMA-1"), 404, "not_found", 'No return with id or external_id "RMA-1".'],
    [ingestReturnNotFound("ret_1"), 404, "not_found", "No return ret_1 in this account."],
    [requestNotFound("0195"), 404, "not_found", "No request 0195 in this account."],
    [
      unversionedPathNotFound(),
      404,
      "not_found",
      "No such path. API paths start with /v2 (e.g. /v2/orders).",
    ],
    [
      invalidJsonAt('{\n  "orders": [\n    }\n'),
      400,
      "invalid_json",
      "The request body is not valid JSON: Unexpected token } at line 3, column 5.",
    ],
    [invalidJsonAt('{"a": 1}'), 400, "invalid_json", "The request body is not valid JSON."],
  ])("%#: the shared constructors say one text each", (problem, status, code, detail) => {
    expect(problem).toBeInstanceOf(HttpProblem);
    expect([problem.status, problem.code, problem.message]).toEqual([status, code, detail]);
  });
});

describe("problem titles", () => {
  it("name every problem code of the spec, and no other", () => {
    const schemas = (openapiDocument.components as { schemas: Record<string, { enum?: string[] }> }).schemas;
    expect(Object.keys(PROBLEM_TITLES).sort()).toEqual([...(schemas.ProblemCode?.enum ?? [])].sort());
  });
});

describe("the 401, 405 and 503 problems server and mock both answer", () => {
  it("401 names the Bearer scheme and tells a bad token from a missing one", () => {
    const bad = unauthorized(true, { Connection: "close" });
    expect([bad.status, bad.code, bad.message]).toEqual([
      401,
      "unauthorized",
      "The bearer token is unknown or revoked. API keys are created with POST /v2/api_keys by a key holding api_keys:write, or by an operator with `oisr-server accounts create`; see /docs.",
    ]);
    expect(bad.headers).toEqual({ "WWW-Authenticate": 'Bearer realm="oisr"', Connection: "close" });
    expect(unauthorized(false).message).toBe("Send `Authorization: Bearer <token>`.");
  });

  it("405 lists the path's methods in Allow, upper-cased", () => {
    const problem = methodNotAllowed("put", ["get", "POST"]);
    expect([problem.status, problem.message, problem.headers.Allow]).toEqual([
      405,
      "PUT method not allowed",
      "GET, POST",
    ]);
  });

  it("503 carries a whole-second Retry-After of at least 1", () => {
    expect(serviceUnavailable(SERVICE_UNAVAILABLE_DETAIL.database, 0.2).headers).toEqual({
      "Retry-After": "1",
    });
    expect(serviceUnavailable(SERVICE_UNAVAILABLE_DETAIL.notReady, 5).headers).toEqual({
      "Retry-After": "5",
    });
  });
});
