// The server's page cursors: @oisr/contract's codec under a key every process on the database
// shares (so any of them reads a cursor another issued); routes bind it to the calling account
// with `cursors.forAccount(res.locals.account.id)`.
import { type CursorCodec, createCursorCodec } from "@oisr/contract";

export type { AccountCursors, Filters } from "@oisr/contract";
export type Cursors = CursorCodec;

export const createCursors = (secret: string): Cursors => createCursorCodec(secret);
