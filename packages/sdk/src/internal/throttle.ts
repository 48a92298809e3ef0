import { abortReason, throwIfAborted } from "./abort.ts";
import { parseIntHeader, parseRetryAfter, resetAtMs } from "./retry-policy.ts";
import type { RateLimitScope } from "./scopes.ts";

/**
 * Client-side pacing from the rate-limit headers, so that a burst (1000 concurrent ingests) is
 * spread over the window instead of earning 429s.
 *
 * Per scope it keeps `budget`: a lower bound of the calls the server still allows, minus calls
 * already reserved. A call may start only while the budget is positive. The bound stays a lower
 * bound under concurrency because a response's `X-RateLimit-Remaining` is discounted by every
 * call that overlapped it in flight (any of them may have been counted after it):
 *
 *   bound = Remaining − (calls in flight when it was sent + calls sent while it was in flight)
 *
 * The server's remaining only grows with time (the rolling window drops old calls), so a stale
 * bound is never too high. When the budget is spent, the limiter waits until
 * `X-RateLimit-Reset` (when the oldest counted call leaves the window, so at least one slot is
 * free), plus a margin for the header's whole-second resolution, and sends one probe whose
 * response gives a fresh figure. Before any figure is known, calls go one at a time.
 *
 * The guarantee (no 429) holds while this client is the only consumer of the account's limit;
 * with other consumers, a 429 still updates the state and the transport retries after
 * `Retry-After`.
 */
export interface Throttle {
  /** Waits for a slot in every scope; resolves with a ticket to hand back to `complete` or `cancel`. */
  acquire(scopes: readonly RateLimitScope[], signal?: AbortSignal): Promise<ThrottleTicket>;
  /** The call finished (`response` undefined on a network error or timeout). */
  complete(ticket: ThrottleTicket, response: Response | undefined): void;
  /** The slot was reserved but the call was never sent. */
  cancel(ticket: ThrottleTicket): void;
  /** Current belief per scope, for diagnostics and tests. */
  snapshot(): Record<string, { known: boolean; budget: number; inFlight: number; limit: number | undefined }>;
}

export interface ThrottleOptions {
  now?: () => number;
  /** Added to `X-RateLimit-Reset`, which has whole-second resolution. */
  resetMarginMs?: number;
}

interface Reservation {
  state: ScopeState;
  sentSeq: number;
  inFlightAtSend: number;
}

export interface ThrottleTicket {
  readonly reservations: Reservation[];
}

