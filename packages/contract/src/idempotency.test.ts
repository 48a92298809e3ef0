import { describe, expect, it } from "vitest";
import {
  bodyFingerprint,
  IDEMPOTENCY_WINDOW_MS,
  idempotencyDecision,
  idempotencyKeyLive,
  idempotencyKeyReused,
} from "./idempotency.ts";

describe("idempotency", () => {
  it.each([
    ["a key never used", undefined, "h1", "new"],
    ["the same body", { bodyHash: "h1" }, "h1", "replay"],
    ["another body", { bodyHash: "h1" }, "h2", "conflict"],
  ] as const)("%s: %s", (_case, live, hash, decision) => {
    expect(idempotencyDecision(live, hash)).toBe(decision);
  });

  it.each([
    [0, true],
    [IDEMPOTENCY_WINDOW_MS - 1, true],
    [IDEMPOTENCY_WINDOW_MS, true],
    [IDEMPOTENCY_WINDOW_MS + 1, false],
  ])("a key used %d ms ago is live: %s", (age, live) => {
    const now = 1_800_000_000_000;
    expect(idempotencyKeyLive(now - age, now)).toBe(live);
  });

  it("refuses a reused key with 422 and says for how long keys bind", () => {
    const problem = idempotencyKeyReused();
    expect([problem.status, problem.code]).toEqual([422, "idempotency_key_reused"]);
    expect(problem.message).toContain("in the last 24 hours");
  });

  // Reference digests from sha256sum: the server's node:crypto hash gives the same.
  it.each([
    ['{"orders":[]}', "e031acd7d2a0a13081112896146071e885399a95d98315a55efcd0d0e1817b10"],
    ["{}", "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"],
    ['{"s":"é 😀"}', "5005f8e5eff3ba577547eaf8034cf9d90247d1c626a14d984769afef0da676f5"],
  ])("fingerprints %s as the SHA-256 hex of its UTF-8", async (json, digest) => {
    expect(await bodyFingerprint(json)).toBe(digest);
  });
});
