// Identifiers with Web Crypto only, so the mock runs unchanged in browsers and Node.
import { base64url } from "@oisr/contract";

export { base64, base64url, fromBase64 } from "@oisr/contract";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Monotonic ULIDs: ids made in the same millisecond (a frozen mock clock makes many) still sort
 * in creation order, as lists ordered by id (webhook subscriptions, deliveries) rely on.
 */
export function ulidFactory(): (timeMs: number) => string {
  let lastTime = -1;
  let lastRandom = 0n;
  return (timeMs) => {
    let time = Math.max(0, Math.floor(timeMs));
    if (time <= lastTime) {
      time = lastTime;
      lastRandom += 1n;
    } else {
      lastTime = time;
      lastRandom = randomBytes(10).reduce((acc, b) => (acc << 8n) | BigInt(b), 0n) >> 1n;
    }
    let out = "";
    let t = time;
    for (let i = 0; i < 10; i++) {
      out = CROCKFORD.charAt(t % 32) + out;
      t = Math.floor(t / 32);
    }
    let r = lastRandom;
    let tail = "";
    for (let i = 0; i < 16; i++) {
      tail = CROCKFORD.charAt(Number(r & 31n)) + tail;
      r >>= 5n;
    }
    return out + tail;
  };
}

/** A version 7 UUID (time-ordered), as the server gives request ids. */
export function uuidv7(timeMs: number): string {
  const bytes = randomBytes(16);
  let t = Math.max(0, Math.floor(timeMs));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const h = hex(bytes);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A fresh API token, the same shape as the server's: `oisr_` and 32 random bytes. */
export function newToken(): string {
  return `oisr_${base64url(randomBytes(32))}`;
}
