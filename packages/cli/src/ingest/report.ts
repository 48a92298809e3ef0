// The failure report: one JSON object per failed item error, in file order.

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import type { Failure } from "./state.ts";

export async function writeReport(path: string, failures: readonly Failure[]): Promise<void> {
  const out = createWriteStream(path);
  for (const failure of failures) {
    if (!out.write(`${JSON.stringify(failure)}\n`)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}
