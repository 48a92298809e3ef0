import { describe, expect, it } from "vitest";
import { bearerToken, unauthorized } from "./auth.ts";

describe("bearerToken", () => {
  it.each([
    ["Bearer oisr_abc"],
    ["bearer oisr_abc"],
    ["BEARER oisr_abc"],
    ["bEaReR oisr_abc"],
    ["Bearer  oisr_abc"],
    ["Bearer     oisr_abc"],
  ])("reads the token of %j (the scheme is case-insensitive, 1+ spaces)", (header) => {
    expect(bearerToken(header)).toBe("oisr_abc");
  });

  it.each([
    [undefined],
    [""],
    ["Bearer"],
    ["Bearer "],
    ["Bearer  "],
    ["Basic b2lzcjpzZWNyZXQ="],
    ["Bearer\toisr_abc"],
    ["Bearer oisr_abc extra"],
    ["Bearertoken oisr_abc"],
    ["oisr_abc"],
  ])("rejects %j", (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});

describe("unauthorized", () => {
  it.each([true, false])("asks for a bearer token and closes the connection (hadToken %s)", (hadToken) => {
    const problem = unauthorized(hadToken);
    expect(problem.status).toBe(401);
    expect(problem.headers).toMatchObject({ "WWW-Authenticate": 'Bearer realm="oisr"', Connection: "close" });
  });
});
