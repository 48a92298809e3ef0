// UTF-8 decoding of a large body in steps on the CPU lane: in one step, buf.toString("utf8") of a
// 4.8 MiB body held the event loop up to 214 ms with the machine loaded (profile of
// bench/hostile-input.ts). Each step decodes about STEP_BYTES ending before a byte that starts a
// character (or an ASCII byte), so no character is split and the text is the one-pass decoding's,
// invalid sequences included (each decodes to the same U+FFFD either way: a sequence never runs
// across a byte that is not a continuation byte). Test: utf8-in-steps.test.ts.
import { onLane } from "./cpu-lane.ts";

const STEP_BYTES = 256 * 1024;

const isContinuation = (b: number | undefined) => b !== undefined && (b & 0xc0) === 0x80;

/**
 * Where a step from `start` that would end at `end` ends: moved back over up to 3 continuation bytes,
 * or, when that would leave the step empty, on over them.
 */
export function characterBoundary(bytes: Buffer, start: number, end: number): number {
  if (end >= bytes.length) return bytes.length;
  let cut = end;
  while (cut > end - 3 && cut > start && isContinuation(bytes[cut])) cut--;
  if (cut > start && !isContinuation(bytes[cut])) return cut;
  cut = end;
  while (cut < end + 3 && cut < bytes.length && isContinuation(bytes[cut])) cut++;
  return cut;
}

/** The bytes' UTF-8 text as `buf.toString("utf8")` gives it, decoded a step at a time. */
export async function decodeUtf8OnLane(bytes: Buffer, stepBytes = STEP_BYTES): Promise<string> {
  const pieces: string[] = [];
  for (let start = 0; start < bytes.length; ) {
    const end = characterBoundary(bytes, start, start + stepBytes);
    const from = start;
    pieces.push(await onLane(() => bytes.toString("utf8", from, end)));
    start = end;
  }
  return pieces.length === 1 ? (pieces[0] as string) : onLane(() => pieces.join(""));
}
