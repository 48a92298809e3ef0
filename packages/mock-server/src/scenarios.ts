// Test scenarios armed through the controls: failing requests, outages and slow responses.
import type { ItemError as DomainItemError, IngestKind } from "@oisr/domain";
import type { FailNextOptions } from "./public-types.ts";
import type { Account, RequestScenario } from "./store/account.ts";
import type { ItemError } from "./types.ts";

const MESSAGE = "Rejected by the mock's failNext('failed') scenario.";

/** One error a request of this kind could really fail with, at its first item. */
function defaultErrors(kind: IngestKind): DomainItemError[] {
  switch (kind) {
    case "orders":
      return [{ pointer: "/orders/0/currency", code: "currency_mismatch", message: MESSAGE }];
    case "shipments":
      return [{ pointer: "/shipments/0/order_id", code: "order_not_found", message: MESSAGE }];
    case "returns":
      return [{ pointer: "/returns/0/order_id", code: "order_not_found", message: MESSAGE }];
    case "dispositions":
      return [{ pointer: "", code: "return_not_found", message: MESSAGE }];
    default:
      return [{ pointer: "/snapshots/0", code: "line_not_found", message: MESSAGE }];
  }
}

interface Armed {
  outcome: "dead" | "failed";
  accountId: string | undefined;
  kind: IngestKind | undefined;
  errors: ItemError[] | undefined;
}

export class Scenarios {
  #failNext: Armed[] = [];
  #unavailable = 0;
  #unavailableRetryAfter = 5;
  delayMs = 0;

  failNext(outcome: "dead" | "failed", accountId: string | undefined, options: FailNextOptions = {}): void {
    const count = options.count ?? 1;
    for (let i = 0; i < count; i++) {
      this.#failNext.push({ outcome, accountId, kind: options.kind, errors: options.errors });
    }
  }

  /** The scenario for a request just accepted, if one is armed for it (first armed, first used). */
  takeFor(account: Account, kind: IngestKind): RequestScenario | undefined {
    const i = this.#failNext.findIndex(
      (a) =>
        (a.accountId === undefined || a.accountId === account.id) &&
        (a.kind === undefined || a.kind === kind),
    );
    if (i < 0) return undefined;
    const [armed] = this.#failNext.splice(i, 1);
    if (!armed) return undefined;
    if (armed.outcome === "dead") return { outcome: "dead" };
    return {
      outcome: "failed",
      errors: (armed.errors as DomainItemError[] | undefined) ?? defaultErrors(kind),
    };
  }

  unavailable(calls: number, retryAfterSeconds: number): void {
    this.#unavailable = calls;
    this.#unavailableRetryAfter = retryAfterSeconds;
  }

  /** Whether this call is one of the unavailable ones (and counts it); the Retry-After to send. */
  takeUnavailable(): number | null {
    if (this.#unavailable <= 0) return null;
    this.#unavailable -= 1;
    return this.#unavailableRetryAfter;
  }

  reset(): void {
    this.#failNext = [];
    this.#unavailable = 0;
    this.delayMs = 0;
  }
}
