// Opaque page cursors, one wire format for the server and the mock: base64url of the JSON
// `{"p": position, "f": filters}` followed by a 16-byte HMAC-SHA256 tag over the account id and
// that JSON (Web Crypto, so it runs in browsers too). The key is the caller's: the server's is
// shared by every process on the database, a mock's is its own. A cursor that was changed, comes
// from another account or key, or is replayed with other filters is refused (its position would
// mean something else in a differently filtered list); one sent without any filter keeps its own.
import { base64url, fromBase64 } from "./base64.ts";
import { HttpProblem } from "./problems.ts";

export type Filters = Record<string, string | undefined>;

export interface Decoded<P> {
  /** Where the list resumes; `null` without a cursor (the start). */
  position: P | null;
  /** The filters to list with: the ones sent, or the cursor's when none were sent. */
  filters: Filters;
}

/** The codec bound to the calling account, as list handlers use it. */
export interface AccountCursors {
  encode<P>(position: P, filters: Filters): Promise<string>;
  /** Throws 400 `invalid_cursor`. A `cursor` that is not a string counts as none. */
  decode<P>(cursor: unknown, filters: Filters): Promise<Decoded<P>>;
}

export interface CursorCodec {
  /** Cursors made for this account, refused for every other. */
  forAccount(accountId: string): AccountCursors;
}

const TAG_BYTES = 16;

export const invalidCursor = (detail = "The cursor is not one this API issued to this account.") =>
  new HttpProblem(400, "invalid_cursor", detail);

const otherFilters = () =>
  invalidCursor(
    "The cursor was issued for other filters; send the same filters as the call that returned it, or none.",
  );

/** Sorted keys, no empty filters: the same filters in any order give the same cursor. */
function canonical(filters: Filters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(filters).sort()) {
    const value = filters[key];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

const sameFilters = (a: Record<string, string>, b: Record<string, string>) =>
  JSON.stringify(a) === JSON.stringify(b);

/** Compares every byte whatever the first difference, so timing tells nothing about the tag. */
function equalTags(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export function createCursorCodec(secret: string | Uint8Array): CursorCodec {
  const encoder = new TextEncoder();
  const raw = typeof secret === "string" ? encoder.encode(secret) : secret;
  let key: Promise<CryptoKey> | undefined;

  async function tag(accountId: string, payload: Uint8Array): Promise<Uint8Array> {
    key ??= globalThis.crypto.subtle.importKey(
      "raw",
      raw as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    // The account id and the payload, joined by a byte neither holds (ids are printable).
    const account = encoder.encode(accountId);
    const signed = new Uint8Array(account.length + 1 + payload.length);
    signed.set(account);
    signed.set(payload, account.length + 1);
    const mac = await globalThis.crypto.subtle.sign("HMAC", await key, signed);
    return new Uint8Array(mac, 0, TAG_BYTES);
  }

  async function encode(accountId: string, position: unknown, filters: Filters): Promise<string> {
    const payload = encoder.encode(JSON.stringify({ p: position, f: canonical(filters) }));
    const bytes = new Uint8Array(payload.length + TAG_BYTES);
    bytes.set(payload);
    bytes.set(await tag(accountId, payload), payload.length);
    return base64url(bytes);
  }

  async function decode<P>(accountId: string, cursor: unknown, filters: Filters): Promise<Decoded<P>> {
    const sent = canonical(filters);
    if (typeof cursor !== "string" || cursor === "") return { position: null, filters: sent };
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(cursor);
    } catch {
      throw invalidCursor();
    }
    // Only the canonical spelling: base64 has spare bits a tamperer could flip unnoticed.
    if (bytes.length <= TAG_BYTES || base64url(bytes) !== cursor) throw invalidCursor();
    const payload = bytes.subarray(0, bytes.length - TAG_BYTES);
    if (!equalTags(bytes.subarray(payload.length), await tag(accountId, payload))) throw invalidCursor();
    let parsed: { p?: P; f?: unknown };
    try {
      parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload));
    } catch {
      throw invalidCursor();
    }
    const carried = parsed?.f;
    if (parsed?.p === undefined || typeof carried !== "object" || carried === null) throw invalidCursor();
    if (Object.keys(sent).length > 0 && !sameFilters(sent, carried as Record<string, string>)) {
      throw otherFilters();
    }
    return { position: parsed.p, filters: carried as Filters };
  }

  return {
    forAccount: (accountId) => ({
      encode: (position, filters) => encode(accountId, position, filters),
      decode: (cursor, filters) => decode(accountId, cursor, filters),
    }),
  };
}
