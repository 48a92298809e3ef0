// The one way the console talks to the API: @oisr/sdk's client, on this page's origin (`/v2`
// resolved against the page), with the key from the session. Errors are sorted here once:
// - 401: the key is wrong, revoked or expired → forget it and ask again, with the problem's text;
// - 429: the SDK already waited and retried (Retry-After); the page says when to try again;
// - no answer (network error, timeout) or 502/503/504: the server is away → the banner, and a
//   probe through the same client every few seconds until it answers, then every page reloads.
import {
  ApiError,
  AuthenticationError,
  ConnectionError,
  createClient,
  type OisrClient,
  RateLimitError,
  TimeoutError,
} from "@oisr/sdk";
import { duration } from "./format.ts";
import { forgetKey, storedKey, storeKey } from "./session.ts";
import { store } from "./store.ts";

export const API_BASE = "/v2";
/** Probe interval while the server is away. */
const PROBE_MS = 3_000;

export interface Session {
  client: OisrClient;
}

/** The signed-in client, or null with the reason the key was refused (shown on the sign-in form). */
export const session = store<Session | null>(null);
export const signInMessage = store<string | null>(null);
/** False while the server cannot be reached. */
export const online = store(true);
/** A passing notice: the SDK waits out a 429 (or an outage) before its retry, and says until when. */
export const notice = store<string | null>(null);
/** Bumped when the server comes back: pages reload what they show. */
export const reloads = store(0);

export function makeClient(token: string): OisrClient {
  return createClient({
    baseUrl: API_BASE,
    token,
    // A person is waiting: two retries (the SDK's backoff, and Retry-After on 429/503) rather
    // than three, and a 15 s per-attempt timeout rather than 30 s; the banner takes over after.
    maxRetries: 2,
    timeoutMs: 15_000,
    // The SDK logs retries to the console at "warn"; the page shows them instead.
    logLevel: "error",
    traceparent: false,
    hooks: {
      onRetry: ({ status, delayMs }) => {
        const at = new Date(Date.now() + delayMs).toLocaleTimeString();
        notice.set(
          status === 429
            ? `Rate limited (429): retrying in ${duration(delayMs)}, at ${at}.`
            : `No answer${status ? ` (${status})` : ""}: retrying in ${duration(delayMs)}, at ${at}.`,
        );
      },
      onResponse: ({ response }) => {
        if (response.status < 400) notice.set(null);
      },
    },
  });
}

export function signIn(token: string): void {
  storeKey(token);
  signInMessage.set(null);
  session.set({ client: makeClient(token) });
}

export function signOut(message: string | null = null): void {
  forgetKey();
  signInMessage.set(message);
  session.set(null);
}

export function resumeSession(): void {
  const key = storedKey();
  if (key) session.set({ client: makeClient(key) });
}

function isAway(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  return error instanceof ApiError && [502, 503, 504].includes(error.status);
}

let probing = false;
async function probe(client: OisrClient): Promise<void> {
  if (probing) return;
  probing = true;
  try {
    while (session.get()?.client === client) {
      await new Promise((resolve) => setTimeout(resolve, PROBE_MS));
      try {
        await client.requests.list({ limit: 1 }, { maxRetries: 0 });
        online.set(true);
        reloads.set(reloads.get() + 1);
        return;
      } catch (error) {
        if (!isAway(error)) {
          online.set(true);
          handleError(error);
          return;
        }
      }
    }
  } finally {
    probing = false;
  }
}

/**
 * Sorts an error (see the header) and returns the text to show where the call was made, or null
 * when the banner or the sign-in form shows it instead.
 */
export function handleError(error: unknown): string | null {
  if (error instanceof AuthenticationError) {
    const expired = error.expiredAt ? ` (expired ${new Date(error.expiredAt).toLocaleString()})` : "";
    signOut(`${error.message}${expired}`);
    return null;
  }
  if (isAway(error)) {
    online.set(false);
    const current = session.get();
    if (current) void probe(current.client);
    return null;
  }
  if (error instanceof RateLimitError) {
    const wait = error.retryAfterMs ?? 1000;
    const at = new Date(Date.now() + wait).toLocaleTimeString();
    return `Rate limited: ${error.message} Try again in ${duration(wait)} (at ${at}).`;
  }
  if (error instanceof ApiError) {
    const details = error.problem.errors?.map((e) => `${e.pointer || "/"}: ${e.message}`) ?? [];
    return [error.message, ...details].join("\n");
  }
  return error instanceof Error ? error.message : String(error);
}
