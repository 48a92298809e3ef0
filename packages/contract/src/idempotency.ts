// Idempotency-Key on ingest calls, scoped to the account, the endpoint as called and the key: while
// the key is live, the same body is answered with the first call's 202 (`Idempotent-Replayed:
// true`) and nothing new is stored; another body is 422 `idempotency_key_reused`. Bodies are
// compared by fingerprint, so a store keeps 64 characters per key rather than the body.
import { HttpProblem } from "./problems.ts";

/** How long a key binds, from the call that first used it. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

export type IdempotencyDecision = "new" | "replay" | "conflict";

/** Whether a key first used at `createdAt` (epoch ms) still binds at `now`. */
export const idempotencyKeyLive = (createdAt: number, now: number): boolean =>
  createdAt >= now - IDEMPOTENCY_WINDOW_MS;

/**
 * What a call with a key gets, given the live record of that key (`undefined`: never used, or
 * expired) and the fingerprint of the call's body.
 */
export function idempotencyDecision(
  live: { bodyHash: string } | undefined,
  bodyHash: string,
): IdempotencyDecision {
  if (live === undefined) return "new";
  return live.bodyHash === bodyHash ? "replay" : "conflict";
}

export const idempotencyKeyReused = () =>
  new HttpProblem(
    422,
    "idempotency_key_reused",
    `This Idempotency-Key was already used with a different body on this endpoint in the last ${IDEMPOTENCY_WINDOW_MS / 3_600_000} hours. Use a new key for a new request.`,
  );

/**
 * The body fingerprint: SHA-256 of the body's JSON text as the call is stored, in hex. The server
 * computes the same digest with node:crypto, synchronously: Web Crypto's hop to a worker thread
 * would add tens of microseconds to every ingest acknowledgement (its tests pin the two equal).
 */
export async function bodyFingerprint(bodyJson: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(bodyJson));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
