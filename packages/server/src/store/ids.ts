// Server ids: a type prefix and a ULID, so ids sort by creation time (decision 001).
import { randomBytes, randomUUID } from "node:crypto";
import type { IdPrefix } from "@oisr/contract";
import { monotonicFactory } from "ulidx";

/**
 * ulidx draws one crypto random value per character by default (~30 µs an id, a fifth of the
 * worker's time on a 1000-order batch); hand it random bytes from a pool refilled in bulk.
 * Monotonic, so ids made in the same millisecond still sort in creation order.
 */
const POOL_SIZE = 4096;
let pool = randomBytes(POOL_SIZE);
let next = 0;
function pooledRandom(): number {
  if (next === POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    next = 0;
  }
  return (pool[next++] as number) / 256;
}
const ulid = monotonicFactory(pooledRandom);

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

export function newToken(): string {
  return `oisr_${randomBytes(32).toString("base64url")}`;
}

/**
 * A request id: a UUID version 7 (RFC 9562), unix milliseconds first, so ids sort by acceptance
 * time (decision 001). Built on randomUUID, which draws from a cached entropy pool (randomBytes(16)
 * per id was ~2 % of the ingest path's CPU): its version-4 layout already carries the RFC 9562
 * variant; the first 48 bits become the time and the version nibble a 7, leaving 74 random bits.
 */
export function newRequestId(): string {
  const random = randomUUID();
  const ms = Date.now().toString(16).padStart(12, "0");
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${random.slice(15)}`;
}
