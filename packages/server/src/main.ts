// Reads config and dispatches: `serve` (default) or an admin command.

import { asksForHelp, runAdminCommand, USAGE } from "./cli/commands.ts";
import { loadConfig } from "./config.ts";
import { DataDirLocked } from "./db/data-dir-lock.ts";
import { serve } from "./serve.ts";
import { openServices } from "./services.ts";

const args = process.argv.slice(2);

if (asksForHelp(args)) {
  // Before the configuration and the database: help works wherever the binary runs.
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const config = loadConfig();

if (args.length === 0 || args[0] === "serve") {
  await serve(config);
} else {
  const services = await openServices(config).catch((err: unknown) => {
    if (!(err instanceof DataDirLocked)) throw err;
    // Never run against a database another process holds: what it wrote (a token) would be lost.
    const { pid, port, role } = err.holder;
    const holder =
      role === "serve"
        ? `The OISR server (pid ${pid}${port ? `, port ${port}` : ""})`
        : `oisr-server ${role} (pid ${pid})`;
    const error = `${holder} holds the embedded database in ${err.dataDir}; stop it first, or run this command against PostgreSQL with DATABASE_URL.`;
    process.stdout.write(`${JSON.stringify({ error })}\n`);
    process.exit(1);
  });
  try {
    const { output, exitCode } = await runAdminCommand(services, args);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    process.exitCode = exitCode;
  } finally {
    await services.database.close();
  }
}
