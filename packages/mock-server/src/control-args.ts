// Checks of what the test controls are given, so a misspelt outcome (`"deadd"`) or scope is an
// error naming the allowed values instead of a silent default. Called by the controls themselves,
// so JavaScript callers and `/__mock/…` over HTTP (a 400 problem+json) get the same text.
export const FAIL_NEXT_OUTCOMES = ["dead", "failed"] as const;
export const REQUEST_KINDS = ["orders", "inventory", "shipments", "returns", "dispositions"] as const;
export const REQUEST_STATUSES = ["pending", "processing", "succeeded", "failed", "dead"] as const;

/** A control given a value it does not take; `/__mock/…` answers it 400. */
export class ControlError extends TypeError {
  override name = "ControlError";
}

const show = (value: unknown) => (typeof value === "string" ? `"${value}"` : String(value));

/** `value` when it is one of `allowed` (or undefined, when `optional`); else a ControlError listing them. */
export function oneOf<T extends string>(
  what: string,
  value: unknown,
  allowed: readonly T[],
  optional = false,
): T {
  if ((optional && value === undefined) || allowed.includes(value as T)) return value as T;
  throw new ControlError(`${what} must be one of ${allowed.map(show).join(", ")} (got ${show(value)})`);
}

/** A whole number ≥ `min` (or undefined, when `optional`). */
export function wholeNumber(what: string, value: unknown, min: number, optional = false): number {
  if (optional && value === undefined) return value as unknown as number;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min)
    throw new ControlError(`${what} must be a whole number ≥ ${min} (got ${show(value)})`);
  return value;
}

/** A finite number ≥ 0 (or undefined, when `optional`). */
export function nonNegative(what: string, value: unknown, optional = false): number {
  if (optional && value === undefined) return value as unknown as number;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new ControlError(`${what} must be a number ≥ 0 (got ${show(value)})`);
  return value;
}

/** A string (or undefined, when `optional`). */
export function text(what: string, value: unknown, optional = false): string {
  if ((optional && value === undefined) || typeof value === "string") return value as string;
  throw new ControlError(`${what} must be a string (got ${show(value)})`);
}
