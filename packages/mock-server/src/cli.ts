#!/usr/bin/env node
// oisr-mock: the OISR mock as a standalone HTTP server.
import { parseArgs } from "node:util";
import { CONSOLE_PREFIX, findConsoleBuild } from "./node/console-files.ts";
import { startMockServer } from "./node/standalone.ts";
import { mockOptionsFromEnv } from "./options.ts";

const HELP = `oisr-mock — a stateful, in-memory mock of the OISR ingest API v2

Usage: oisr-mock [options]

  --port <n>                    port (default 4010; 0 picks a free one)
  --host <host>                 interface (default 127.0.0.1)
  --base-path <path>            API prefix (default /v2)
  --processing-delay-ms <ms>    time a request stays pending (default 0)
  --processing-duration-ms <ms> time a request stays processing (default 0)
  --max-attempts <n>            attempts before a failing request is dead (default 5)
  --rate-limits <json|off>      e.g. '{"ingest":100000}', or off
  --allow-private-networks      accept http:// and private webhook URLs
  --known-tokens-only           refuse tokens not made through /__mock/accounts (like the server)
  --no-admin                    do not serve the control API under /__mock/
  --console                     also serve the OISR console at /console/, running this mock in
                                the browser with demo data (from a clone of the repository,
                                after \`npm run build\`)
  -h, --help

No token setup: every Bearer token starting with oisr_ is an account of its own.
The server's environment variables apply too (OISR_RATE_LIMITS, OISR_MAX_ATTEMPTS,
OISR_WEBHOOK_RETRY_SCHEDULE, OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS, ...); flags win.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "base-path": { type: "string" },
      "processing-delay-ms": { type: "string" },
      "processing-duration-ms": { type: "string" },
      "max-attempts": { type: "string" },
      "rate-limits": { type: "string" },
      "allow-private-networks": { type: "boolean" },
      "known-tokens-only": { type: "boolean" },
      "no-admin": { type: "boolean" },
      console: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  const env = mockOptionsFromEnv({
    ...process.env,
    ...(values["rate-limits"] !== undefined ? { OISR_RATE_LIMITS: values["rate-limits"] } : {}),
    ...(values["max-attempts"] !== undefined ? { OISR_MAX_ATTEMPTS: values["max-attempts"] } : {}),
    ...(values["processing-delay-ms"] !== undefined
      ? { OISR_MOCK_PROCESSING_DELAY_MS: values["processing-delay-ms"] }
      : {}),
    ...(values["processing-duration-ms"] !== undefined
      ? { OISR_MOCK_PROCESSING_DURATION_MS: values["processing-duration-ms"] }
      : {}),
    ...(values["allow-private-networks"] ? { OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" } : {}),
  });
  const port = Number(values.port ?? process.env.PORT ?? 4010);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: not a port: ${values.port}`);
  const consoleDir = values.console ? findConsoleBuild() : undefined;
  const server = await startMockServer({
    ...env,
    port,
    host: values.host ?? "127.0.0.1",
    basePath: values["base-path"] ?? "/v2",
    admin: !values["no-admin"],
    acceptAnyToken: !values["known-tokens-only"],
    ...(consoleDir ? { consoleDir } : {}),
  });
  process.stdout.write(
    [
      values["known-tokens-only"]
        ? "OISR mock server (in memory; tokens from POST /__mock/accounts)"
        : "OISR mock server (in memory; every Bearer token starting with oisr_ is an account)",
      `API: ${server.url}`,
      ...(values["no-admin"]
        ? []
        : [`Controls: ${server.origin}/__mock/ (reset, seed, clock/advance, fail-next, ...)`]),
      ...(consoleDir
        ? [`Console: ${server.origin}${CONSOLE_PREFIX}/ (the mock runs in the page, with demo data)`]
        : []),
      "",
    ].join("\n"),
  );
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`oisr-mock: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
