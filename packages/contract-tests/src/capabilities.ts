// What a test may need beyond HTTP and two tokens, and which option of the kit provides it. A
// target lists what it can do; a test that needs more is skipped with the reason and the option
// that would enable it (src/harness.ts), so a partial run says exactly what it did not check.

export type Capability =
  /** A fresh account (an empty one, or more than two in one test): `accounts create` of the admin command. */
  | "accounts"
  /** Revoking a token: `tokens revoke` of the admin command. */
  | "revoke"
  /** A webhook receiver the system under test can reach. */
  | "webhooks"
  /** The system started with the suite's settings (small rate limits, short retry schedules). */
  | "settings"
  /** The system's own PostgreSQL database, to hold locks or refuse connections from outside. */
  | "database";

export const CAPABILITIES: readonly Capability[] = ["accounts", "revoke", "webhooks", "settings", "database"];

/** What enables each capability, as the skip reason says it. */
export const ENABLED_BY: Record<Capability, string> = {
  accounts: '--admin-command "…" (mints fresh accounts)',
  revoke: '--admin-command "…" (revokes tokens)',
  webhooks: "--webhook-host HOST (a receiver the server can reach; loopback servers need none)",
  settings: "--targets MODULE (a target the kit starts with the suite's settings)",
  database: "--targets MODULE (a target that exposes its PostgreSQL database)",
};

/** The message of a skipped test: what it needs and how to enable it. */
export function skipReason(missing: readonly Capability[]): string {
  return `needs ${missing.map((c) => `${c}: ${ENABLED_BY[c]}`).join("; ")}`;
}

/** Thrown where a test reaches for something its target cannot do; the harness turns it into a skip. */
export class MissingCapability extends Error {
  readonly capability: Capability;
  constructor(capability: Capability) {
    super(skipReason([capability]));
    this.name = "MissingCapability";
    this.capability = capability;
  }
}
