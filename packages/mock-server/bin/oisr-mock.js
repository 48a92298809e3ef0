#!/usr/bin/env node
// The `oisr-mock` command: runs the built standalone server (dist/cli.js). A published package
// ships dist/; in a clone of the repository, `npm run build` at its root makes it.
import { existsSync } from "node:fs";

const built = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    "oisr-mock: @oisr/mock-server is not built yet (no dist/cli.js): run `npm run build` at the repository root.\n",
  );
  process.exit(1);
}
await import(built.href);
