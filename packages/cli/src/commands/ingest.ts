// `oisr ingest orders|inventory|shipments|returns|dispositions FILE`
import { parseArgs } from "node:util";
import { ApiError, ConnectionError } from "@oisr/sdk";
import { CONNECTION_OPTIONS, connect } from "../client.ts";
import { CannotReachError, describeError } from "../errors.ts";
import { checkJsonLinesShape, checkKind } from "../ingest/preflight.ts";
import { createProgressView, formatDuration } from "../ingest/progress.ts";
import { writeReport } from "../ingest/report.ts";
import { ImportFailed, type ImportResult, runImport } from "../ingest/run.ts";
import { createValidators, fetchSpec, type ItemValidator } from "../ingest/validate.ts";
import { EXIT, type Io, writeLine } from "../io.ts";
import { formatOf, KINDS, type Kind, UsageError } from "../sources/open.ts";

export const INGEST_HELP = `Usage: oisr ingest orders|inventory|shipments|returns|dispositions FILE [options]

Imports a JSON Lines file (one item per line) or a CSV file in batches, waits for every
request, and reports the items that failed. Interrupted runs resume. Each disposition names
its return in return_id; batches of dispositions are sent per return.

Options:
  --format jsonl|csv       file format (default: from the extension; .csv is CSV)
  --batch-size N           items per request, 1-1000 (default 500)
  --concurrency N          batches in flight at once (default 4)
  --report FILE            write failed items as JSON Lines: {line, pointer, code, message, request_id}
  --state FILE             resume file (default FILE.oisr-state.json)
  --fresh                  ignore an existing resume file and import everything anew
  --progress bar|lines|none  (default: bar on a terminal, lines otherwise)
  --dead-retries N         resends of a batch whose request ended dead (default 2)
  --wait-timeout SECONDS   longest wait for one request (default 1800)
  --skip-validation        send items without checking them against the API's schema first
  --base-url URL           API root with /v2 (default $OISR_BASE_URL or ${"http://127.0.0.1:8080/v2"})
  --token TOKEN            account token (default $OISR_TOKEN)

Examples:
  oisr ingest orders orders.jsonl --report failures.jsonl
  oisr ingest inventory stock.csv --batch-size 200 --concurrency 2
  oisr ingest orders orders.jsonl          (again, after Ctrl-C or an error: resumes)

The summary counts created, updated, unchanged, stale (not applied: the API holds a version as
new or newer) and failed items apart. The file must be JSON Lines or CSV: a JSON array, pretty-
printed JSON or a file of another kind is refused before anything is sent (exit 2).

Exit status: 0 no item failed, 1 some failed (see --report), 2 usage error,
3 the run did not finish (interrupted, or an error such as a refused token or an
unreachable API); when it printed "State saved", the same command resumes it.`;

const STOPPING = "Stopping: finishing requests in flight (Ctrl-C again to quit at once)…";

/** 12345 -> "12,345". */
const n = (value: number) => value.toLocaleString("en-US");

/**
 * What the run did, on stderr: "Done: 12 succeeded, 0 failed of 12 items read; took 3.2 s
 * (4 items/s)", then each outcome apart ("Outcomes: 10 created, 2 updated, 0 unchanged, 0 stale,
 * 0 failed"). A stale item (the API holds a version as new or newer) is not applied, so it is
 * never counted as succeeded. After Ctrl-C the first line says how far the run got instead.
 */
