// The server's page cursors: @oisr/contract's codec under a key every process on the database
// shares (so any of them reads a cursor another issued), bound to the calling account.
import { type AccountCursors, type CursorCodec, createCursorCodec } from "@oisr/contract";

export type { AccountCursors, Filters } from "@oisr/contract";
export type Cursors = CursorCodec;

export const createCursors = (secret: string): Cursors => createCursorCodec(secret);

export function cursorsOf(res: { locals: Record<string, unknown> }): AccountCursors {
  const cursors = res.locals.cursors as Cursors;
  return cursors.forAccount((res.locals.account as { id: string }).id);
}
