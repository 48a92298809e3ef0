// What every target of the contract suite gives a test: a running system reachable over HTTP.

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
  createAccount(name?: string): Promise<{ accountId: string; token: string }>;
  revokeToken(token: string): Promise<void>;
  close(): Promise<void>;
}

export interface Target {
  name: string;
  /** Environment overrides (OISR_RATE_LIMITS, OISR_MAX_ATTEMPTS…) apply to this system only. */
  start(env?: Record<string, string>): Promise<System>;
}
