// One process at a time on a PGlite data directory: PGlite is single-process, and a second writer
// (an admin command beside `serve`, or a second `serve`) can corrupt the database or write rows the
// running server never sees. `<dataDir>/oisr.lock` holds the holder's pid, role and HTTP port.
//
// Hand-written rather than proper-lockfile: the refusal has to name the holder (pid, port), which
// proper-lockfile does not store, and its mtime-based staleness needs a timer refreshing the lock;
// here a lock is stale when its pid is no longer running, checked once when a process opens the
// directory. The file is made by hard-linking a complete temporary file (exclusive like
// open(…, 'wx'), but never seen empty) and rewritten by rename. Known limits: a pid reused by an
// unrelated process keeps a stale lock (delete the file), and two processes taking over the same
// stale lock at the same instant may both succeed.
import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

export interface LockHolder {
  pid: number;
  started_at: string;
  role: string;
  port?: number;
}

export class DataDirLocked extends Error {
  /** Absolute path of the data directory. */
  readonly dataDir: string;
  readonly holder: LockHolder;
  constructor(dataDir: string, holder: LockHolder) {
    super(
      `data directory ${dataDir} is in use by pid ${holder.pid}${holder.port ? `, port ${holder.port}` : ""}`,
    );
    this.name = "DataDirLocked";
    this.dataDir = dataDir;
    this.holder = holder;
  }
}

export interface DataDirLock {
  /** Records the HTTP port the holder listens on, for the message a second process prints. */
  setPort(port: number): void;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** Lock files this process holds: a file naming our own pid but not in here is left by an earlier
 * process that had the same pid (a container restarted on the same volume), so it is stale. */
const held = new Set<string>();

function readHolder(file: string): LockHolder | undefined {
  try {
    const holder = JSON.parse(readFileSync(file, "utf8")) as LockHolder;
    return Number.isInteger(holder?.pid) && holder.pid > 0 ? holder : undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw err;
    return undefined; // garbage: stale
  }
}

function unlinkIfOurs(file: string): void {
  try {
    if (readHolder(file)?.pid === process.pid) unlinkSync(file);
  } catch {}
}

function releaseAll(): void {
  for (const file of held) unlinkIfOurs(file);
  held.clear();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Writes `info` to `file` atomically: a reader sees the whole old or the whole new content. */
function writeInfo(file: string, info: LockHolder, place: (tmp: string) => void): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(info));
  try {
    place(tmp);
  } finally {
    try {
      unlinkSync(tmp);
    } catch {}
  }
}

export function acquireDataDirLock(dataDir: string, info: { role: string }): DataDirLock {
  const dir = resolve(dataDir);
  const file = join(dir, "oisr.lock");
  const mine: LockHolder = { pid: process.pid, started_at: new Date().toISOString(), role: info.role };
  for (let attempt = 0; ; attempt++) {
    try {
      // Created exclusively and with its content at once (a hard link fails if the file exists), so
      // no other process ever reads it half-written.
      writeInfo(file, mine, (tmp) => linkSync(tmp, file));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 3) throw err;
    }
    let holder: LockHolder | undefined;
    try {
      holder = readHolder(file);
    } catch {
      continue; // removed meanwhile: try again
    }
    const ours = holder?.pid === process.pid && held.has(file);
    if (holder && (ours || (holder.pid !== process.pid && alive(holder.pid))))
      throw new DataDirLocked(dir, holder);
    try {
      unlinkSync(file); // stale: its process is gone, or the file is not ours to understand
    } catch {}
  }
  held.add(file);
  // One synchronous 'exit' listener for every lock of the process (process.exit, end of main).
  if (!process.listeners("exit").includes(releaseAll)) process.on("exit", releaseAll);

  const release = () => {
    if (held.delete(file)) unlinkIfOurs(file);
  };
  return {
    setPort(port) {
      if (!held.has(file)) return;
      mine.port = port;
      writeInfo(file, mine, (tmp) => renameSync(tmp, file));
    },
    release,
  };
}
