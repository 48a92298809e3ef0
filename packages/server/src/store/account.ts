// The account a live token belongs to: what authentication hands every /v2 call (res.locals.account).
// A module of its own so that the authorizer (access.ts) and the account store (accounts.ts), which
// builds on the authorizer, both name it without importing each other.
export interface Account {
  id: string;
  name: string;
  /** Limits by scope set for this account over the deployment's defaults; null: none set. */
  rateLimits: Record<string, number> | null;
}
