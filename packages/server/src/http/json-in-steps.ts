// JSON.stringify of a large body in steps on the CPU lane. In one step, serialising a parsed 4.8 MiB
// body held the event loop up to 170 ms with the machine loaded (profile of bench/hostile-input.ts).
// An ingest body is an object whose arrays hold at most 1,000 items (an inventory snapshot, the
// largest, about 600 KB), so each top-level value, and each item of a top-level array, is one
// piece serialised natively; a step serialises pieces until it has written about STEP_CHARS. The
// text is the same as JSON.stringify's, character for character: the body's hash for idempotency
// depends on it (test: json-in-steps.test.ts).
import { onLane } from "./cpu-lane.ts";

const STEP_CHARS = 256 * 1024;

/** The pieces of JSON.stringify(value) whose concatenation is that text, in order. */
export function* jsonPieces(value: unknown): Generator<string> {
  if (value === null || typeof value !== "object" || Array.isArray(value) || hasToJson(value)) {
    yield JSON.stringify(value) ?? "null";
    return;
  }
  yield "{";
  let first = true;
  for (const key of Object.keys(value)) {
    const child = (value as Record<string, unknown>)[key];
    // JSON.stringify leaves out a member whose value it cannot write (undefined, a function).
    if (JSON.stringify(Array.isArray(child) ? [] : child) === undefined) continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(child) || hasToJson(child)) {
      yield JSON.stringify(child);
      continue;
    }
    yield "[";
    for (let i = 0; i < child.length; i++) {
      // An item JSON.stringify cannot write is written null in an array.
      yield `${i === 0 ? "" : ","}${JSON.stringify(child[i]) ?? "null"}`;
    }
    yield "]";
  }
  yield "}";
}

function hasToJson(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

/** JSON.stringify(value), written in steps on the CPU lane. */
export async function stringifyOnLane(value: unknown): Promise<string> {
  const pieces = jsonPieces(value);
  const out: string[] = [];
  for (;;) {
    const done = await onLane(() => {
      let written = 0;
      while (written < STEP_CHARS) {
        const next = pieces.next();
        if (next.done) return true;
        out.push(next.value);
        written += next.value.length;
      }
      return false;
    });
    if (done) break;
  }
  return onLane(() => out.join(""));
}
