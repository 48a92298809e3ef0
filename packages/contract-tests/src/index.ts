// @oisr/conformance: the OISR contract suite, runnable against any implementation over HTTP.
// The public API; everything else in src/ is the suite's own machinery.

export type { Capability } from "./capabilities.ts";
export { CAPABILITIES, ENABLED_BY } from "./capabilities.ts";
export { UsageError } from "./kit/preflight.ts";
export type { AreaOutcome, ConformanceResult, Status, TestOutcome } from "./kit/results.ts";
export { type ConformanceOptions, runConformance, suiteAreas } from "./kit/run.ts";
export type { System, Target } from "./system.ts";
export {
  type Answer,
  type DownReceiver,
  downReceiver,
  type Received,
  type Receiver,
  startReceiver,
  verifySignature,
} from "./webhook-receiver.ts";
