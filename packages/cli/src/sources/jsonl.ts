// JSON Lines: one item per line; blank lines are skipped, anything else that is not a JSON object is reported.
import { readLines } from "./lines.ts";
import { invalid, type SourceEvent } from "./types.ts";

export async function* readJsonl(path: string): AsyncGenerator<SourceEvent> {
  for await (const { number, text, bytes } of readLines(path)) {
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield invalid(number, "invalid_json", (err as Error).message, bytes);
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      yield invalid(number, "not_an_object", "each line must be one JSON object", bytes);
      continue;
    }
    yield { kind: "item", item: value as Record<string, unknown>, line: number, bytes };
  }
}
