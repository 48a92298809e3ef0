#!/usr/bin/env node
// Writes spec/openapi.yaml as JSON for the server build: parsing JSON at start-up is ~10x faster.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = resolve(process.cwd(), process.argv[2] ?? "dist/openapi.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(parse(readFileSync(join(root, "spec/openapi.yaml"), "utf8"))));
