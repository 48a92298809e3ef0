// Large JSON bodies (over the large-body threshold by Content-Length, or chunked) are read as bytes
// and then checked and parsed in steps on the CPU lane (cpu-lane.ts), each step its own turn of the
// event loop, instead of inside express.json's one callback (depth check, unstorable-text scan,
// decoding and JSON.parse of a 4.8 MiB body: ~150 ms of CPU in one piece here). The result is what
// express.json makes of the same body: the parsed value, res.locals.bodyMayHoldUnstorable, and
// the same problems (invalid_json naming where the text broke, 413 past the limit). Bodies in another
// charset than UTF-8 are left to express.json.
import { bodyTooDeep, depthScanStart, invalidJsonAt, MAX_BODY_DEPTH, scanDepth } from "@oisr/contract";
import express, { type Request, type RequestHandler, type Response } from "express";
import { onLane } from "./cpu-lane.ts";
import { escapesMayHoldUnstorable } from "./unstorable-bytes.ts";
import { decodeUtf8OnLane } from "./utf8-in-steps.ts";

/** Bytes a step of the depth and unstorable-text scans reads: 20 steps each for a 4.8 MiB body. */
const SCAN_SLICE_BYTES = 256 * 1024;

const JSON_TYPES = ["application/json", "application/*+json"];

export function isLargeBody(req: Request, thresholdBytes: number): boolean {
  const length = req.headers["content-length"];
  if (length === undefined) return req.headers["transfer-encoding"] !== undefined;
  return Number(length) > thresholdBytes;
}

function utf8(req: Request): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers["content-type"] ?? "")?.[1];
  return charset === undefined || /^utf-?8$/i.test(charset);
}

async function parseOnLane(req: Request, res: Response): Promise<void> {
  const buf = req.body as Buffer;
  res.locals.largeBody = true;
  if (buf.length === 0) {
    // As express.json: an empty body is an empty object (the validator then says what is missing).
    req.body = {};
    return;
  }
  // The depth check and the unstorable-text scan read the bytes a slice per step: in one step each
  // held the loop up to 250 and 136 ms on a 4.8 MiB body with the machine loaded (profile of
  // bench/hostile-input.ts), the longest steps after JSON.parse.
  const scan = depthScanStart();
  for (let end = SCAN_SLICE_BYTES; ; end += SCAN_SLICE_BYTES) {
    const last = Math.min(end, buf.length);
    if (await onLane(() => scanDepth(buf, MAX_BODY_DEPTH, scan, last))) throw bodyTooDeep();
    if (last === buf.length) break;
  }
  let mayHoldUnstorable = false;
  for (let start = 0; start < buf.length && !mayHoldUnstorable; start += SCAN_SLICE_BYTES) {
    const end = Math.min(start + SCAN_SLICE_BYTES, buf.length);
    mayHoldUnstorable = await onLane(() => escapesMayHoldUnstorable(buf, start, end));
  }
  res.locals.bodyMayHoldUnstorable = mayHoldUnstorable;
  const text = await decodeUtf8OnLane(buf);
  const parsed = await onLane(() => {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      return null;
    }
  });
  // The problem express.json's error would become (errors.ts), found on the lane too: it scans the text.
  if (!parsed) throw await onLane(() => invalidJsonAt(text));
  req.body = parsed.value;
}

/** Before express.json: takes the large JSON bodies (see the header); express.json skips a read body. */
export function largeJsonBody(options: { thresholdBytes: number; limit: string }): RequestHandler {
  const raw = express.raw({ limit: options.limit, type: () => true });
  return (req, res, next) => {
    if (!isLargeBody(req, options.thresholdBytes) || !req.is(JSON_TYPES) || !utf8(req)) return next();
    raw(req, res, (err?: unknown) => {
      if (err) return next(err);
      parseOnLane(req, res).then(() => next(), next);
    });
  };
}
