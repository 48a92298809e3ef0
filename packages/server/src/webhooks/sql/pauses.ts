// A receiver's "slow down" (429 or 503 with Retry-After) reaches every dispatcher at once: record()
// pauses the subscription in its row and announces it on WEBHOOK_PAUSES_CHANNEL in the same
// transaction. The claim already skips paused subscriptions; the announcement is for the attempts
// dispatchers claimed before the pause committed and have not sent yet, which they put back.

/** Who paused, and until when (epoch milliseconds). */
export interface PauseNotice {
  accountId: string;
  subscriptionId: string;
  untilMs: number;
}

export const pauseNotice = {
  /** The NOTIFY payload (well under PostgreSQL's 8,000-byte limit: two ids and a number). */
  write: (p: PauseNotice): string =>
    JSON.stringify({ account_id: p.accountId, subscription_id: p.subscriptionId, until_ms: p.untilMs }),

  /** The notice in a payload, or null for anything else (anyone connected may NOTIFY). */
  read(payload: string): PauseNotice | null {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return null;
    }
    if (typeof value !== "object" || value === null) return null;
    const { account_id, subscription_id, until_ms } = value as Record<string, unknown>;
    if (typeof account_id !== "string" || typeof subscription_id !== "string") return null;
    if (typeof until_ms !== "number" || !Number.isFinite(until_ms)) return null;
    return { accountId: account_id, subscriptionId: subscription_id, untilMs: until_ms };
  },
};

/**
 * The pauses this dispatcher has heard of, by subscription. An entry is dropped once its pause is
 * over, so the map holds only subscriptions paused right now.
 */
export class PausedSubscriptions {
  readonly #until = new Map<string, number>();

  static key(p: { accountId: string; subscriptionId: string }): string {
    return `${p.accountId}\u0000${p.subscriptionId}`;
  }

  /** Keeps the later end when a subscription is paused twice; forgets pauses that are over. */
  add(notice: PauseNotice, nowMs = Date.now()): void {
    for (const [key, until] of this.#until) if (until <= nowMs) this.#until.delete(key);
    const key = PausedSubscriptions.key(notice);
    this.#until.set(key, Math.max(this.#until.get(key) ?? 0, notice.untilMs));
  }

  /** When the subscription's pause ends, if it is paused at `nowMs`; else undefined. */
  until(p: { accountId: string; subscriptionId: string }, nowMs = Date.now()): number | undefined {
    const key = PausedSubscriptions.key(p);
    const until = this.#until.get(key);
    if (until === undefined) return undefined;
    if (until > nowMs) return until;
    this.#until.delete(key);
    return undefined;
  }
}
