// Opaque page cursors that carry their filters and cannot be forged: base64url of the JSON
// `{"p": position, "f": filters}` followed by an HMAC-SHA256 tag (Web Crypto, a key per mock), so
// any change to a cursor is refused rather than read as another position. A cursor sent with
// other filters is refused; sent with none, it lists with the filters it carries.
import { base64url, fromBase64, randomBytes } from "../ids.ts";
import { HttpProblem } from "./problem.ts";

export type Filters = Record<string, string | number | undefined>;

const TAG_BYTES = 16;

function canonical(filters: Filters): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const key of Object.keys(filters).sort()) {
    const value = filters[key];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

const invalid = () => new HttpProblem(400, "invalid_cursor", "The cursor is not one this API issued.");

export interface Decoded<P> {
  position: P | null;
  /** The filters to list with: the ones sent, or the cursor's when none were sent. */
  filters: Filters;
}

export class CursorCodec {
  #key: Promise<CryptoKey> | undefined;

  #hmacKey(): Promise<CryptoKey> {
    this.#key ??= globalThis.crypto.subtle.importKey(
      "raw",
      randomBytes(32) as Uint8Array<ArrayBuffer>,
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    return this.#key;
  }

  async #tag(payload: Uint8Array): Promise<Uint8Array> {
    const mac = await globalThis.crypto.subtle.sign(
      "HMAC",
      await this.#hmacKey(),
      payload as Uint8Array<ArrayBuffer>,
    );
    return new Uint8Array(mac).slice(0, TAG_BYTES);
  }

  async encode<P>(position: P, filters: Filters): Promise<string> {
    const payload = new TextEncoder().encode(JSON.stringify({ p: position, f: canonical(filters) }));
    const tag = await this.#tag(payload);
    const bytes = new Uint8Array(payload.length + TAG_BYTES);
    bytes.set(payload);
    bytes.set(tag, payload.length);
    return base64url(bytes);
  }

  /** The position a cursor points at (`null` without a cursor). Throws 400 `invalid_cursor`. */
  async decode<P>(cursor: string | undefined, filters: Filters): Promise<Decoded<P>> {
    if (cursor === undefined || cursor === "") return { position: null, filters };
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(cursor);
    } catch {
      throw invalid();
    }
    // Only the canonical spelling: a changed final character must not decode to the same bytes.
    if (bytes.length <= TAG_BYTES || base64url(bytes) !== cursor) throw invalid();
    const payload = bytes.slice(0, bytes.length - TAG_BYTES);
    const tag = bytes.slice(bytes.length - TAG_BYTES);
    const expected = await this.#tag(payload);
    let diff = 0;
    for (let i = 0; i < TAG_BYTES; i++) diff |= (tag[i] ?? 0) ^ (expected[i] ?? 0);
    if (diff !== 0) throw invalid();
    let parsed: { p?: P; f?: Record<string, string | number> };
    try {
      parsed = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload));
    } catch {
      throw invalid();
    }
    if (parsed === null || typeof parsed !== "object" || parsed.p === undefined) throw invalid();
    const carried = parsed.f ?? {};
    const sent = canonical(filters);
    if (Object.keys(sent).length === 0) return { position: parsed.p, filters: carried };
    if (JSON.stringify(carried) !== JSON.stringify(sent)) {
      throw new HttpProblem(
        400,
        "invalid_cursor",
        "The cursor was issued for other filters; send the same filters as the call that returned it, or none with a fresh list.",
      );
    }
    return { position: parsed.p, filters };
  }
}
