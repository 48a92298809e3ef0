#!/usr/bin/env node
// Runs the built server (npm run build); falls back to the sources, which Node 22.18+ runs directly.
import { existsSync } from "node:fs";

const built = new URL("../dist/main.mjs", import.meta.url);
await import(existsSync(built) ? built.href : new URL("../src/main.ts", import.meta.url).href);
