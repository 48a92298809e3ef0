#!/usr/bin/env node
// The `oisr` executable: wires the process (argv, streams, env, signals) to main().
import { main } from "./main.ts";

const controller = new AbortController();
let interrupts = 0;
// The first Ctrl-C asks the command to stop cleanly (ingest says so above its progress bar and
// finishes what is in flight); a second one quits at once.
const interrupt = () => {
  interrupts += 1;
  if (interrupts > 1) {
    process.stderr.write("\n");
    process.exit(130);
  }
  controller.abort();
};
process.on("SIGINT", interrupt);
process.on("SIGTERM", interrupt);
// `oisr orders watch | head`: a closed pipe ends the command quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
