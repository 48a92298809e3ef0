// Server ids: a type prefix and a ULID, so ids sort by creation time (decision 001).
import { randomBytes } from "node:crypto";
import { ulid } from "ulidx";

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
