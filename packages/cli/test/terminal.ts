// A fake terminal for output tests: a writable stream that says it is a TTY, and the screen its
// output leaves, with the control sequences progress bars use (carriage return, erase line, cursor
// save/restore and moves) applied as a terminal would.
import { PassThrough } from "node:stream";

export interface FakeTerminal {
  stream: PassThrough & { isTTY: true; columns: number };
  /** Everything written, control sequences included. */
  raw(): string;
  /** The lines on the screen, trailing spaces trimmed, trailing empty lines dropped. */
  screen(): string[];
}

export function fakeTerminal(columns = 120): FakeTerminal {
  const stream = Object.assign(new PassThrough(), { isTTY: true as const, columns });
  let raw = "";
  stream.on("data", (chunk) => {
    raw += chunk;
  });
  return { stream, raw: () => raw, screen: () => render(raw, columns) };
}

export function render(output: string, columns = 120): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  let saved = { row: 0, col: 0 };
  const line = () => {
    while (lines.length <= row) lines.push([]);
    return lines[row] as string[];
  };
  for (let i = 0; i < output.length; i++) {
    const ch = output[i] as string;
    if (ch === "\x1b") {
      const rest = output.slice(i + 1);
      if (rest.startsWith("7")) {
        saved = { row, col };
        i += 1;
        continue;
      }
      if (rest.startsWith("8")) {
        ({ row, col } = saved);
        i += 1;
        continue;
      }
      const csi = /^\[(\??)([0-9;]*)([A-Za-z])/.exec(rest);
      if (!csi) continue;
      i += csi[0].length;
      const [, priv, args, command] = csi;
      if (priv) continue; // cursor visibility, line wrapping: nothing on screen
      const n = Number(args?.split(";")[0] || 0);
      if (command === "K") {
        const current = line();
        if (n === 0) current.length = Math.min(current.length, col);
        else if (n === 1) for (let c = 0; c <= col && c < current.length; c++) current[c] = " ";
        else current.length = 0;
      } else if (command === "G") col = Math.max(0, n - 1);
      else if (command === "A") row = Math.max(0, row - (n || 1));
      else if (command === "B") row += n || 1;
      else if (command === "C") col += n || 1;
      else if (command === "D") col = Math.max(0, col - (n || 1));
      else if (command === "J") lines.length = row + 1;
      continue;
    }
    if (ch === "\r") col = 0;
    else if (ch === "\n") {
      row += 1;
      col = 0;
    } else {
      if (col >= columns) {
        row += 1;
        col = 0;
      }
      const current = line();
      while (current.length < col) current.push(" ");
      current[col] = ch;
      col += 1;
    }
  }
  const text = lines.map((l) => l.join("").trimEnd());
  while (text.length > 0 && text[text.length - 1] === "") text.pop();
  return text;
}