export function summaryLines(
  result: Pick<ImportResult, "complete" | "counters">,
  elapsedMs: number,
  perSecond: number,
  interrupted: boolean,
): string[] {
  const { counters: c } = result;
  const took = `took ${formatDuration(elapsedMs)} (${perSecond} items/s)`;
  const resumed =
    c.resumedBatches > 0
      ? `; ${n(c.resumedBatches)} ${c.resumedBatches === 1 ? "batch was" : "batches were"} already done`
      : "";
  const stale = c.stale > 0 ? `${n(c.stale)} stale, ` : "";
  let first: string;
  if (result.complete) {
    first = `Done: ${n(c.succeeded)} succeeded, ${stale}${n(c.failed)} failed of ${n(c.read)} items read; ${took}${resumed}`;
  } else {
    const finished = c.succeeded + c.stale + c.failed;
    const percent = c.totalBytes > 0 ? Math.min(100, Math.floor((100 * c.bytes) / c.totalBytes)) : 100;
    first =
      `${interrupted ? "Interrupted" : "Stopped"} after ${n(finished)} of ${n(c.read)} items read (${percent}% of the file):` +
      ` ${n(c.succeeded)} succeeded, ${stale}${n(c.failed)} failed; ${took}${resumed}`;
  }
  const unknown =
    c.succeededUnknown > 0
      ? ` (and ${n(c.succeededUnknown)} succeeded in an earlier run, not broken down)`
      : "";
  const lines = [
    first,
    `Outcomes: ${n(c.created)} created, ${n(c.updated)} updated, ${n(c.unchanged)} unchanged, ${n(c.stale)} stale, ${n(c.failed)} failed${unknown}`,
  ];
  if (c.stale > 0) {
    lines.push(
      `Stale items were not applied: the API already holds a version as new or newer (by source_updated_at; as_of for inventory).`,
    );
  }
  return lines;
}

function resumeAdvice(error: unknown, baseUrl: string): string {
  if (error instanceof ApiError && error.status === 401)
    return "run the same command again with a valid token to resume.";
  if (error instanceof ConnectionError || error instanceof CannotReachError)
    return `run the same command again once ${baseUrl} answers to resume.`;
  return "run the same command again to resume.";
}

function positiveInt(
  value: string | undefined,
  name: string,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new UsageError(`--${name} must be an integer from 0 to ${max}`);
  return n;
}

