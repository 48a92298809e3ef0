// Programmatic entry for tests and embedding: start the server in-process.
export { createApp } from "./app.ts";
export { type Config, loadConfig } from "./config.ts";
export { freshDatabase } from "./db/fresh-database.ts";
export { type RunningServer, startServer } from "./server.ts";
export { openServices, type Services } from "./services.ts";
export { loadSpec } from "./spec.ts";
