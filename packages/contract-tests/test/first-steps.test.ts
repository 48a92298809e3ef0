// What a new user meets first (issue 29): a path without /v2, a body that is not JSON and an
// unknown token get answers that say how to get it right, the same on every target.
import { UNVERSIONED_PATH_DETAIL } from "@oisr/contract";
import { describe, expect, it } from "vitest";
import { send } from "../src/client.ts";
import { expectProblem, useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

describe.each(targets)("first steps — $name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  it.each(["/orders", "/ingest/orders", "/v1/orders", "/nope"])(
    "GET %s at the origin (no /v2) is a 404 saying API paths start with /v2",
    async (path) => {
      const body = expectProblem(await send(h.system, "GET", `${h.system.origin}${path}`), 404, "not_found");
      expect(body.detail).toBe("No such path. API paths start with /v2 (e.g. /v2/orders).");
      expect(body.detail).toBe(UNVERSIONED_PATH_DETAIL);
    },
  );

  it("an unknown path under /v2 is the plain 404", async () => {
    const c = await h.account();
    const body = expectProblem(await c.get("/nope"), 404, "not_found");
    expect(body.detail).not.toBe(UNVERSIONED_PATH_DETAIL);
  });

  it("invalid_json names the line and column where the body broke", async () => {
    const c = await h.account();
    const body = expectProblem(
      await c.post("/ingest/orders", '{\n  "orders": [\n    }\n', { "content-type": "application/json" }),
      400,
      "invalid_json",
    );
    expect(body.detail).toBe("The request body is not valid JSON: Unexpected token } at line 3, column 5.");
  });

  it("invalid_json at the end of a cut-off body names where it ended", async () => {
    const c = await h.account();
    const body = expectProblem(
      await c.post("/ingest/orders", '{"orders": [', { "content-type": "application/json" }),
      400,
      "invalid_json",
    );
    expect(body.detail).toMatch(/line 1, column 13\.$/);
    expect(body.detail).toContain("line");
    expect(body.detail).toContain("column");
  });

  it("an unknown token's 401 says how keys are made and where the docs are", async () => {
    const res = await send(h.system, "GET", "/orders", { headers: { authorization: "Bearer abc123" } });
    const body = expectProblem(res, 401, "unauthorized");
    expect(body.detail).toContain("POST /v2/api_keys");
    expect(body.detail).toContain("see /docs");
  });
});
