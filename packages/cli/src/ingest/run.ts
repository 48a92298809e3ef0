// Streams a file into batches and sends them with bounded concurrency, waiting for each request;
// failed items are set aside and the rest of their batch resent. Resumable through the state file.
import { realpath, stat } from "node:fs/promises";
import { ConflictError, type OisrClient, type RequestRecord, ValidationError } from "@oisr/sdk";
import { type Format, formatOf, type Kind, openSource, UsageError } from "../sources/open.ts";
import type { SourceEvent, SourceInvalid } from "../sources/types.ts";
import { type Batch, toBatches } from "./batches.ts";
import { idempotencyKey, sha256 } from "./keys.ts";
import { type ApiItemError, mapErrors, type SentItem } from "./pointers.ts";
import { BODY_ROOT, send } from "./send.ts";
import { type BatchState, type Failure, type Outcomes, openState } from "./state.ts";
import type { ItemValidator } from "./validate.ts";

export interface ImportOptions {
  client: OisrClient;
  kind: Kind;
  file: string;
  format?: Format | undefined;
  /** Items per request (1–1000). Default 500. */
  batchSize?: number | undefined;
  /** Batches in flight (sent and not yet final). Default 4. */
  concurrency?: number | undefined;
  /** Default `${file}.oisr-state.json`. */
  statePath?: string | undefined;
  /** Ignore an existing state file and import the whole file anew. */
  fresh?: boolean | undefined;
  /** Resends of a batch whose request ended `dead` (nothing applied). Default 2. */
  deadRetries?: number | undefined;
  /** How long to wait for one request to become final. Default 30 min. */
  waitTimeoutMs?: number | undefined;
  /** Stops the run: sends in flight finish and are recorded, nothing new is sent, waits end. */
  signal?: AbortSignal | undefined;
  onProgress?: ((counters: Counters) => void) | undefined;
  onAcknowledged?: ((batchIndex: number, requestId: string) => void) | undefined;
  /** Checks items before they are sent (see validate.ts); invalid ones are reported, not sent. */
  validator?: ItemValidator | undefined;
}

async function* validated(events: AsyncIterable<SourceEvent>, validator: ItemValidator | undefined) {
  for await (const event of events) {
    const errors = event.kind === "item" && validator ? validator(event) : [];
    yield errors.length > 0
      ? ({ kind: "invalid", line: event.line, errors, bytes: event.bytes } as const)
      : event;
  }
}

export interface Counters {
  /** Items read from the file (invalid lines included). */
  read: number;
  sent: number;
  accepted: number;
  /** Items the API applied or found already applied: created + updated + unchanged (never stale). */
  succeeded: number;
  /** The request succeeded but the item was not applied: the API holds a version as new or newer. */
  stale: number;
  created: number;
  updated: number;
  unchanged: number;
  /**
   * Of `succeeded`, the items of batches done by an older CLI, whose state file kept no outcomes:
   * counted as succeeded, in none of created, updated, unchanged.
   */
  succeededUnknown: number;
  failed: number;
  /** Bytes of the file read so far, and its size. */
  bytes: number;
  totalBytes: number;
  /** Batches found final in the state file and skipped. */
  resumedBatches: number;
}

/** The run stopped on an error that running it again would meet again: it needs --fresh. */
export class NotResumableError extends Error {
  override name = "NotResumableError";
}

/** The run stopped on an error (the `cause`); says whether running it again resumes anything. */
export class ImportFailed extends Error {
  override name = "ImportFailed";
  readonly statePath: string;
  /** The state file records progress (batches sent or done) and was kept. */
  readonly stateKept: boolean;
  /** Batches that are done or acknowledged. */
  readonly batchesRecorded: number;
  constructor(cause: unknown, statePath: string, stateKept: boolean, batchesRecorded: number) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.statePath = statePath;
    this.stateKept = stateKept;
    this.batchesRecorded = batchesRecorded;
  }
  /** Running the same command again picks up where this run stopped. */
  get resumable(): boolean {
    return this.stateKept && !(this.cause instanceof NotResumableError);
  }
}

