// Per-file systems and per-test accounts. One system per target per test file (started in
// beforeAll), one fresh account per test: accounts are fully isolated, so tests never interfere.
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { type Capability, MissingCapability, skipReason } from "./capabilities.ts";
import { type Api, type ApiResponse, api, type Json } from "./client.ts";
import { enterTest, lacking, skipFor } from "./current-test.ts";
import { type PollOptions, type WaitOptions, waitForRequest } from "./poll.ts";
import type { System, Target } from "./targets.ts";

/**
 * Rate limits high enough that polling never trips them; the rate-limit tests start their own
 * systems with the limits they exercise.
 */
export const RELAXED_LIMITS = {
  OISR_RATE_LIMITS: JSON.stringify({
    ingest: 100_000,
    ingest_inventory: 100_000,
    orders_read: 100_000,
    requests_read: 100_000,
    returns_read: 100_000,
    webhooks: 100_000,
  }),
};

export interface Harness {
  readonly system: System;
  /**
   * A fresh account and a client holding its token. On a target with shared accounts (the kit
   * with tokens only), the test's first, second… given account; one too many skips the test.
   */
  account(): Promise<Client>;
  /** Skips this test, with the reason, unless the target can do all of `capabilities`. */
  need(...capabilities: Capability[]): void;
}

export interface Client extends Api {
  accountId: string;
  token: string;
  /** POST an ingest body; expects 202 and returns the acknowledgment response. */
  ingest(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  /** POST an ingest body, expect 202, and wait until the request is final. */
  ingestAndWait(path: string, body: unknown, options?: PollOptions): Promise<Json>;
  wait(requestId: string, options?: WaitOptions): Promise<Json>;
}

export function client(system: System, account: { accountId: string; token: string }): Client {
  const base = api(system, account.token);
  const ingest = async (path: string, body: unknown, headers?: Record<string, string>) => {
    const res = await base.post(path, body, headers);
    expect(res.status, `POST ${path} should be accepted: ${res.text}`).toBe(202);
    return res;
  };
  const wait = (requestId: string, options?: WaitOptions) => waitForRequest(base, requestId, options);
  return {
    ...base,
    ...account,
    ingest,
    wait,
    async ingestAndWait(path, body, options) {
      const res = await ingest(path, body);
      return wait(res.body.request_id, options);
    },
  };
}

/**
 * Settings a file's system must have for its tests to mean anything ("settings"): everything but
 * rate limits raised only so that polling never trips them, which a system with its usual limits
 * may well not need.
 */
function needsSettings(env: Record<string, string>): boolean {
  return Object.entries(env).some(([key, value]) => {
    if (key !== "OISR_RATE_LIMITS") return true;
    const limits = JSON.parse(value) as Record<string, number>;
    return Object.values(limits).some((limit) => limit < 1000);
  });
}

/** Revocation and minting skip the test (with the reason) where the target cannot do them. */
function skipping(system: System): System {
  const orSkip = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof MissingCapability) skipFor([error.capability]);
      throw error;
    }
  };
  return {
    ...system,
    createAccount: (name) => orSkip(() => system.createAccount(name)),
    revokeToken: (token) => orSkip(() => system.revokeToken(token)),
  };
}

export interface UseSystemOptions {
  /**
   * The file's tests hold on accounts that already have data and are used by other tests (the
   * kit with `--token` only): they look only at what they stored themselves. Tests of such a file
   * that still need an empty account call `h.need("accounts")`.
   */
  sharedAccounts?: boolean;
}

/**
 * Starts `target` for this file (beforeAll) and stops it after (afterAll). When the file's
 * settings (`env`) are more than the target can honour, its tests are skipped with the reason
 * and the system is not started.
 */
export function useSystem(
  target: Target,
  env: Record<string, string> = {},
  options: UseSystemOptions = {},
): Harness {
  // On a target that only shares existing accounts, a file whose tests count on empty accounts
  // (nothing stored, whole lists, limits per account) needs fresh ones: most files do.
  const accounts =
    target.sharedAccounts !== undefined && !options.sharedAccounts ? ["accounts" as const] : [];
  const missing = lacking(target, [...(needsSettings(env) ? ["settings" as const] : []), ...accounts]);
  let system: System | undefined;
  beforeAll(async () => {
    if (missing.length === 0) system = skipping(await target.start({ ...RELAXED_LIMITS, ...env }));
  });
  afterAll(async () => {
    await system?.close();
  });
  beforeEach((context) => {
    enterTest(context, target);
    if (missing.length > 0) context.skip(skipReason(missing));
    system?.resetSharedAccounts?.();
  });
  const harness: Harness = {
    get system() {
      if (!system) throw new Error("system not started");
      return system;
    },
    async account() {
      const s = harness.system;
      return client(s, await s.createAccount());
    },
    need(...capabilities) {
      const lacks = lacking(target, capabilities);
      if (lacks.length > 0) skipFor(lacks);
    },
  };
  return harness;
}

/** Expects `succeeded` and returns the result, with a readable failure otherwise. */
export function succeeded(record: Json): Json {
  expect(record.status, `request should succeed: ${JSON.stringify(record)}`).toBe("succeeded");
  return record.result;
}

/** Expects `failed` and returns `[pointer, code]` pairs of its errors. */
export function failedWith(record: Json): [string, string][] {
  expect(record.status, `request should fail: ${JSON.stringify(record)}`).toBe("failed");
  return record.errors.map((e: Json) => [e.pointer, e.code]);
}

/** Checks the RFC 9457 problem shape every error must have, and returns its body. */
export function expectProblem(res: ApiResponse, status: number, code?: string): Json {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const traceId = res.headers.get("x-trace-id");
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  const body = res.body;
  expect(body).toMatchObject({ status, trace_id: traceId });
  expect(typeof body.title).toBe("string");
  expect(typeof body.detail).toBe("string");
  expect(body.type).toBe(`https://oisr.dev/problems/${body.code}`);
  if (code) expect(body.code).toBe(code);
  // No internals: no stack traces, no SQL.
  expect(res.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+|\bselect\b.*\bfrom\b|\binsert into\b/i);
  return body;
}
