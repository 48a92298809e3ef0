// The retention pass on a timer, in every process whatever its role: an API-only deployment needs
// partitions made ahead as much as one with workers. Only one process does each pass (the advisory
// lock in retention.ts); the rest skip it at the cost of one statement.
import type { Logger } from "pino";
import type { Database } from "../db/database.ts";
import { type Periodic, startPeriodic } from "../periodic.ts";
import { partitionIntervalMs, passEveryMs } from "./plan.ts";
import { type RetentionPass, runRetentionPass } from "./retention.ts";

export type RetentionLoop = Periodic;

export function startRetention(options: {
  database: Database;
  retentionDays: number;
  logger: Logger;
  onPass?: (pass: RetentionPass) => void;
}): RetentionLoop {
  const { database, retentionDays, logger } = options;
  return startPeriodic(passEveryMs(partitionIntervalMs(retentionDays)), () =>
    runRetentionPass(database, { retentionDays })
      .then((pass) => {
        options.onPass?.(pass);
        const changed = Object.values(pass.tables).some(
          (t) => t.created > 0 || t.dropped.length > 0 || t.kept_open.length > 0 || t.error,
        );
        if (changed) logger.info({ retention: pass }, "retention pass");
      })
      .catch((err: unknown) => logger.warn({ err }, "retention pass failed")),
  );
}
