// `oisr requests retry` against the real server: one failed request by id, then a window in bulk.
import * as fixtures from "@oisr/contract/fixtures";
import { createClient } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { runCli, useSystem } from "./harness.ts";

const system = useSystem();

/** A shipment for an order the account does not hold: it fails (order_not_found). */
async function failedShipment(client: ReturnType<typeof createClient>): Promise<string> {
  const ack = await client.shipments.ingest([fixtures.shipment(fixtures.uid("ORD"))]);
  const record = await client.requests.waitFor(ack.request_id);
  expect(record.status).toBe("failed");
  return ack.request_id;
}

describe("oisr requests retry", () => {
  it("sends one failed request again by id, printing the acknowledgment as JSON", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    const id = await failedShipment(client);
    const run = await runCli(["requests", "retry", id], { url: system.url, token });
    expect(run.code, run.stderr).toBe(0);
    const ack = JSON.parse(run.stdout);
    expect(ack.request_id).not.toBe(id);
    expect(run.stderr).toContain(`Sent ${id} again as ${ack.request_id}.`);
    expect(await client.requests.get(ack.request_id)).toMatchObject({ kind: "shipments", retry_of: id });
  });

  it("sends a window's failed requests again, --all until none is left", async () => {
    const token = await system.token();
    const client = createClient({ baseUrl: system.url, token });
    const ids = [await failedShipment(client), await failedShipment(client), await failedShipment(client)];
    const since = new Date(Date.now() - 60_000).toISOString();
    const until = new Date().toISOString();
    const one = await runCli(
      ["requests", "retry", "--status", "failed", "--since", since, "--until", until, "--limit", "1"],
      { url: system.url, token },
    );
    expect(one.code, one.stderr).toBe(0);
    const first = JSON.parse(one.stdout);
    expect(first).toMatchObject({ count: 1, has_more: true, retries: [{ retry_of: ids[0] }] });
    expect(one.stderr).toContain("Sent 1 failed request again; more match (run again, or add --all).");

    const all = await runCli(
      [
        "requests",
        "retry",
        "--status",
        "failed",
        "--since",
        since,
        "--until",
        until,
        "--limit",
        "1",
        "--all",
      ],
      { url: system.url, token },
    );
    expect(all.code, all.stderr).toBe(0);
    const answers = all.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(answers.flatMap((a) => a.retries.map((r: { retry_of: string }) => r.retry_of))).toEqual(
      ids.slice(1),
    );
    expect(answers.at(-1).has_more).toBe(false);
    expect(all.stderr).toContain("Sent 2 failed requests again.");
  });

  it("says what is wrong with a bad command line, and a request that cannot be retried", async () => {
    const token = await system.token();
    for (const args of [
      ["requests", "retry"],
      ["requests", "retry", "--status", "succeeded", "--since", "2026-01-01T00:00:00Z"],
      ["requests", "retry", "--status", "dead"],
      ["requests", "retry", "--status", "dead", "--since", "yesterday"],
      ["requests", "retry", "--status", "dead", "--since", "2026-01-01T00:00:00Z", "--limit", "101"],
      ["requests", "retry", "--status", "dead", "--since", "2026-01-01T00:00:00Z", "--kind", "parcels"],
      ["requests", "retry", "0195c0ba-79b7-7a23-a88a-a13755ffd8cf", "--status", "dead"],
    ]) {
      const run = await runCli(args, { url: system.url, token });
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toContain("oisr requests:");
    }
    const client = createClient({ baseUrl: system.url, token });
    const done = await client.orders.ingestAndWait([fixtures.order()]);
    const refused = await runCli(["requests", "retry", done.request_id], { url: system.url, token });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("only failed and dead requests can be sent again");
  });
});
