import type { Logger, LogLevel } from "../hooks.ts";

/** The enabled methods only: call them as `log.debug?.(…)`, so a disabled line costs no formatting. */
export type LevelledLogger = Partial<Logger>;

const LEVELS: readonly string[] = ["off", "error", "warn", "info", "debug"] satisfies LogLevel[];

/**
 * The client's logger at its level, as openai-node does it: `logger` defaults to `console`, the
 * level to `logLevel`, else the `OISR_LOG` environment variable where there is one (Node, Bun,
 * Deno with env access), else `"warn"`, at which the SDK logs nothing in normal operation.
 */
export function levelledLogger(logger: Logger = console, option?: LogLevel): LevelledLogger {
  let env: string | undefined;
  try {
    // No Node types in the SDK: `process` is looked up, not assumed (browsers have none).
    env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.OISR_LOG;
  } catch {
    // Deno without --allow-env throws on access.
  }
  const level = LEVELS.indexOf([option, env, "warn"].find((l) => LEVELS.includes(l as string)) as string);
  const log: LevelledLogger = {};
  // Bound, not wrapped, so that a logger which prints call sites points at the caller's line.
  for (const name of LEVELS.slice(1, level + 1) as (keyof Logger)[]) log[name] = logger[name].bind(logger);
  if (env && !LEVELS.includes(env)) log.warn?.(`OISR_LOG=${env} ignored: not one of ${LEVELS}`);
  return log;
}