export async function ingestCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      format: { type: "string" },
      "batch-size": { type: "string" },
      concurrency: { type: "string" },
      report: { type: "string" },
      state: { type: "string" },
      fresh: { type: "boolean" },
      progress: { type: "string" },
      "dead-retries": { type: "string" },
      "wait-timeout": { type: "string" },
      "skip-validation": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    writeLine(io.stdout, INGEST_HELP);
    return EXIT.ok;
  }
  const [kind, file, ...extra] = positionals;
  if (!kind || !(KINDS as readonly string[]).includes(kind) || !file || extra.length > 0) {
    throw new UsageError(`expected: oisr ingest ${KINDS.join("|")} FILE`);
  }
  const batchSize = positiveInt(values["batch-size"], "batch-size", 1000);
  if (batchSize === 0) throw new UsageError("--batch-size must be at least 1");
  const progressMode = values.progress ?? (io.stderr.isTTY ? "bar" : "lines");
  if (!["bar", "lines", "none"].includes(progressMode))
    throw new UsageError("--progress must be bar, lines or none");

  const format = formatOf(file, values.format);
  // A JSON array or pretty-printed JSON is named before anything else (no token or API needed).
  if (format === "jsonl") await checkJsonLinesShape(file, kind as Kind);

  const { client, stats, baseUrl } = connect(values, io);
  let validator: ItemValidator | undefined;
  if (!values["skip-validation"]) {
    const spec = await fetchSpec(baseUrl, io.fetch ?? ((request) => fetch(request)));
    if (spec) {
      const validators = createValidators(spec);
      validator = validators[kind as Kind];
      // A file of another kind is named before anything is sent.
      await checkKind(kind as Kind, format, file, validators);
    } else
      writeLine(io.stderr, `Could not load ${baseUrl}/openapi.json: items are validated by the API only.`);
  }
  const view = createProgressView({ stream: io.stderr, mode: progressMode as "bar" | "lines" | "none" });
  const onInterrupt = () => {
    view.interrupted();
    view.note(STOPPING);
  };
  io.signal.addEventListener("abort", onInterrupt, { once: true });
  const started = performance.now();
  let result: Awaited<ReturnType<typeof runImport>>;
  try {
    result = await runImport({
      client,
      kind: kind as Kind,
      file,
      format,
      batchSize,
      concurrency: positiveInt(values.concurrency, "concurrency", 64) || undefined,
      statePath: values.state,
      fresh: values.fresh,
      deadRetries: positiveInt(values["dead-retries"], "dead-retries", 100),
      waitTimeoutMs: (positiveInt(values["wait-timeout"], "wait-timeout") ?? 1800) * 1000,
      signal: io.signal,
      onProgress: (counters) => view.update(counters),
      validator,
    });
  } catch (error) {
    // The bar ends before anything else is printed (erased if nothing got anywhere); then the
    // error, then (only if there is something to resume) how to resume.
    view.stop({ clear: !(error instanceof ImportFailed) || error.batchesRecorded === 0 });
    if (!(error instanceof ImportFailed)) throw error;
    if (error.cause instanceof UsageError) throw error.cause;
    writeLine(io.stderr, `oisr ingest: ${describeError(error.cause, { baseUrl })}`);
    if (error.resumable) {
      writeLine(
        io.stderr,
        `State saved in ${error.statePath} (${error.batchesRecorded} ${error.batchesRecorded === 1 ? "batch" : "batches"} recorded): ${resumeAdvice(error.cause, baseUrl)}`,
      );
    }
    return EXIT.incomplete;
  } finally {
    view.stop();
    io.signal.removeEventListener("abort", onInterrupt);
  }
  const elapsedMs = performance.now() - started;
  const { counters, failures } = result;
  if (values.report) await writeReport(values.report, failures);

  const seconds = elapsedMs / 1000;
  const processed = counters.succeeded + counters.stale;
  const perSecond = seconds > 0 ? Math.round(processed / seconds) : processed;
  for (const line of summaryLines(result, elapsedMs, perSecond, io.signal.aborted))
    writeLine(io.stderr, line);
  if (stats.replayed > 0) {
    // Sent before (an earlier run, or --fresh): the API answered with the original request, so
    // the outcomes above are those of that first time, not something this run did.
    writeLine(
      io.stderr,
      `${n(stats.replayed)} ${stats.replayed === 1 ? "batch had" : "batches had"} been sent before with the same content: the API answered with the original request${stats.replayed === 1 ? "" : "s"} (Idempotent-Replayed), so ${stats.replayed === 1 ? "its" : "their"} outcomes are those of the first time; nothing was applied again.`,
    );
  }
  if (failures.length > 0) {
    if (values.report) writeLine(io.stderr, `Failed items: ${values.report}`);
    else {
      for (const f of failures.slice(0, 10))
        writeLine(io.stderr, `  line ${f.line} ${f.pointer} ${f.code}: ${f.message}`);
      if (failures.length > 10)
        writeLine(io.stderr, `  … ${failures.length - 10} more; pass --report FILE for all`);
    }
  }
  if (result.stateKept) {
    writeLine(
      io.stderr,
      result.complete
        ? `State kept in ${result.statePath}: running again sends nothing; --fresh imports anew.`
        : `State saved in ${result.statePath}: run the same command again to resume.`,
    );
  }
  writeLine(
    io.stdout,
    JSON.stringify({
      complete: result.complete,
      kind,
      file,
      batches: result.batches,
      read: counters.read,
      succeeded: counters.succeeded,
      created: counters.created,
      updated: counters.updated,
      unchanged: counters.unchanged,
      stale: counters.stale,
      failed: counters.failed,
      resumed_batches: counters.resumedBatches,
      elapsed_ms: Math.round(elapsedMs),
      items_per_second: perSecond,
      http_requests: stats.requests,
      http_429: stats.byStatus[429] ?? 0,
      replayed_batches: stats.replayed,
      report: values.report ?? null,
      state: result.stateKept ? result.statePath : null,
    }),
  );
  if (!result.complete) return EXIT.incomplete;
  return counters.failed > 0 ? EXIT.itemsFailed : EXIT.ok;
}
