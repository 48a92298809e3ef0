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
