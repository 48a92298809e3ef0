import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { generateWebhookSecret } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { secretProblem } from "../src/secret.ts";

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url));

describe("the secret's format, checked at start-up", () => {
  it("accepts a secret as OISR makes them", () => {
    expect(secretProblem(generateWebhookSecret())).toBeUndefined();
  });

  it.each([
    ["unset", undefined, /^OISR_WEBHOOK_SECRET is not set\./],
    ["without whsec_", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", /does not start with "whsec_"/],
    ["with a line break after it", `${generateWebhookSecret()}\n`, /spaces or a line break around it/],
    ["in quotes", `"${generateWebhookSecret()}"`, /wrapped in quotes/],
    ["with nothing after whsec_", "whsec_", /nothing after "whsec_"/],
    ["with something other than base64 after whsec_", "whsec_abc$def!", /not valid base64/],
    ["cut short by one character", `whsec_${"A".repeat(41)}`, /not valid base64/],
  ])("names what is wrong with one %s, and where the secret comes from", (_, secret, problem) => {
    const message = secretProblem(secret);
    expect(message).toMatch(problem);
    expect(message).toContain("the `secret` field of the answer to POST /v2/webhook_subscriptions");
    expect(message).toContain("rotate_secret");
  });

  it("never repeats the secret in the message", () => {
    const secret = "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    expect(secretProblem(secret)).not.toContain(secret);
  });

  it("exits 1 with the message instead of listening", () => {
    const run = spawnSync(process.execPath, [main], {
      env: { ...process.env, OISR_WEBHOOK_SECRET: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", PORT: "0" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/OISR_WEBHOOK_SECRET does not start with "whsec_"/);
    expect(run.stdout).not.toContain("Listening");
  });
});
