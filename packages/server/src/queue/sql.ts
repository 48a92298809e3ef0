// SQL fragments the queue's statements share.
import { type SQL, sql } from "drizzle-orm";
import { OPEN_STATUSES } from "./statuses.ts";

/** `status in ('pending', 'processing')`, spelled from the one constant (matches requests_open_idx). */
export const isOpen: SQL = sql.raw(`status in (${OPEN_STATUSES.map((s) => `'${s}'`).join(", ")})`);

/** An interval of `ms` milliseconds. */
export const millis = (ms: number): SQL => sql`make_interval(secs => ${ms / 1000})`;
