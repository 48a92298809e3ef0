// A deliberately tiny HTTP client: plain fetch, no SDK, so the suite tests the wire contract.
import type { System } from "./targets.ts";

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by the tests' assertions, field by field.
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the response is JSON (including problem+json), else the raw text. */
  body: Json;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A string or bytes is sent as is; anything else is JSON-encoded. */
  body?: unknown;
}

export interface Api {
  readonly system: System;
  readonly token: string | undefined;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  get(path: string, headers?: Record<string, string>): Promise<ApiResponse>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

/** Paths starting with `/v2/` or `http` are taken as they are (e.g. a `Location` header); others are relative to the base URL. */
function urlOf(system: System, path: string): string {
  if (path.startsWith("http://") || path.startsWith("https://")) return path;
  if (path.startsWith("/v2/") || path === "/v2") return system.origin + path;
  return system.baseUrl + path;
}

export async function send(system: System, method: string, path: string, options: RequestOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === "string" || options.body instanceof Uint8Array) {
      body = options.body as BodyInit;
    } else {
      body = JSON.stringify(options.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
        headers["content-type"] = "application/json";
      }
    }
  }
  const res = await fetch(urlOf(system, path), { method, headers, body });
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  let parsed: Json = text;
  if (/[/+]json\b/.test(type) && text !== "") parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text } satisfies ApiResponse;
}

/** `api(system, token).post("/ingest/orders", body)`; without a token, no Authorization header is sent. */
export function api(system: System, token?: string): Api {
  const auth: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const request = (method: string, path: string, options: RequestOptions = {}) =>
    send(system, method, path, { ...options, headers: { ...auth, ...options.headers } });
  return {
    system,
    token,
    request,
    get: (path, headers) => request("GET", path, { headers }),
    post: (path, body, headers) => request("POST", path, { body, headers }),
  };
}

/** A query string from defined values only. */
export function query(params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}
