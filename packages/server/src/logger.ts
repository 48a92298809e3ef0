import { type Logger, pino } from "pino";

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    {
      level,
      base: { service: "oisr" },
      // Belt and braces: tokens and secrets must never reach a log line.
      redact: {
        paths: ["token", "secret", "*.token", "*.secret", "req.headers.authorization"],
        censor: "[redacted]",
      },
    },
    destination as never,
  );
}
