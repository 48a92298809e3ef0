// `oisr-server serve`: run until SIGTERM/SIGINT, printing where to reach the API.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./config.ts";
import { startServer } from "./server.ts";
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
  const server = await startServer(config);
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
