// One writer on a PGlite data directory: the lock file itself, then two real `oisr-server`
// processes (and an admin command) on one directory.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { acquireDataDirLock, DataDirLocked, type LockHolder } from "./data-dir-lock.ts";

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "oisr-lock-test-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const lockFile = (dir: string) => join(dir, "oisr.lock");
const readLock = (dir: string) => JSON.parse(readFileSync(lockFile(dir), "utf8")) as LockHolder;

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid as number;
}

describe("acquireDataDirLock", () => {
  it("refuses a second holder, naming the first one's pid and port", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, { role: "serve" });
    lock.setPort(8123);
    expect(readLock(dir)).toMatchObject({ pid: process.pid, role: "serve", port: 8123 });
    let thrown: unknown;
    try {
      acquireDataDirLock(dir, { role: "accounts create" });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DataDirLocked);
    expect((thrown as DataDirLocked).holder).toMatchObject({ pid: process.pid, port: 8123 });
    lock.release();
  });

  it("takes over a lock whose process has exited, or that is garbage", async () => {
    const dir = tempDir();
    const pid = await deadPid();
    writeFileSync(lockFile(dir), JSON.stringify({ pid, started_at: "2020-01-01T00:00:00Z", role: "serve" }));
    const lock = acquireDataDirLock(dir, { role: "serve" });
    expect(readLock(dir).pid).toBe(process.pid);
    lock.release();

    writeFileSync(lockFile(dir), "{not json");
    const again = acquireDataDirLock(dir, { role: "serve" });
    expect(readLock(dir).pid).toBe(process.pid);
    again.release();
  });

  it("release removes the file, and only while it is still ours", () => {
    const dir = tempDir();
    const lock = acquireDataDirLock(dir, { role: "serve" });
    lock.release();
    expect(existsSync(lockFile(dir))).toBe(false);

    const second = acquireDataDirLock(dir, { role: "serve" });
    const other = { pid: process.ppid, started_at: new Date().toISOString(), role: "serve", port: 9 };
    writeFileSync(lockFile(dir), JSON.stringify(other));
    second.release();
    expect(readLock(dir)).toEqual(other);
  });
});

const serverMain = fileURLToPath(new URL("../main.ts", import.meta.url));

/** Runs `oisr-server <args>` on the embedded database in `dir`. */
function oisr(dir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, OISR_DATA_DIR: dir, PORT: "0", LOG_LEVEL: "warn" };
  delete env.DATABASE_URL;
  delete env.OISR_ROLE;
  const child = spawn(process.execPath, [serverMain, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

describe("two processes on one data directory", () => {
  it("a second server and an admin command exit 1 and say who holds the database", async () => {
    const dir = tempDir();
    const first = oisr(dir, ["serve"]);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        first.child.stdout.on("data", () => {
          const api = /API:\s+(\S+)/.exec(first.stdout());
          if (api?.[1]) resolve(api[1]);
        });
        void first.exited.then((code) =>
          reject(new Error(`first server exited (${code}):\n${first.stdout()}${first.stderr()}`)),
        );
      });
      const port = Number(new URL(url).port);
      expect(readLock(dir)).toMatchObject({ pid: first.child.pid, role: "serve", port });

      const second = oisr(dir, ["serve"]);
      expect(await second.exited).toBe(1);
      expect(second.stdout()).toBe("");
      expect(second.stderr()).toBe(
        `OISR is already running on this data directory (${dir}): pid ${first.child.pid}, port ${port}. Stop it first, or set OISR_DATA_DIR to another directory.\n`,
      );

      const admin = oisr(dir, ["accounts", "create", "--name", "acme"]);
      expect(await admin.exited).toBe(1);
      expect(admin.stdout()).not.toMatch(/token|oisr_/);
      expect(JSON.parse(admin.stdout())).toEqual({
        error: `The OISR server (pid ${first.child.pid}, port ${port}) holds the embedded database in ${dir}; stop it first, or run this command against PostgreSQL with DATABASE_URL.`,
      });

      // The refusals left the holder's lock in place; stopping the server releases it.
      expect(readLock(dir).pid).toBe(first.child.pid);
      first.child.kill("SIGTERM");
      expect(await first.exited).toBe(0);
      expect(existsSync(lockFile(dir))).toBe(false);

      const after = oisr(dir, ["accounts", "create", "--name", "acme"]);
      expect(await after.exited, after.stderr()).toBe(0);
      expect(JSON.parse(after.stdout())).toMatchObject({ name: "acme", token: expect.any(String) });
      expect(existsSync(lockFile(dir))).toBe(false);
    } finally {
      first.child.kill("SIGKILL");
    }
  }, 90_000);
});
