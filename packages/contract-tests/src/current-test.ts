// The test running now and what its target can do, so that a helper deep in a test (a webhook
// receiver, a revocation) can skip it with the reason instead of failing it: under the kit, a
// missing capability is a gap in the run, not a defect of the implementation.
import type { TestContext } from "vitest";
import { CAPABILITIES, type Capability, MissingCapability, skipReason } from "./capabilities.ts";
import type { Target } from "./system.ts";

let current: { context: TestContext; target: Target } | undefined;

export function enterTest(context: TestContext, target: Target): void {
  current = { context, target };
  context.onTestFinished(() => {
    if (current?.context === context) current = undefined;
  });
}

/** What `target` lacks of `needed`. */
export function lacking(target: Target, needed: readonly Capability[]): Capability[] {
  const has = target.capabilities ?? CAPABILITIES;
  return needed.filter((c) => !has.includes(c));
}

/** Skips the running test for what it lacks (or throws outside a test: beforeAll, plain scripts). */
export function skipFor(missing: readonly Capability[]): never {
  if (current) current.context.skip(skipReason(missing));
  throw new MissingCapability(missing[0] as Capability);
}

/** Skips the running test unless its target has `needed`; no-op outside a harness's test. */
export function requireCapabilities(...needed: Capability[]): void {
  if (!current) return;
  const missing = lacking(current.target, needed);
  if (missing.length > 0) skipFor(missing);
}
