// `oisr orders watch`: the orders change feed as JSON Lines on stdout, one order per line.

import { once } from "node:events";
import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { CONNECTION_OPTIONS, connect } from "../client.ts";
import { formatDuration } from "../ingest/progress.ts";
import { EXIT, type Io, writeLine } from "../io.ts";
import { UsageError } from "../sources/open.ts";

export const ORDERS_HELP = `Usage: oisr orders watch [options]

Prints every order that changed, as one JSON object per line, oldest change first, then keeps
polling. An order comes again after each later change: upsert by id and version.

Options:
  --cursor C          start after this cursor (default: the beginning, or --cursor-file's)
  --cursor-file F     read the cursor from F at start and save it there after every page
  --interval SECONDS  pause between polls at the end of the feed (default 5)
  --once              stop at the end of the feed instead of polling
  --base-url URL, --token TOKEN  (default $OISR_BASE_URL, $OISR_TOKEN)

Progress goes to stderr while pages come in (pages and orders read so far, every few seconds);
the last cursor is printed on stderr when the command stops (Ctrl-C, --once).

Examples:
  oisr orders watch --cursor-file orders.cursor | my-consumer     (resumes where it stopped)
  oisr orders watch --once > changed.jsonl                        (stop at the end of the feed)`;

/** How often `orders watch` says how far it got, on stderr, while pages come in. */
export const PROGRESS_INTERVAL_MS = 2000;

const n = (value: number) => value.toLocaleString("en-US");
const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;

async function saveCursor(file: string, cursor: string): Promise<void> {
  await writeFile(`${file}.tmp`, `${cursor}\n`);
  await rename(`${file}.tmp`, file);
}

export async function ordersCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      cursor: { type: "string" },
      "cursor-file": { type: "string" },
      interval: { type: "string" },
      once: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    writeLine(io.stdout, ORDERS_HELP);
    return EXIT.ok;
  }
  if (positionals[0] !== "watch" || positionals.length > 1)
    throw new UsageError("expected: oisr orders watch");
  const intervalMs = Number(values.interval ?? 5) * 1000;
  if (!Number.isFinite(intervalMs) || intervalMs < 0)
    throw new UsageError("--interval must be a number of seconds");
  const cursorFile = values["cursor-file"];
  let cursor = values.cursor;
  if (cursor === undefined && cursorFile && existsSync(cursorFile)) {
    cursor = (await readFile(cursorFile, "utf8")).trim() || undefined;
  }

  const { client } = connect(values, io);
  const { signal } = io;
  // Progress on stderr (stdout is the feed): throttled, and only while pages come in.
  const started = Date.now();
  let lastReport = started;
  let pages = 0;
  let orders = 0;
  let reported = false;
  let caughtUp = false;
  const soFar = () =>
    `${plural(pages, "page", "pages")}, ${plural(orders, "order", "orders")} read in ${formatDuration(Date.now() - started)}`;
  try {
    while (!signal.aborted) {
      const page = await client.orders.list(cursor ? { cursor, limit: 200 } : { limit: 200 }, { signal });
      for (const order of page.data) {
        if (!io.stdout.write(`${JSON.stringify(order)}\n`)) await once(io.stdout, "drain");
      }
      // Saved only once the whole page is out: a restart never skips an order it did not print.
      cursor = page.next_cursor;
      if (cursorFile) await saveCursor(cursorFile, cursor);
      pages += 1;
      orders += page.data.length;
      if (page.has_more && Date.now() - lastReport >= PROGRESS_INTERVAL_MS) {
        writeLine(io.stderr, `orders watch: ${soFar()} so far…`);
        lastReport = Date.now();
        reported = true;
      }
      if (page.has_more) continue;
      if (values.once) break;
      if (!caughtUp && reported)
        writeLine(
          io.stderr,
          `orders watch: caught up after ${soFar()}; polling every ${intervalMs / 1000} s`,
        );
      caughtUp = true;
      await sleep(intervalMs, undefined, { signal }).catch(() => undefined);
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  }
  const end = signal.aborted ? "interrupted after" : "done:";
  writeLine(io.stderr, `orders watch: ${end} ${soFar()}`);
  if (cursor) writeLine(io.stderr, `cursor: ${cursor}`);
  return EXIT.ok;
}
