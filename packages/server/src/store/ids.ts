// Server ids: a type prefix and a ULID, so ids sort by creation time (decision 001).
import { randomBytes, randomUUID } from "node:crypto";
import type { IdPrefix } from "@oisr/contract";
import { decodeTime, encodeTime, monotonicFactory } from "ulidx";

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

/**
 * An id whose ULID carries the time `at` (unix ms, or an ISO date-time cut to its millisecond)
 * rather than now: an event's id carries the created_at its writer chose (the stage's time, the
 * request's completed_at), because `events` is partitioned on that time and found by it (idTime).
 * The random part comes from the same pool; ids made this way sort by `at`, and only by chance
 * within one millisecond.
 */
export function newIdAt(prefix: IdPrefix, at: number | string): string {
  const parsed = typeof at === "number" ? at : Date.parse(at);
  // A time that does not parse (no writer passes one) takes now rather than losing the row.
  const ms = Number.isFinite(parsed) && parsed >= 0 ? Math.floor(parsed) : Date.now();
  return `${prefix}_${encodeTime(ms, 10)}${ulid().slice(10)}`;
}

/**
 * The time a server id's ULID carries, as an ISO date-time: the created_at of an event or a
 * delivery, their partition key (decision 020), so a lookup by id reads one partition. Undefined
 * for an id that is not `<prefix>_<ULID>` (a caller's typo), which then matches nothing.
 */
export function idTime(id: string): string | undefined {
  const ulidPart = id.slice(id.indexOf("_") + 1);
  if (!/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(ulidPart)) return undefined;
  return new Date(decodeTime(ulidPart)).toISOString();
}

/** A new id and the time it carries, for rows whose created_at is their id's time (deliveries). */
export function newTimedId(prefix: IdPrefix): { id: string; createdAt: string } {
  const id = newId(prefix);
  return { id, createdAt: idTime(id) as string };
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
