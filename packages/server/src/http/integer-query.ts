// Integer query parameters (`limit`) are decimal digits: the validator's Ajv would read `0x10` as 16
// and `1e1` as 10 (issue 25). Before it runs, @oisr/contract's guardIntegerQuery makes any other
// value one Ajv refuses as no integer, as the mock does, so both answer 400 validation_failed at
// `/query/limit` among the call's other errors.
import { guardIntegerQuery } from "@oisr/contract";
import type { RequestHandler } from "express";

/** `names`: the document's integer query parameters (integerQueryParameters). */
export function integerQuery(names: ReadonlySet<string>): RequestHandler {
  return (req, _res, next) => {
    if (names.size === 0 || !req.url.includes("?")) return next();
    // Express 5 parses req.query anew on every read: keep the guarded object, as the validator
    // (which coerces it in place for the routes) does with the one it reads.
    const query = req.query as Record<string, unknown>;
    if (guardIntegerQuery(query, names)) {
      Object.defineProperty(req, "query", {
        value: query,
        writable: true,
        configurable: true,
        enumerable: true,
      });
    }
    next();
  };
}
