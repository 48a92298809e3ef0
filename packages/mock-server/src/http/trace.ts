// W3C trace context: the caller's trace id when its traceparent is valid, else a new one.
import { hex, randomBytes } from "../ids.ts";

const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-[\da-f]{16}-[\da-f]{2}$/;
const ZERO_TRACE = "0".repeat(32);

export function traceIdFrom(header: string | null): string {
  const match = header ? TRACEPARENT.exec(header.trim().toLowerCase()) : null;
  if (match?.[1] && match[1] !== ZERO_TRACE && !header?.startsWith("ff")) return match[1];
  return hex(randomBytes(16));
}
