// Regression (found by the query-string property): a parameter named `__proto__` is an unknown
// parameter like any other, on every target.
import { describe, expect, it } from "vitest";
import { useSystem } from "../src/harness.ts";
import { targets } from "../src/targets.ts";

describe.each(targets)("$name", (target) => {
  // Each test looks only at what it stored: it runs on the accounts of `--token` too.
  const h = useSystem(target, {}, { sharedAccounts: true });

  it.each(["/orders?__proto__=", "/returns?__proto__=x", "/requests?constructor=1"])(
    "GET %s is 400 validation_failed",
    async (path) => {
      const c = await h.account();
      const res = await c.get(path);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toContain("application/problem+json");
    },
  );
});
