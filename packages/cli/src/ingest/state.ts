// The resume file (FILE.oisr-state.json): per batch, the idempotency key and request id of its
// acknowledged send, and its outcome. Written atomically (temp file + rename) after every change.
import { existsSync } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import type { Format, Kind } from "../sources/open.ts";
import { UsageError } from "../sources/open.ts";

export interface Failure {
  /** 1-based line in the imported file. */
  line: number;
  /** JSON Pointer into the item of that line ("" = the whole item). */
  pointer: string;
  code: string;
  message: string;
  request_id?: string;
}

/** What a batch's succeeded request did to its items (the request record's result counts). */
export interface Outcomes {
  created: number;
  updated: number;
  unchanged: number;
  stale: number;
}

export interface BatchState {
  /** sha256 of the batch as read from the file: a changed file is detected, not half-resumed. */
  content: string;
  item_count: number;
  /** Batch-local indices of items that failed and are left out of later sends. */
  excluded: number[];
  /** Bumped when a request ends `dead`, so the resend gets a new idempotency key. */
  attempt: number;
  /** The idempotency key and request id of the latest acknowledged send. */
  key?: string;
  request_id?: string;
  done: boolean;
  /** Items created, updated or unchanged (stale ones are not counted). */
  succeeded: number;
  /** The outcomes of the succeeded request; absent in state files of older versions. */
  outcomes?: Outcomes;
  failures: Failure[];
}

export interface ImportState {
  version: 1;
  file: string;
  kind: Kind;
  format: Format;
  batch_size: number;
  batches: Record<string, BatchState>;
}

export interface StateStore {
  readonly state: ImportState;
  readonly resumed: boolean;
  /** Schedules a write; resolves when the state as of this call is on disk. */
  save(): Promise<void>;
  remove(): Promise<void>;
}

export async function openState(
  path: string,
  identity: Omit<ImportState, "version" | "batches">,
  fresh: boolean,
): Promise<StateStore> {
  let state: ImportState = { version: 1, ...identity, batches: {} };
  let resumed = false;
  if (!fresh && existsSync(path)) {
    const saved = JSON.parse(await readFile(path, "utf8")) as ImportState;
    for (const field of ["file", "kind", "format", "batch_size"] as const) {
      if (saved[field] !== identity[field]) {
        throw new UsageError(
          `${path} belongs to another import (${field}: ${JSON.stringify(saved[field])}, now ${JSON.stringify(identity[field])}); run with --fresh to start over`,
        );
      }
    }
    state = saved;
    resumed = true;
  }
  let chain: Promise<void> = Promise.resolve();
  let dirty = false;
  const write = async () => {
    if (!dirty) return;
    dirty = false;
    const tmp = `${path}.tmp`;
    await writeFile(tmp, JSON.stringify(state));
    await rename(tmp, path);
  };
  return {
    state,
    resumed,
    save() {
      dirty = true;
      chain = chain.then(write);
      return chain;
    },
    async remove() {
      await chain;
      await rm(path, { force: true });
    },
  };
}
