// Deterministic idempotency keys: the same batch of the same file sends the same key on every run,
// so a send whose acknowledgment was lost is replayed by the API instead of stored twice.
import { createHash } from "node:crypto";

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** `oisr-cli-<sha256(file, batch index, attempt, items sent)>`: 73 printable chars. */
export function idempotencyKey(
  file: string,
  batchIndex: number,
  attempt: number,
  itemsJson: string[],
): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([file, batchIndex, attempt]));
  for (const json of itemsJson) hash.update("\n").update(json);
  return `oisr-cli-${hash.digest("hex")}`;
}
