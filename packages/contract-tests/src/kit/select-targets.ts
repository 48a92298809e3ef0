// The targets a kit run tests: a module of targets the kit starts itself (--targets), or the one
// running implementation at --base.
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Target } from "../system.ts";
import type { KitConfig } from "./config.ts";
import { externalTarget } from "./external-target.ts";

export async function configuredTargets(config: KitConfig): Promise<Target[]> {
  if (config.targetsModule) {
    const path = isAbsolute(config.targetsModule) ? config.targetsModule : resolve(config.targetsModule);
    const loaded = (await import(pathToFileURL(path).href)) as { targets?: Target[] };
    if (!Array.isArray(loaded.targets))
      throw new Error(`${config.targetsModule} exports no \`targets\` array`);
    return loaded.targets;
  }
  if (config.baseUrl) return [externalTarget({ ...config, baseUrl: config.baseUrl })];
  throw new Error("the conformance kit needs a base URL or a targets module");
}
