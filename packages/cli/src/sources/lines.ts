// Reads a file line by line without loading it, keeping 1-based line numbers and bytes consumed.
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export interface Line {
  /** 1-based line number in the file. */
  number: number;
  text: string;
  /** Bytes of the file consumed up to and including this line (for progress). */
  bytes: number;
}

export async function* readLines(path: string): AsyncGenerator<Line> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let number = 0;
  let bytes = 0;
  for await (const text of lines) {
    number += 1;
    bytes += Buffer.byteLength(text) + 1;
    // A UTF-8 byte order mark would otherwise break the first JSON value or CSV header.
    yield { number, text: number === 1 ? text.replace(/^\uFEFF/, "") : text, bytes };
  }
}
