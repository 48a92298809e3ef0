#!/usr/bin/env node
// Runs the TypeScript entry directly: Node 22.18+/24 strip types natively.
import "../src/main.ts";
