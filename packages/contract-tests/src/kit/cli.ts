#!/usr/bin/env node
// oisr-conformance: the OISR contract suite against a running implementation. Exit 0 when every
// test that ran passed, 1 when one failed, 2 for options that cannot work (before any test runs).
import { parseArgs } from "node:util";
import { CAPABILITIES, ENABLED_BY } from "../capabilities.ts";
import { UsageError } from "./preflight.ts";
import { runConformance, suiteAreas } from "./run.ts";

const HELP = `oisr-conformance — does an implementation behave as the OISR ingest API v2 contract says?

Usage: oisr-conformance --base URL --token A --token B [options]

  --base URL              the API's base URL, ending in /v2 (e.g. http://localhost:3000/v2)
  --token TOKEN           a token; give two, of two different accounts
  --admin-command "CMD"   mints and revokes tokens: CMD accounts create --name N and
                          CMD tokens revoke T, each printing JSON (e.g. "oisr-server")
  --webhook-host HOST     this machine as the implementation reaches it, for webhook receivers
  --targets MODULE        a module exporting \`targets\` the kit starts itself (instead of --base)
  --only AREA[,AREA]      run these areas only       --skip AREA[,AREA]  leave these out
  --grep PATTERN          only the tests whose name matches (a regular expression)
  --junit FILE            JUnit XML report           --json FILE         JSON report
  --verbose               list every rule, passed and skipped
  --list                  list the areas and exit
  -h, --help

What the options enable (tests that need more are listed as skipped, with the option):
${CAPABILITIES.map((c) => `  ${c.padEnd(9)} ${ENABLED_BY[c]}`).join("\n")}`;

const split = (values: string[] | undefined) => (values ?? []).flatMap((v) => v.split(",")).filter(Boolean);

const OPTIONS = {
  base: { type: "string" },
  token: { type: "string", multiple: true },
  "admin-command": { type: "string" },
  "webhook-host": { type: "string" },
  targets: { type: "string" },
  only: { type: "string", multiple: true },
  skip: { type: "string", multiple: true },
  grep: { type: "string" },
  junit: { type: "string" },
  json: { type: "string" },
  verbose: { type: "boolean" },
  list: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

async function main(): Promise<number> {
  let values: ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>["values"];
  try {
    ({ values } = parseArgs({ options: OPTIONS }));
  } catch (error) {
    process.stderr.write(`oisr-conformance: ${(error as Error).message}\n\n${HELP}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.list) {
    process.stdout.write(`${suiteAreas().join("\n")}\n`);
    return 0;
  }
  try {
    const result = await runConformance({
      ...(values.base !== undefined ? { baseUrl: values.base } : {}),
      tokens: values.token ?? [],
      ...(values["admin-command"] !== undefined ? { adminCommand: values["admin-command"] } : {}),
      ...(values["webhook-host"] !== undefined ? { webhookHost: values["webhook-host"] } : {}),
      ...(values.targets !== undefined ? { targetsModule: values.targets } : {}),
      only: split(values.only),
      skip: split(values.skip),
      ...(values.grep !== undefined ? { grep: values.grep } : {}),
      ...(values.junit !== undefined ? { junit: values.junit } : {}),
      ...(values.json !== undefined ? { json: values.json } : {}),
      verbose: values.verbose ?? false,
    });
    return result.ok ? 0 : 1;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`oisr-conformance: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `oisr-conformance: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  },
);
