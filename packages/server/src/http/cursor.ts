// Opaque page cursors: a position and the filters it was issued for, signed for the account that
// asked (HMAC-SHA256 with a key every process on the database shares). A cursor that was changed,
// or comes from another account, is refused; so is one replayed with other filters, because its
// position would mean something else in a differently filtered list. A cursor sent without any
// filter keeps the filters it carries.
import { createHmac, timingSafeEqual } from "node:crypto";
import { HttpProblem } from "./problem.ts";

export type Filters = Record<string, string | undefined>;

export interface Cursors {
  encode<P>(accountId: string, position: P, filters: Filters): string;
  /** The position (`null` without a cursor) and the filters to apply. Throws 400 `invalid_cursor`. */
  decode<P>(
    accountId: string,
    cursor: string | undefined,
    filters: Filters,
  ): { position: P | null; filters: Filters };
}

function canonical(filters: Filters): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(filters).sort()) {
    const value = filters[key];
    if (value !== undefined && value !== "") out[key] = value;
  }
  return out;
}

const invalid = (detail = "The cursor is not one this API issued to this account.") =>
  new HttpProblem(400, "invalid_cursor", detail);

export function createCursors(secret: string): Cursors {
  const sign = (accountId: string, payload: string) =>
    createHmac("sha256", secret).update(accountId).update("\u0000").update(payload).digest().subarray(0, 16);

  return {
    encode(accountId, position, filters) {
      const payload = Buffer.from(JSON.stringify({ p: position, f: canonical(filters) })).toString(
        "base64url",
      );
      return `${payload}.${sign(accountId, payload).toString("base64url")}`;
    },

    decode<P>(accountId: string, cursor: string | undefined, filters: Filters) {
      const sent = canonical(filters);
      if (cursor === undefined || cursor === "") return { position: null, filters: sent };
      const [payload, mac, extra] = cursor.split(".");
      if (!payload || !mac || extra !== undefined) throw invalid();
      const given = Buffer.from(mac, "base64url");
      const expected = sign(accountId, payload);
      // Re-encoding must give back the same text: base64 has spare bits a tamperer could flip.
      if (
        given.toString("base64url") !== mac ||
        given.length !== expected.length ||
        !timingSafeEqual(given, expected)
      ) {
        throw invalid();
      }
      let parsed: { p?: P; f?: Record<string, string> };
      try {
        parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        throw invalid();
      }
      if (parsed?.p === undefined || typeof parsed.f !== "object" || parsed.f === null) throw invalid();
      if (Object.keys(sent).length > 0 && JSON.stringify(sent) !== JSON.stringify(parsed.f)) {
        throw invalid(
          "The cursor was issued for other filters; send the same filters as the call that returned it, or none.",
        );
      }
      return { position: parsed.p, filters: parsed.f };
    },
  };
}

/** The codec bound to the calling account, as routes use it. */
export interface AccountCursors {
  encode<P>(position: P, filters: Filters): string;
  decode<P>(cursor: unknown, filters: Filters): { position: P | null; filters: Filters };
}

export function cursorsOf(res: { locals: Record<string, unknown> }): AccountCursors {
  const cursors = res.locals.cursors as Cursors;
  const accountId = (res.locals.account as { id: string }).id;
  return {
    encode: (position, filters) => cursors.encode(accountId, position, filters),
    decode: (cursor, filters) =>
      cursors.decode(accountId, typeof cursor === "string" ? cursor : undefined, filters),
  };
}
