// Spawning servers and fresh databases for benchmarks. Every figure compares processes started
// the same way, on the same machine, in the same run.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import postgres from "postgres";

export const ROOT = new URL("../..", import.meta.url).pathname;
export const ADMIN_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A new database of its own, empty or (with `template`) a copy of that one. */
async function benchDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${process.env.BENCH_DATABASE_PREFIX ?? "oisr_bench"}_${randomBytes(5).toString("hex")}`;
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  // A copy by files, not through the WAL (PostgreSQL 15's default, WAL_LOG, logs every page of
  // the template): FILE_COPY checkpoints before and after the copy, so each measured server starts
  // with no WAL behind it, and the checkpoint its own writes bring falls at the same point of every
  // run. Through the WAL, a 100,000-request backlog's copy brought a checkpoint (and full-page
  // images of every page first changed after it) somewhere inside the drain that followed.
  const from =
    template === undefined ? "" : ` template ${new URL(template).pathname.slice(1)} strategy file_copy`;
  await admin.unsafe(`create database ${name}${from}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

export const freshDatabase = (): Promise<{ url: string; drop(): Promise<void> }> => benchDatabase();

/** A copy of `template` (a database nobody is connected to): the same backlog for every server measured. */
export const cloneDatabase = (template: string): Promise<{ url: string; drop(): Promise<void> }> =>
  benchDatabase(template);

/** Starts a Node script and resolves once it prints a line matching `ready`. */
export async function startProcess(
  script: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string; match: RegExpExecArray; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = ready.exec(out);
      if (m) resolve(m);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before ready:\n${out}`)));
  });
  return {
    child,
    match,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/**
 * The production build of the server (`npm run build -w @oisr/server`), or another build's
 * `main.mjs` (BENCH_SERVER_MAIN) to run a benchmark against it as a same-run A/B.
 */
export const SERVER_MAIN = process.env.BENCH_SERVER_MAIN ?? `${ROOT}packages/server/dist/main.mjs`;

/** Rate limits high enough that no benchmark is ever throttled. */
export const NO_RATE_LIMITS = JSON.stringify({
  ingest: 1_000_000_000,
  ingest_inventory: 1_000_000_000,
  orders_read: 1_000_000_000,
  requests_read: 1_000_000_000,
  returns_read: 1_000_000_000,
  events_read: 1_000_000_000,
  webhooks: 1_000_000_000,
});

/** `oisr-server accounts create` on that database (migrates it first if needed). */
/**
 * A new account through the CLI. `env` is the server's settings where they matter to the CLI too:
 * its start makes partitions sized by OISR_REQUEST_RETENTION, and a partition it makes stays (a
 * covered range is skipped), so a CLI run with the default 30 days makes day-long partitions that a
 * server with minutes of retention then never rolls (decision 020).
 */
export async function createAccount(databaseUrl: string, name = "bench", env: Record<string, string> = {}) {
  const created = await runJson(SERVER_MAIN, ["accounts", "create", "--name", name], {
    ...env,
    DATABASE_URL: databaseUrl,
  });
  return { token: created.token as string, accountId: created.account_id as string };
}

/**
 * The V8 options the server is deployed with (`npm start`, the Dockerfile): a young generation of
 * at most 2 × 16 MB instead of Node 24's 2 × 64 MB on a machine with this much memory
 * (docs/decisions/008). Benchmarks start the server the same way; `nodeDefaults` drops them.
 */
export const SERVER_NODE_OPTIONS = "--max-semi-space-size=16";

function serverEnv(env: Record<string, string>, nodeDefaults = false): Record<string, string> {
  const options = [nodeDefaults ? "" : SERVER_NODE_OPTIONS, env.NODE_OPTIONS ?? ""].join(" ").trim();
  return { ...env, NODE_OPTIONS: options };
}

/** Starts `oisr-server serve` on PostgreSQL; returns its base URL and a token of a new account (or of `account`). */
export async function startOisr(
  databaseUrl: string,
  env: Record<string, string> = {},
  options: {
    nodeDefaults?: boolean;
    account?: { token: string; accountId: string };
    /** Another build's `dist/main.mjs` (a same-run baseline); this tree's build by default. */
    main?: string;
  } = {},
) {
  const created = options.account ?? (await createAccount(databaseUrl));
  const server = await startProcess(
    options.main ?? SERVER_MAIN,
    ["serve"],
    serverEnv({ DATABASE_URL: databaseUrl, PORT: "0", LOG_LEVEL: "warn", ...env }, options.nodeDefaults),
    /API:\s+(\S+)/,
  );
  return {
    ...server,
    url: server.match[1] ?? "",
    token: created.token,
    accountId: created.accountId,
  };
}

/** Starts a worker-only process (`OISR_ROLE=worker`): no HTTP port, ready once it says so. */
export async function startOisrWorker(
  databaseUrl: string,
  env: Record<string, string> = {},
  main = SERVER_MAIN,
) {
  return startProcess(
    main,
    ["serve"],
    serverEnv({ DATABASE_URL: databaseUrl, PORT: "0", LOG_LEVEL: "warn", ...env, OISR_ROLE: "worker" }),
    /worker ready in/,
  );
}

export async function runJson(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (c: Buffer) => {
    out += c.toString();
  });
  await new Promise((resolve) => child.once("exit", resolve));
  return JSON.parse(out) as Record<string, unknown>;
}
