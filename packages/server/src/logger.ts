import { type Logger, pino, stdSerializers } from "pino";

/**
 * drizzle's query errors carry the bound values (webhook secrets, request bodies) in `params` and
 * in their message ("Failed query: …\nparams: …"), which the standard serializer copies into the
 * message and the stack: log the query, never its values.
 */
function serializeError(err: Error & { params?: unknown }) {
  const out = stdSerializers.err(err) as ReturnType<typeof stdSerializers.err> & Record<string, unknown>;
  if (out && typeof out === "object" && Array.isArray(err?.params)) {
    const values = `\nparams: ${err.params}`;
    delete out.params;
    out.message = out.message.split(values).join("\nparams: [redacted]");
    out.stack = out.stack.split(values).join("\nparams: [redacted]");
  }
  return out;
}

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: "oisr" },
      serializers: { err: serializeError },
      // Belt and braces: tokens and secrets must never reach a log line.
      redact: {
        paths: [
          "token",
          "secret",
          "*.token",
          "*.secret",
          // Request logs redact these (http/request-log.ts); kept here for any other logger of a request.
          "req.headers.authorization",
          'req.headers["proxy-authorization"]',
          "req.headers.cookie",
          'req.headers["x-api-key"]',
          'res.headers["set-cookie"]',
        ],
        censor: "[redacted]",
      },
    },
    destination as never,
  );
}
