// The 202 of an ingest call, written straight to Node's response. Express's res.set + res.json did
// the same with more steps on every call: the Content-Type through mime-types and then re-parsed
// and re-formatted to add its charset (content-type), settings and ETag lookups, String() of every
// header value: ~3 % of the API process's busy CPU in bench/ingest-ack.ts (session 14 profile). The
// answer is byte for byte the same: same headers in the same order, same values, same body.
import { acceptedHeaders, type IngestAccepted } from "@oisr/contract";
import type { Response } from "express";

/** What express's res.json sets for a JSON body (mime-types' charset added). */
const JSON_TYPE = "application/json; charset=utf-8";

export function sendAccepted(res: Response, ack: IngestAccepted, replayed: boolean): void {
  const headers = acceptedHeaders("/v2/requests", ack.request_id, replayed);
  // A response whose json was wrapped for this call (express-openapi-validator's response
  // validation, OISR_VALIDATE_RESPONSES in tests) is answered through it, so it is still checked.
  if (Object.hasOwn(res, "json")) {
    res.set(headers);
    res.status(202).json(ack);
    return;
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  const body = JSON.stringify(ack);
  res.statusCode = 202;
  res.setHeader("Content-Type", JSON_TYPE);
  res.setHeader("Content-Length", String(Buffer.byteLength(body)));
  res.end(body);
}
