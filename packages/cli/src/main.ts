// Dispatches `oisr <command>`; every command returns its exit status.
import packageJson from "../package.json" with { type: "json" };
import { baseUrlOf } from "./client.ts";
import { ingestCommand } from "./commands/ingest.ts";
import { keysCommand } from "./commands/keys.ts";
import { ordersCommand } from "./commands/orders-watch.ts";
import { requestsCommand } from "./commands/requests.ts";
import { webhooksCommand } from "./commands/webhooks.ts";
import { describeError } from "./errors.ts";
import { EXIT, type Io, writeLine } from "./io.ts";
import { UsageError } from "./sources/open.ts";

export const HELP = `Usage: oisr <command> [options]

Commands:
  ingest orders|inventory|shipments|returns|dispositions FILE
                                                   import a JSON Lines or CSV file (resumable)
  requests get REQUEST_ID                          print a request's processing record
  requests body REQUEST_ID                         print the body it was submitted with
  requests retry REQUEST_ID | --status S --since T send failed or dead requests again
  orders watch [--cursor C] [--cursor-file F]      print the orders change feed as JSON Lines
  webhooks recover SUBSCRIPTION_ID --since TIME    send a window of webhook events again
  webhooks retry SUBSCRIPTION_ID DELIVERY_ID       send one delivery's event again
  keys create --name NAME --permission P…          make an API key (prints its secret once)
  keys list | get KEY_ID                           print the account's API keys
  keys rotate KEY_ID [--overlap DURATION]          give a key a new secret
  keys revoke KEY_ID                               revoke a key at once

Connection: --base-url URL (or OISR_BASE_URL, default http://127.0.0.1:8080/v2),
            --token TOKEN (or OISR_TOKEN).

Examples:
  oisr ingest orders orders.jsonl --report failures.jsonl
  oisr requests get 019593ed-b960-7678-bfcc-cf7dbea23c69
  oisr requests retry --status dead --since 2026-03-23T00:00:00Z --all
  oisr orders watch --cursor-file orders.cursor
  oisr webhooks recover whs_01JN8S7QQT86WJ5VH5F0CXSRN7 --since 2025-03-26T00:00:00Z --wait
  oisr keys create --name "WMS poller" --permission orders:read --permission returns:read

Run "oisr <command> --help" for a command's options and more examples.`;

const COMMANDS: Record<string, (args: string[], io: Io) => Promise<number>> = {
  ingest: ingestCommand,
  requests: requestsCommand,
  orders: ordersCommand,
  webhooks: webhooksCommand,
  keys: keysCommand,
};

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    writeLine(name ? io.stdout : io.stderr, HELP);
    return name ? EXIT.ok : EXIT.usage;
  }
  if (name === "--version" || name === "-v") {
    writeLine(io.stdout, packageJson.version);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    writeLine(io.stderr, `oisr: unknown command "${name}"\n\n${HELP}`);
    return EXIT.usage;
  }
  try {
    return await command(args, io);
  } catch (error) {
    // parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed options.
    const code = (error as { code?: unknown }).code;
    const usage =
      error instanceof UsageError || (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS"));
    if (!usage && io.signal.aborted && error === io.signal.reason) {
      writeLine(io.stderr, `oisr ${name}: interrupted`);
      return EXIT.interrupted;
    }
    writeLine(io.stderr, `oisr ${name}: ${describeError(error, { baseUrl: baseUrlOf(io) })}`);
    if (usage) return EXIT.usage;
    // An import that stopped on an error can be resumed; other commands simply failed.
    return name === "ingest" ? EXIT.incomplete : EXIT.error;
  }
}
