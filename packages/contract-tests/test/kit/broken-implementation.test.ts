// The kit catches a broken implementation, and by the test that names the broken rule: the
// standalone mock behind a proxy that gets one rule wrong per run (broken-server.ts). The same
// areas against the unbroken proxy pass, so each failure is the fault's.
import { afterEach, describe, expect, it } from "vitest";
import { type BrokenServer, FAULTS, type Fault, startBrokenServer } from "./broken-server.ts";
import { failedNames, KIT_RUN_TIMEOUT_MS, mockAdminCommand, runKit } from "./run-kit.ts";

const CASES: { fault: Exclude<Fault, "none">; area: string; rule: RegExp }[] = [
  {
    fault: "ack-200",
    area: "ingest-ack",
    rule: /POST 'orders': 202 \{message, request_id, trace_id\}, Location, Retry-After: 1/,
  },
  {
    fault: "no-retry-after",
    area: "ingest-ack",
    rule: /POST 'orders': 202 \{message, request_id, trace_id\}, Location, Retry-After: 1/,
  },
  { fault: "webhook-secret", area: "request-events", rule: /gets one signed event per request/ },
  { fault: "feed-order", area: "feeds", rule: /orders come in change order/ },
];

let server: BrokenServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// The rules' tests only (--grep): a whole area takes minutes on a busy machine, and the unbroken
// run of the same tests shows that each failure is the fault's.
const RULES = CASES.map((c) => c.rule.source).join("|");
const kitAgainst = (s: BrokenServer, areas: string[]) =>
  runKit([
    "--base",
    s.baseUrl,
    "--admin-command",
    mockAdminCommand(s.origin),
    "--only",
    [...new Set(areas)].join(","),
    "--grep",
    RULES,
  ]);

describe("a deliberately broken implementation", () => {
  it(
    "unbroken, the areas the faults break all pass (exit 0)",
    async () => {
      server = await startBrokenServer("none");
      const run = await kitAgainst(
        server,
        CASES.map((c) => c.area),
      );
      expect(failedNames(run), run.stdout + run.stderr).toEqual([]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      // The ingest acknowledgment of orders, the signed request events, the orders feed.
      expect(run.result?.passed).toBeGreaterThanOrEqual(3);
    },
    KIT_RUN_TIMEOUT_MS,
  );

  it.each(CASES)(
    "$fault ($area): caught by the test naming the rule, exit 1",
    async ({ fault, area, rule }) => {
      server = await startBrokenServer(fault);
      const run = await kitAgainst(server, [area]);
      expect(run.code, `${FAULTS[fault]}\n${run.stdout}${run.stderr}`).toBe(1);
      expect(
        failedNames(run).some((name) => rule.test(name)),
        failedNames(run).join("\n"),
      ).toBe(true);
      expect(run.stdout).toContain("does NOT conform");
    },
    KIT_RUN_TIMEOUT_MS,
  );
});
