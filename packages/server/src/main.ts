// Reads config and dispatches: `serve` (default) or an admin command.

import { runAdminCommand } from "./cli/commands.ts";
import { loadConfig } from "./config.ts";
import { serve } from "./serve.ts";
import { openServices } from "./services.ts";

const args = process.argv.slice(2);
const config = loadConfig();

if (args.length === 0 || args[0] === "serve") {
  await serve(config);
} else {
  const services = await openServices(config);
  try {
    const { output, exitCode } = await runAdminCommand(services, args);
    process.stdout.write(`${JSON.stringify(output)}\n`);
    process.exitCode = exitCode;
  } finally {
    await services.database.close();
  }
}
