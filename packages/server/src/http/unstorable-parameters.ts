// Strings from the path and the query reach SQL as parameters; PostgreSQL cannot hold U+0000 in
// text (nor a lone surrogate, once encoded), and answered such calls with 500 (issue 14). A path id
// holding one names nothing that can exist (404, as the mock answers); a query value is refused
// like a body value (400).
import {
  notFound,
  unstorableCharacterError,
  unstorableStringPointer,
  validationFailed,
} from "@oisr/contract";
import type { NextFunction, Request, Response } from "express";

export function unstorableParameters(req: Request, _res: Response, next: NextFunction): void {
  const pathParams = req.openapi?.pathParams;
  if (pathParams && unstorableStringPointer(pathParams) !== null) throw notFound();
  // Express 5 parses req.query anew on every read: a call without a query string has none to check
  // (the ingest path's usual call; ~0.5 % of its CPU).
  if (req.url.includes("?")) {
    const pointer = unstorableStringPointer(req.query);
    if (pointer !== null) {
      throw validationFailed([unstorableCharacterError(`/query${pointer}`)], 1);
    }
  }
  next();
}
