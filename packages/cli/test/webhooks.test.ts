// `oisr webhooks recover|retry` against the real server, whose dispatcher runs the recovery.
import { createClient } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { order, runCli, useSystem } from "./harness.ts";

// A subscription to a local URL, which nothing answers.
const system = useSystem({ OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" });

describe("oisr webhooks", () => {
  it("recovers a window (--wait prints it completed) and retries one delivery", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    // Nothing listens there: the commands queue sendings, whatever becomes of them.
    const subscription = await client.webhooks.create({
      url: "http://127.0.0.1:9/hooks",
      events: ["request.succeeded"],
    });
    const since = new Date(Date.now() - 60_000).toISOString();
    await client.orders.ingestAndWait([order(1)]);
    await client.orders.ingestAndWait([order(2)]);

    const recovered = await runCli(["webhooks", "recover", subscription.id, "--since", since, "--wait"], {
      url: system.url,
      token,
    });
    expect(recovered.code, recovered.stderr).toBe(0);
    expect(JSON.parse(recovered.stdout)).toMatchObject({
      subscription_id: subscription.id,
      since,
      status: "completed",
      events_queued: 2,
    });

    const test = await client.webhooks.test(subscription.id);
    const retried = await runCli(["webhooks", "retry", subscription.id, test.id], { url: system.url, token });
    expect(retried.code, retried.stderr).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({
      event_id: test.event_id,
      trigger: "retry",
      attempt: 1,
    });
  });

  it("says what is wrong with a bad command line, a bad window and an unknown subscription", async () => {
    const token = await system.token();
    for (const args of [
      ["webhooks", "recover", "whs_x"],
      ["webhooks", "recover"],
      ["webhooks", "retry", "whs_x"],
      ["webhooks", "retry", "whs_x", "whd_y", "--wait"],
      ["webhooks", "rotate", "whs_x"],
    ]) {
      const run = await runCli(args, { url: system.url, token });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain("oisr webhooks:");
    }
    const unknown = await runCli(
      ["webhooks", "recover", "whs_01JN8S7QQT86WJ5VH5F0CXSRN7", "--since", new Date().toISOString()],
      { url: system.url, token },
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("404 not_found");
    const subscription = await createClient({ baseUrl: system.url, token }).webhooks.create({
      url: "http://127.0.0.1:9/hooks",
      events: ["request.succeeded"],
    });
    const tooOld = await runCli(["webhooks", "recover", subscription.id, "--since", "2000-01-01T00:00:00Z"], {
      url: system.url,
      token,
    });
    expect(tooOld.code).toBe(1);
    expect(tooOld.stderr).toContain("400 validation_failed");
    expect(tooOld.stderr).toContain("since must be at most 30 days ago");
  });
});
