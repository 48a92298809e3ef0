// What the shipped suite imports in place of src/targets.ts (tsdown.config.ts maps one to the
// other): only the targets the kit's options describe, nothing of OISR's own server.
import { readConfig } from "./config.ts";
import { configuredTargets } from "./select-targets.ts";

export type { System, Target } from "../system.ts";

const config = readConfig();
if (!config) throw new Error("run the suite through the oisr-conformance CLI or runConformance()");

export const targets = await configuredTargets(config);
