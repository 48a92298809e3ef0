// Request bodies as the server's express.json reads them: only JSON media types are parsed
// (`application/json`, `application/*+json`), at most 5 MiB, any JSON value (not strict: `null`,
// `1` or `"x"` are valid JSON, so the schema refuses them as `validation_failed`, not as
// `invalid_json`); an empty JSON body is `{}`. Other media types are left unread (the operation
// then decides: 415).
import { bodyTooDeep, invalidJsonAt, MAX_BODY_DEPTH, nestsDeeperThan, payloadTooLarge } from "@oisr/contract";

export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export function mediaType(request: Request): string | undefined {
  const header = request.headers.get("content-type");
  return header ? header.split(";")[0]?.trim().toLowerCase() : undefined;
}

const isJsonType = (type: string | undefined) =>
  type !== undefined && (type === "application/json" || /^application\/[^/]+\+json$/.test(type));

export interface ParsedBody {
  /** The parsed JSON, or undefined when the body was not JSON (or there was none). */
  value: unknown;
  parsed: boolean;
}

export async function readJsonBody(request: Request): Promise<ParsedBody> {
  if (request.method === "GET" || request.method === "HEAD") return { value: undefined, parsed: false };
  if (!isJsonType(mediaType(request))) return { value: undefined, parsed: false };
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) throw payloadTooLarge();
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) throw payloadTooLarge();
  if (bytes.byteLength === 0) return { value: {}, parsed: true };
  if (nestsDeeperThan(bytes, MAX_BODY_DEPTH)) throw bodyTooDeep();
  const text = new TextDecoder().decode(bytes);
  try {
    return { value: JSON.parse(text), parsed: true };
  } catch {
    throw invalidJsonAt(text);
  }
}
