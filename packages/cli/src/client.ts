// Builds the SDK client from --base-url/--token or OISR_BASE_URL/OISR_TOKEN, counting HTTP
// responses by status on the way (the summary reports 429s that reached the wire).
import { createClient, type OisrClient } from "@oisr/sdk";
import type { Io } from "./io.ts";
import { UsageError } from "./sources/open.ts";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080/v2";

export const CONNECTION_OPTIONS = {
  "base-url": { type: "string" },
  token: { type: "string" },
} as const;

const baseUrls = new WeakMap<Io, string>();

/** The API root a command connected to (for error messages), if it got that far. */
export function baseUrlOf(io: Io): string | undefined {
  return baseUrls.get(io);
}

export interface HttpStats {
  requests: number;
  byStatus: Record<string, number>;
  /** Sends the API answered from its idempotency records (`Idempotent-Replayed: true`): sent before. */
  replayed: number;
}

export function connect(
  values: { "base-url"?: string | undefined; token?: string | undefined },
  io: Io,
  options: { throttle?: boolean } = {},
): { client: OisrClient; stats: HttpStats; baseUrl: string } {
  const baseUrl = values["base-url"] ?? io.env.OISR_BASE_URL ?? DEFAULT_BASE_URL;
  if (!/^https?:\/\//i.test(baseUrl) || !URL.canParse(baseUrl))
    throw new UsageError(`the base URL must be an http(s) URL such as ${DEFAULT_BASE_URL}, not "${baseUrl}"`);
  const token = values.token ?? io.env.OISR_TOKEN;
  if (!token) throw new UsageError("no token: pass --token or set OISR_TOKEN");
  baseUrls.set(io, baseUrl);
  const stats: HttpStats = { requests: 0, byStatus: {}, replayed: 0 };
  const inner = io.fetch ?? ((request: Request) => fetch(request));
  const client = createClient({
    baseUrl,
    token,
    throttle: options.throttle ?? true,
    maxRetries: 5,
    fetch: async (request) => {
      const response = await inner(request);
      stats.requests += 1;
      stats.byStatus[response.status] = (stats.byStatus[response.status] ?? 0) + 1;
      if (response.headers.get("idempotent-replayed") === "true") stats.replayed += 1;
      return response;
    },
  });
  return { client, stats, baseUrl };
}
