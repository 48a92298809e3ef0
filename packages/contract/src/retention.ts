// The retention period (OISR_REQUEST_RETENTION, 30 days by default) as one instant: request
// records, events, delivery attempts and recoveries created before it no longer exist. The server's
// reads and prunes and the mock's reads all cut here, so an API read never shows what a prune would
// delete, and the mock keeps exactly what the server keeps.
import { DAY_MS } from "./config.ts";

/**
 * The oldest instant still kept at `now`: anything created at or after it is kept, anything before
 * it is gone. A day is a fixed 24 h, not a calendar day, so a daylight-saving change in the
 * server's or the browser's time zone neither stretches nor shortens the period.
 *
 * @example retentionCutoff(new Date("2025-03-27T12:00:00Z"), 30) // 2025-02-25T12:00:00.000Z
 */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  // Rounded: a period given in minutes is a fraction of a day that need not be exact in binary.
  return new Date(now.getTime() - Math.round(retentionDays * DAY_MS));
}
