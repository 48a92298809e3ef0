// Server ids: a type prefix and a ULID, so ids sort by creation time (decision 001).
import { randomBytes } from "node:crypto";
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

export type IdPrefix = "acc" | "ord" | "shp" | "ret" | "dsp" | "whs" | "evt" | "whd";

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

export function newToken(): string {
  return `oisr_${randomBytes(32).toString("base64url")}`;
}

/** A request id: a UUID version 7 (RFC 9562), unix milliseconds first, so ids sort by acceptance time (decision 001). */
export function newRequestId(): string {
  const b = randomBytes(16);
  b.writeUIntBE(Date.now(), 0, 6);
  b[6] = ((b[6] as number) & 0x0f) | 0x70;
  b[8] = ((b[8] as number) & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
