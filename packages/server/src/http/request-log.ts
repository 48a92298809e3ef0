// One log line per answered call, with no credential in it: a token sent in the query string, in an
// unexpected header or in a cookie is redacted from the URL, the parsed query and the headers. The
// calling API key is named by its id (`apiKeyId`), never by its secret.
import { unescape as unescapeQuery } from "node:querystring";
import type { Request, Response } from "express";
import type { Logger } from "pino";
import { type HttpLogger, pinoHttp } from "pino-http";

export const REDACTED = "[redacted]";

/** Query parameters named like a credential, matched whole (case-insensitive). */
const CREDENTIAL_PARAMS = new Set([
  "access_token",
  "token",
  "api_key",
  "apikey",
  "key",
  "secret",
  "password",
  "passwd",
  "pwd",
  "auth",
  "signature",
  "sig",
  "session",
  "jwt",
  "code",
]);
/** Headers that carry credentials, matched whole. */
const CREDENTIAL_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
]);
/** Any query parameter or header whose name contains one of these. */
const CREDENTIAL_NAME = /token|secret|key|passw|auth|session|cookie|signature|jwt|credential/i;
/** An OISR API token, wherever it turns up (a value under an innocent name, a path, a Referer). */
const OISR_TOKEN = /oisr_[A-Za-z0-9_-]+/g;

export function isCredentialParam(name: string): boolean {
  return CREDENTIAL_PARAMS.has(name.toLowerCase()) || CREDENTIAL_NAME.test(name);
}

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name.toLowerCase()) || CREDENTIAL_NAME.test(name);
}

function scrubTokens(text: string): string {
  return text.replace(OISR_TOKEN, REDACTED);
}

/** The URL with the value of every credential-like query parameter replaced, other values kept. */
export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return scrubTokens(url);
  const query = url
    .slice(q + 1)
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      const rawName = eq < 0 ? part : part.slice(0, eq);
      // Decoded as the query parser decodes it, so "access%5Ftoken" is caught too (never throws).
      if (eq >= 0 && isCredentialParam(unescapeQuery(rawName.replaceAll("+", " "))))
        return `${rawName}=${REDACTED}`;
      return scrubTokens(part);
    })
    .join("&");
  return `${scrubTokens(url.slice(0, q))}?${query}`;
}

function scrubValue(value: unknown): unknown {
  if (typeof value === "string") return scrubTokens(value);
  if (Array.isArray(value)) return value.map(scrubValue);
  return value;
}

/** A copy of the parsed query (or route params) with credential-like members redacted. */
function redactQuery(query: unknown): unknown {
  if (query === null || typeof query !== "object") return query;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    out[name] = isCredentialParam(name) ? REDACTED : scrubValue(value);
  }
  return out;
}

/** A copy of the headers with credential headers redacted; the request's own object is left alone. */
export function redactHeaders(headers: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (isCredentialHeader(name)) out[name] = REDACTED;
    else if (name.toLowerCase() === "referer" && typeof value === "string") out[name] = redactUrl(value);
    else out[name] = scrubValue(value);
  }
  return out;
}

interface LoggedRequest {
  url?: string;
  query?: unknown;
  params?: unknown;
  headers?: Record<string, unknown>;
}

/** pino-http's request serializer output, redacted (it shares headers and query with the live request). */
export function redactRequest<T extends LoggedRequest>(req: T): T {
  if (typeof req.url === "string") req.url = redactUrl(req.url);
  req.query = redactQuery(req.query);
  req.params = redactQuery(req.params);
  req.headers = redactHeaders(req.headers);
  return req;
}

/** The request logger: one line per answered call (probes excepted), with the call's trace id. */
export function requestLogger(logger: Logger): HttpLogger<Request, Response> {
  return pinoHttp<Request, Response>({
    logger,
    // apiKeyId is absent from calls without a key (unauthenticated, probes, docs): pino leaves out undefined.
    customProps: (_req, res) => ({ traceId: res.locals?.traceId, apiKeyId: res.locals?.apiKey?.id }),
    serializers: {
      req: (req: LoggedRequest) => redactRequest(req),
      res: (res: { headers?: Record<string, unknown> }) => {
        res.headers = redactHeaders(res.headers);
        return res;
      },
    },
    autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
  });
}
