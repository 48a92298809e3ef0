// The mock's page cursors: @oisr/contract's codec (the server's wire format) under a random key of
// this mock's own, so its cursors are good for this mock only, and for the account they were made for.
import { type AccountCursors, type CursorCodec as Codec, createCursorCodec } from "@oisr/contract";
import { randomBytes } from "../ids.ts";

export type { AccountCursors, Filters } from "@oisr/contract";

export class CursorCodec implements Codec {
  readonly #codec = createCursorCodec(randomBytes(32));

  forAccount(accountId: string): AccountCursors {
    return this.#codec.forAccount(accountId);
  }
}