export interface ImportResult {
  /** Every batch reached a final outcome (false after an interruption). */
  complete: boolean;
  counters: Counters;
  batches: number;
  /** Every failed item, sorted by line. */
  failures: Failure[];
  statePath: string;
  /** False when the run completed without failures and the state file was removed. */
  stateKept: boolean;
}

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const { client, kind } = options;
  const batchSize = options.batchSize ?? 500;
  const concurrency = options.concurrency ?? 4;
  const deadRetries = options.deadRetries ?? 2;
  const file = await realpath(options.file).catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read ${options.file}: ${error.code ?? error.message}`);
  });
  const format = formatOf(file, options.format);
  const statePath = options.statePath ?? `${options.file}.oisr-state.json`;
  const store = await openState(
    statePath,
    { file, kind, format, batch_size: batchSize },
    options.fresh ?? false,
  );
  const { state } = store;
  const root = BODY_ROOT[kind];

  const counters: Counters = {
    read: 0,
    sent: 0,
    accepted: 0,
    succeeded: 0,
    stale: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    succeededUnknown: 0,
    failed: 0,
    bytes: 0,
    totalBytes: (await stat(file)).size,
    resumedBatches: 0,
  };
  const progress = () => options.onProgress?.({ ...counters });
  /** Adds the outcomes of a batch's succeeded request (or, from an older state file, just its count). */
  const countOutcomes = (outcomes: Outcomes | undefined, succeeded: number) => {
    if (!outcomes) {
      counters.succeeded += succeeded;
      counters.succeededUnknown += succeeded;
      return;
    }
    counters.created += outcomes.created;
    counters.updated += outcomes.updated;
    counters.unchanged += outcomes.unchanged;
    counters.stale += outcomes.stale;
    counters.succeeded += outcomes.created + outcomes.updated + outcomes.unchanged;
  };
  const invalid: Failure[] = [];
  const onInvalid = (event: SourceInvalid) => {
    invalid.push(...event.errors);
    counters.read += 1;
    counters.failed += 1;
  };

  // `stop` ends waits and keeps new sends from starting; set by the caller's signal or a fatal error.
  const stop = new AbortController();
  const onAbort = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  let fatal: { error: unknown } | undefined;
  let batchCount = 0;
  let complete = true;

  /** Sets aside the items the errors name; with none named, every item sent fails with them. */
  const applyErrors = (
    entry: BatchState,
    errors: readonly ApiItemError[],
    sent: SentItem[],
    requestId?: string,
  ) => {
    const { byItem, unmapped } = mapErrors(errors, root, sent, requestId);
    if (byItem.size === 0) {
      const reasons =
        unmapped.length > 0
          ? unmapped
          : [{ pointer: "", code: "request_failed", message: "the request failed" }];
      for (const item of sent) {
        entry.excluded.push(item.batchIndex);
        counters.failed += 1;
        entry.failures.push(
          ...reasons.map((e) => ({
            line: item.line,
            pointer: "",
            code: e.code,
            message: e.pointer ? `${e.pointer}: ${e.message}` : e.message,
            ...(requestId ? { request_id: requestId } : {}),
          })),
        );
      }
      return;
    }
    for (const [batchIndex, failures] of byItem) {
      entry.excluded.push(batchIndex);
      entry.failures.push(...failures);
      counters.failed += 1;
    }
  };

  const processBatch = async (batch: Batch) => {
    batchCount = Math.max(batchCount, batch.index + 1);
    counters.read += batch.items.length;
    counters.bytes = Math.max(counters.bytes, batch.bytes);
    // What is hashed of the items sent: their JSON, after the target they are sent under, if any.
    const hashed = (items: readonly { json: string }[]) => [
      ...(batch.target === undefined ? [] : [JSON.stringify({ target: batch.target })]),
      ...items.map((i) => i.json),
    ];
    const content = sha256(hashed(batch.items).join("\n"));
    let entry = state.batches[batch.index];
    if (entry && entry.content !== content) {
      throw new NotResumableError(
        `${options.file} changed since the run that wrote ${statePath} (batch ${batch.index} differs); run with --fresh to import it anew`,
      );
    }
    if (entry?.done) {
      counters.resumedBatches += 1;
      counters.sent += batch.items.length;
      counters.accepted += batch.items.length;
      countOutcomes(entry.outcomes, entry.succeeded);
      counters.failed += entry.excluded.length;
      progress();
      return;
    }
    if (!entry) {
      entry = {
        content,
        item_count: batch.items.length,
        excluded: [],
        attempt: 0,
        done: false,
        succeeded: 0,
        failures: [],
      };
      state.batches[batch.index] = entry;
    }
    counters.failed += entry.excluded.length;
    // Counted once per batch, however often its remaining items are resent.
    let counted = entry.request_id !== undefined;
    let acknowledged = counted;
    if (counted) {
      counters.sent += batch.items.length;
      counters.accepted += batch.items.length;
    }
    progress();

    while (true) {
      const excluded = new Set(entry.excluded);
      const sending = batch.items
        .map((item, batchIndex) => ({ ...item, batchIndex }))
        .filter((i) => !excluded.has(i.batchIndex));
      if (sending.length === 0) break;
      const key = idempotencyKey(file, batch.index, entry.attempt, hashed(sending));
      if (entry.key !== key || entry.request_id === undefined) {
        if (stop.signal.aborted) {
          complete = false;
          return;
        }
        if (!counted) counters.sent += batch.items.length;
        counted = true;
        progress();
        let ack: { request_id: string };
        try {
          ack = await send(
            client,
            kind,
            sending.map((i) => i.item),
            key,
            batch.target,
          );
        } catch (error) {
          if (error instanceof ValidationError) {
            applyErrors(entry, error.errors, sending);
            await store.save();
            progress();
            continue;
          }
          if (error instanceof ConflictError) {
            throw new NotResumableError(
              `idempotency key ${key} of batch ${batch.index} was used with another body`,
              {
                cause: error,
              },
            );
          }
          throw error;
        }
        entry.key = key;
        entry.request_id = ack.request_id;
        if (!acknowledged) counters.accepted += batch.items.length;
        acknowledged = true;
        await store.save();
        progress();
        options.onAcknowledged?.(batch.index, ack.request_id);
      }
      if (stop.signal.aborted) {
        complete = false;
        return;
      }
      let record: RequestRecord;
      try {
        record = await client.requests.waitFor(entry.request_id, {
          timeoutMs: options.waitTimeoutMs ?? 30 * 60_000,
          signal: stop.signal,
        });
      } catch (error) {
        if (stop.signal.aborted) {
          complete = false;
          return;
        }
        throw error;
      }
      if (record.status === "succeeded") {
        // The request's own counts: a stale item was accepted but not applied, so it is not "succeeded".
        const result = record.result;
        const outcomes: Outcomes | undefined = result
          ? {
              created: result.created,
              updated: result.updated,
              unchanged: result.unchanged,
              stale: result.stale,
            }
          : undefined;
        if (outcomes) entry.outcomes = outcomes;
        entry.succeeded = outcomes
          ? outcomes.created + outcomes.updated + outcomes.unchanged
          : sending.length;
        countOutcomes(outcomes, entry.succeeded);
        break;
      }
      if (record.status === "failed") {
        applyErrors(entry, record.errors, sending, record.request_id);
      } else if (entry.attempt < deadRetries) {
        entry.attempt += 1;
      } else {
        const error = record.error ?? {
          code: "processing_failed",
          message: "the request could not be processed",
        };
        applyErrors(entry, [{ pointer: "", ...error }], sending, record.request_id);
      }
      await store.save();
      progress();
    }
    entry.done = true;
    await store.save();
    progress();
  };

  const batches = toBatches(
    validated(openSource(kind, format, file), options.validator),
    batchSize,
    onInvalid,
  );
  const worker = async () => {
    while (!stop.signal.aborted) {
      const next = await batches.next();
      if (next.done) return;
      try {
        await processBatch(next.value);
      } catch (error) {
        fatal ??= { error };
        complete = false;
        stop.abort(error);
      }
    }
    complete = false;
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    await batches.return(undefined);
    await store.save();
  }
  // What a later run can build on: batches acknowledged or done (this run's or an earlier one's).
  const recorded = Object.values(state.batches).filter(
    (b) => b.done || b.request_id !== undefined || b.excluded.length > 0,
  ).length;
  if (fatal) {
    const keep = recorded > 0 || store.resumed;
    if (!keep) await store.remove();
    throw new ImportFailed(fatal.error, statePath, keep, recorded);
  }

  const failures = [...invalid, ...Object.values(state.batches).flatMap((b) => b.failures)].sort(
    (a, b) => a.line - b.line,
  );
  const stateKept = (!complete && (recorded > 0 || store.resumed)) || failures.length > 0;
  if (!stateKept) await store.remove();
  counters.bytes = complete ? counters.totalBytes : counters.bytes;
  progress();
  return { complete, counters, batches: batchCount, failures, statePath, stateKept };
}
