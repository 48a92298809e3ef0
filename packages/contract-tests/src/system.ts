// What every target of the contract suite gives a test: a running system reachable over HTTP.
import type { Capability } from "./capabilities.ts";

export interface System {
  /** Base URL ending in /v2. */
  baseUrl: string;
  /** Origin, for the probes outside /v2. */
  origin: string;
  /**
   * The system's own PostgreSQL database, when it has one a test may connect to (to hold locks
   * and provoke transient failures). Absent on PGlite and on the mock.
   */
  databaseUrl?: string;
  /**
   * Its feeds and lists (GET /orders, /returns, /events, /inventory, /requests) read from a replica
   * and may lag behind its writes: waits for a request then also wait until the lists show it
   * (src/replica-lag.ts).
   */
  listsLag?: boolean;
  /** The replica those lists read from, for the test that holds its replay back. */
  replicaUrl?: string;
  /** A fresh account; throws MissingCapability("accounts") where the target cannot mint one. */
  createAccount(name?: string): Promise<{ accountId: string; token: string }>;
  /** Throws MissingCapability("revoke") where the target cannot revoke. */
  revokeToken(token: string): Promise<void>;
  /**
   * Where a test's webhook receiver listens and how the system reaches it (default: 127.0.0.1
   * for both, right when the system runs on this machine).
   */
  receiverHost?: { listen: string; url: string };
  /** Targets with shared accounts: the next test is handed the first account again. */
  resetSharedAccounts?(): void;
  close(): Promise<void>;
}

export interface Target {
  name: string;
  /**
   * What this target can do beyond HTTP (src/capabilities.ts). Absent: everything (OISR's own
   * targets, which the suite starts itself).
   */
  capabilities?: readonly Capability[];
  /** Its systems read their feeds and lists from a streaming replica (`System.replicaUrl`). */
  readReplica?: boolean;
  /**
   * Hands out existing accounts rather than fresh ones: at most `sharedAccounts` per test, and
   * they keep what earlier tests stored. Tests that need an empty account ask for "accounts".
   */
  sharedAccounts?: number;
  /** Environment overrides (OISR_RATE_LIMITS, OISR_MAX_ATTEMPTS…) apply to this system only. */
  start(env?: Record<string, string>): Promise<System>;
}
