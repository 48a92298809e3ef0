// Work a body may cost before it is parsed: how deep it nests and how many large bodies are held in
// memory at once. A 5 MB body nested 2.5 million levels blocked the process 1.6 s in JSON.parse, and
// 40 concurrent 4.8 MiB bodies took 2.8 GB (issue 14): the raw bytes, their string and the parsed
// tree each cost a multiple of the body.
import { bodyTooDeep, MAX_BODY_DEPTH, nestsDeeperThan, serviceUnavailable } from "@oisr/contract";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { escapesMayHoldUnstorable } from "./unstorable-bytes.ts";

/**
 * `verify` hook of express.json: refuses a body nested deeper than MAX_BODY_DEPTH before parsing,
 * and notes whether its text can hold a string PostgreSQL cannot store (escapes are ASCII, so the
 * bytes suffice), which spares the validator a walk over almost every body. Read from the bytes, not
 * a latin1 copy searched with a pattern: 0.7 ms and a 1 MB string less on a 1,000-order body.
 */
export function verifyBody(_req: Request, res: Response, buf: Buffer): void {
  if (nestsDeeperThan(buf, MAX_BODY_DEPTH)) {
    throw bodyTooDeep();
  }
  res.locals.bodyMayHoldUnstorable = escapesMayHoldUnstorable(buf, 0, buf.length);
}

/**
 * Lets at most `concurrent` bodies over `thresholdBytes` (by Content-Length; a chunked body counts
 * as large) be read, parsed and validated at once; one more is answered 503 with Retry-After at
 * once, before its body is read, and its connection closed. Small bodies, the usual case (a
 * one-order call is about 1 KB), never wait.
 */
export function largeBodyGate(options: { thresholdBytes: number; concurrent: number }): RequestHandler {
  let inFlight = 0;
  return (req: Request, res: Response, next: NextFunction) => {
    const length = req.headers["content-length"];
    const hasBody =
      length !== undefined ? Number(length) > 0 : req.headers["transfer-encoding"] !== undefined;
    if (!hasBody || (length !== undefined && Number(length) <= options.thresholdBytes)) return next();
    if (inFlight >= options.concurrent) {
      res.setHeader("Connection", "close");
      throw serviceUnavailable("Too many large request bodies are being processed; retry shortly.", 1);
    }
    inFlight++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      inFlight--;
    };
    // The body's memory is held until the handler has answered (the ingest route stores it).
    res.once("finish", release);
    res.once("close", release);
    next();
  };
}
