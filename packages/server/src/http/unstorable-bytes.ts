// @oisr/contract's jsonTextMayHoldUnstorable (/\\u0000|\\ud[89a-f]/i over the text) read from the
// bytes of a body between two offsets, so a large body is cleared a slice per turn of the event loop.
// Before, a 4.8 MiB body was decoded as latin1 and searched in one step: up to 136 ms with the
// machine loaded (bench/hostile-input.ts profile). Escapes are ASCII, so bytes and latin1 text agree.

const BACKSLASH = 0x5c;

const isU = (b: number | undefined) => b === 0x75 || b === 0x55;
const isD = (b: number | undefined) => b === 0x64 || b === 0x44;
const isZero = (b: number | undefined) => b === 0x30;
/** 8, 9, a–f or A–F: the second hex digit of a surrogate's escape. */
const isSurrogateDigit = (b: number | undefined) =>
  b !== undefined && (b === 0x38 || b === 0x39 || (b >= 0x61 && b <= 0x66) || (b >= 0x41 && b <= 0x46));

/**
 * Whether a match of jsonTextMayHoldUnstorable's pattern starts between `start` and `end` (it may
 * read up to 5 bytes past `end`). Slices that cover the body give the answer for the whole body.
 */
export function escapesMayHoldUnstorable(bytes: Buffer, start: number, end: number): boolean {
  for (let i = bytes.indexOf(BACKSLASH, start); i !== -1 && i < end; i = bytes.indexOf(BACKSLASH, i + 1)) {
    if (!isU(bytes[i + 1])) continue;
    const a = bytes[i + 2];
    if (isZero(a) && isZero(bytes[i + 3]) && isZero(bytes[i + 4]) && isZero(bytes[i + 5])) return true;
    if (isD(a) && isSurrogateDigit(bytes[i + 3])) return true;
  }
  return false;
}