interface Waiter {
  resolve: (r: Reservation) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

class ScopeState {
  known = false;
  budget = 0;
  inFlight = 0;
  sentSeq = 0;
  limit: number | undefined;
  resetAt: number | undefined;
  waiters: Waiter[] = [];
  timer: ReturnType<typeof setTimeout> | undefined;
}

export function createThrottle(options: ThrottleOptions = {}): Throttle {
  const now = options.now ?? Date.now;
  const margin = options.resetMarginMs ?? 1_000;
  const states = new Map<RateLimitScope, ScopeState>();

  function stateOf(scope: RateLimitScope): ScopeState {
    let s = states.get(scope);
    if (!s) {
      s = new ScopeState();
      states.set(scope, s);
    }
    return s;
  }

  function canSend(s: ScopeState): boolean {
    if (!s.known) return s.inFlight === 0;
    if (s.budget > 0) return true;
    if (s.resetAt !== undefined && s.inFlight === 0 && now() >= s.resetAt + margin) {
      // The oldest counted call has left the window: one slot is free. Waiting for the calls in
      // flight first means the reset time comes from the latest response. Spend the reset once.
      s.resetAt = undefined;
      s.budget = 1;
      return true;
    }
    if (s.resetAt === undefined && s.inFlight === 0) {
      // Nothing in flight and no reset known (a response without headers): fall back to probing.
      s.known = false;
      return true;
    }
    return false;
  }

  function reserve(s: ScopeState): Reservation {
    const r: Reservation = { state: s, sentSeq: ++s.sentSeq, inFlightAtSend: s.inFlight };
    s.inFlight++;
    if (s.known) s.budget--;
    return r;
  }

  function pump(s: ScopeState): void {
    while (s.waiters.length > 0 && canSend(s)) {
      const w = s.waiters.shift() as Waiter;
      w.signal?.removeEventListener("abort", w.onAbort);
      // Reserve now, synchronously: granting first and reserving after an await would let every
      // waiter through on the same free slot.
      w.resolve(reserve(s));
    }
    if (s.timer !== undefined) {
      clearTimeout(s.timer);
      s.timer = undefined;
    }
    // With calls in flight, their completions pump; a timer then would only spin.
    if (s.waiters.length > 0 && s.known && s.budget <= 0 && s.resetAt !== undefined && s.inFlight === 0) {
      s.timer = setTimeout(
        () => {
          s.timer = undefined;
          pump(s);
        },
        Math.max(0, s.resetAt + margin - now()),
      );
    }
  }

  /** Resolves with a reservation once the scope may send (first come, first served). */
  function waitTurn(s: ScopeState, signal: AbortSignal | undefined): Promise<Reservation> {
    if (s.waiters.length === 0 && canSend(s)) return Promise.resolve(reserve(s));
    return new Promise<Reservation>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const i = s.waiters.indexOf(waiter);
          if (i >= 0) s.waiters.splice(i, 1);
          reject(abortReason(signal as AbortSignal));
          pump(s);
        },
      };
      s.waiters.push(waiter);
      signal?.addEventListener("abort", waiter.onAbort, { once: true });
      pump(s);
    });
  }

  function release(r: Reservation, sent: boolean): void {
    const s = r.state;
    s.inFlight--;
    if (!sent && s.known) s.budget++;
  }

  return {
    async acquire(scopes, signal) {
      throwIfAborted(signal);
      const reservations: Reservation[] = [];
      try {
        // In scopesFor's order, the same for every call (so two-scope calls cannot deadlock), stricter
        // scope first (so a call queued for ingest_inventory holds no slot order ingests could use).
        for (const scope of scopes) {
          reservations.push(await waitTurn(stateOf(scope), signal));
        }
      } catch (err) {
        for (const r of reservations) {
          release(r, false);
          pump(r.state);
        }
        throw err;
      }
      return { reservations };
    },

    cancel(ticket) {
      for (const r of ticket.reservations) {
        release(r, false);
        pump(r.state);
      }
    },

    complete(ticket, response) {
      const t = now();
      for (const r of ticket.reservations) {
        const s = r.state;
        release(r, true);
        if (response) learn(s, r, response, t);
        pump(s);
      }
    },

    snapshot() {
      const out: ReturnType<Throttle["snapshot"]> = {};
      for (const [scope, s] of states)
        out[scope] = { known: s.known, budget: s.budget, inFlight: s.inFlight, limit: s.limit };
      return out;
    },
  };

  function learn(s: ScopeState, r: Reservation, response: Response, t: number): void {
    const headers = response.headers;
    const remaining = parseIntHeader(headers, "x-ratelimit-remaining");
    const limit = parseIntHeader(headers, "x-ratelimit-limit");
    if (limit !== undefined) s.limit = limit;

    let reset = resetAtMs(headers, t);
    if (response.status === 429) {
      const retryAfter = parseRetryAfter(headers.get("retry-after"), t);
      if (retryAfter !== undefined) reset = Math.max(reset ?? 0, t + retryAfter);
    }
    if (reset !== undefined)
      s.resetAt = s.resetAt === undefined || s.resetAt < t ? reset : Math.max(s.resetAt, reset);

    if (response.status === 429) {
      // Someone else spends this account's limit too: stop until the reset.
      s.known = true;
      s.budget = Math.min(s.budget, 0);
      return;
    }
    if (remaining === undefined) return;

    // Every call still in flight overlapped this one, so the bound already accounts for them.
    const overlapping = r.inFlightAtSend + (s.sentSeq - r.sentSeq);
    const bound = remaining - overlapping;
    if (!s.known || overlapping === 0) {
      // Nothing overlapped: the figure is exact (and may be lower than ours if others spend the limit too).
      s.known = true;
      s.budget = bound;
    } else {
      // Both are lower bounds; the larger one is the better one.
      s.budget = Math.max(s.budget, bound);
    }
  }
}
