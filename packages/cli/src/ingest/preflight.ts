// Checks made before anything is sent, for the two mistakes a first import usually makes: a file
// that is JSON but not JSON Lines (an array, or pretty-printed objects), which would otherwise be
// reported line by line as `invalid_json`; and a file of another kind (orders sent as returns),
// which would otherwise be reported item by item as schema errors. Both are usage errors (exit 2)
// that name the fix.

import { readLines } from "../sources/lines.ts";
import { type Format, KINDS, type Kind, openSource, UsageError } from "../sources/open.ts";
import type { SourceItem } from "../sources/types.ts";
import type { ItemValidator } from "./validate.ts";

/** One item of each kind, as the messages name it. */
export const NOUN: Record<Kind, string> = {
  orders: "order",
  inventory: "inventory snapshot",
  shipments: "shipment",
  returns: "return",
  dispositions: "disposition",
};

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);

/** A path as typed into a shell: quoted when it holds anything but plain characters. */
export function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}

/** Where the converted file could go: orders.json -> orders.jsonl, orders.jsonl -> orders.lines.jsonl. */
function jsonlName(path: string): string {
  const stem = path.replace(/\.(json|jsonl|ndjson|txt)$/i, "");
  const name = `${stem}.jsonl`;
  return name === path ? `${stem}.lines.jsonl` : name;
}

/**
 * Throws a UsageError when a JSON Lines file holds a JSON array or pretty-printed JSON: its first
 * non-blank line is `[…`, or a `{` that does not close on the same line. Reads only that line.
 */
export async function checkJsonLinesShape(path: string, kind: Kind): Promise<void> {
  let first: string | undefined;
  const lines = readLines(path);
  try {
    for await (const { text } of lines) {
      if (text.trim() !== "") {
        first = text.trim();
        break;
      }
    }
  } catch {
    return; // unreadable: the import itself says so
  } finally {
    await lines.return(undefined);
  }
  if (first === undefined) return;
  let parsed: unknown;
  let parses = true;
  try {
    parsed = JSON.parse(first);
  } catch {
    parses = false;
  }
  const noun = NOUN[kind];
  const fix = `the CLI reads JSON Lines, one ${noun} per line:`;
  if (first.startsWith("[") && (!parses || Array.isArray(parsed))) {
    throw new UsageError(
      `${path} holds a JSON array; ${fix} \`jq -c '.[]' ${shellWord(path)} > ${shellWord(jsonlName(path))}\`, then import that file`,
    );
  }
  if (first.startsWith("{") && !parses) {
    throw new UsageError(
      `${path} holds pretty-printed JSON (${article(noun)} spread over several lines); ${fix} \`jq -c . ${shellWord(path)} > ${shellWord(jsonlName(path))}\`, then import that file`,
    );
  }
}

/** The first item `kind`'s reader makes of the file (invalid lines skipped), or undefined. */
async function firstItem(kind: Kind, format: Format, path: string): Promise<SourceItem | undefined> {
  const events = openSource(kind, format, path);
  try {
    let seen = 0;
    for await (const event of events) {
      if (event.kind === "item") return event;
      if (++seen >= 100) return undefined;
    }
  } catch {
    // unreadable: the import itself says so
  } finally {
    await events.return(undefined);
  }
  return undefined;
}

/**
 * Throws a UsageError when the file's first item is not valid as `kind` but is valid as another
 * kind (as that kind's reader reads the file): "the first record looks like an order, not a
 * return; did you mean `oisr ingest orders FILE`?". A first item invalid for every kind is left to
 * the import, which reports it with its problems.
 */
export async function checkKind(
  kind: Kind,
  format: Format,
  path: string,
  validators: Record<Kind, ItemValidator>,
): Promise<void> {
  const asked = await firstItem(kind, format, path);
  if (asked && validators[kind](asked).length === 0) return;
  for (const other of KINDS) {
    if (other === kind) continue;
    const item = await firstItem(other, format, path);
    if (item && validators[other](item).length === 0) {
      throw new UsageError(
        `the first record (line ${item.line}) looks like ${article(NOUN[other])}, not ${article(NOUN[kind])}; did you mean \`oisr ingest ${other} ${shellWord(path)}\`?`,
      );
    }
  }
}
