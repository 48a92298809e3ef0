// `oisr-server serve`: run until SIGTERM/SIGINT, printing where to reach the API.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { DataDirLocked } from "./db/data-dir-lock.ts";
import { type RunningServer, startServer } from "./server.ts";
import type { Services } from "./services.ts";

/** A development token for embedded mode, kept in the data directory so restarts reuse it. */
async function developmentToken(services: Services, config: Config): Promise<string> {
  const file = config.dataDir.includes("://") ? undefined : join(config.dataDir, "dev-token.json");
  if (file && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, "utf8")) as { token: string };
    if (await services.accounts.authenticate(saved.token)) return saved.token;
  }
  const created = await services.accounts.createAccount("development");
  if (file)
    writeFileSync(file, JSON.stringify({ account_id: created.account_id, token: created.token }), {
      mode: 0o600,
    });
  return created.token;
}

export async function serve(config: Config): Promise<void> {
  const started = performance.now();
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (err) {
    if (!(err instanceof DataDirLocked)) throw err;
    // Another process holds the embedded database: one line, no stack, before anything listens.
    const { pid, port, role } = err.holder;
    const holder = port
      ? `pid ${pid}, port ${port}`
      : role === "serve"
        ? `pid ${pid}`
        : `pid ${pid} (${role})`;
    process.stderr.write(
      `OISR is already running on this data directory (${err.dataDir}): ${holder}. Stop it first, or set OISR_DATA_DIR to another directory.\n`,
    );
    process.exit(1);
  }
  const lines = [
    `OISR ${config.role === "all" ? "API + workers" : config.role} ready in ${Math.round(performance.now() - started)} ms`,
  ];
  if (server.url) {
    lines.push(`  API:   ${server.url}`, `  Docs:  ${server.origin}/docs`);
    if (!config.databaseUrl) {
      lines.push(
        `  Token: ${await developmentToken(server.services, config)}  (development account, embedded PostgreSQL in ${config.dataDir})`,
      );
      lines.push(`  Try:   curl -H "Authorization: Bearer $TOKEN" ${server.url}/orders`);
    }
  }
  if (server.metricsOrigin) lines.push(`  Metrics: ${server.metricsOrigin}/metrics`);
  process.stdout.write(`${lines.join("\n")}\n`);

  const shutdown = async (signal: string) => {
    server.logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await server.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}
