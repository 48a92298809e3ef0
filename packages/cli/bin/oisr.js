#!/usr/bin/env node
// The `oisr` command: runs the built CLI (dist/oisr.mjs). A published package ships dist/; in a
// clone of the repository, `npm run build` at its root makes it.
import { existsSync } from "node:fs";

const built = new URL("../dist/oisr.mjs", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    "oisr: @oisr/cli is not built yet (no dist/oisr.mjs): run `npm run build` at the repository root.\n",
  );
  process.exit(1);
}
await import(built.href);
