// Checks the options before any test runs, so a wrong URL or token gives one clear sentence
// (and exit 2) instead of hundreds of failing tests.

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface PreflightOptions {
  baseUrl: string;
  tokens: string[];
  adminCommand?: string;
  /** Per call; an unreachable host should not hang the check. */
  timeoutMs?: number;
}

/** Throws UsageError with the reason; resolves when the base URL and every token work. */
export async function preflight(options: PreflightOptions): Promise<void> {
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new UsageError(`--base ${options.baseUrl} is not a URL (expected e.g. http://localhost:3000/v2)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UsageError(`--base ${options.baseUrl}: only http and https URLs can be tested`);
  if (!/\/v2\/?$/.test(url.pathname))
    throw new UsageError(
      `--base ${options.baseUrl} does not end in /v2: the base URL includes the version prefix (e.g. ${url.origin}/v2)`,
    );
  if (options.tokens.length < 2 && !options.adminCommand)
    throw new UsageError(
      "give two tokens of two different accounts (--token A --token B), or --admin-command to mint accounts",
    );
  const seen = new Set<string>();
  for (const token of options.tokens) {
    if (seen.has(token))
      throw new UsageError(
        "two --token options are equal: the isolation tests need tokens of two different accounts",
      );
    seen.add(token);
  }
  const base = options.baseUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? 10_000;
  const get = async (token: string | undefined) => {
    try {
      return await fetch(`${base}/requests?limit=1`, {
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause =
        error instanceof Error
          ? ((error.cause as Error | undefined)?.message ?? error.message)
          : String(error);
      throw new UsageError(`cannot reach ${base}: ${cause}`);
    }
  };
  const anonymous = await get(undefined);
  if (anonymous.status === 404)
    throw new UsageError(`${base}/requests answered 404: is ${base} the API's base URL (ending in /v2)?`);
  for (const [i, token] of options.tokens.entries()) {
    const res = await get(token);
    if (res.status === 401 || res.status === 403)
      throw new UsageError(
        `token ${i + 1} (${token.slice(0, 9)}…) is refused: GET /requests answered ${res.status}`,
      );
    if (res.status !== 200)
      throw new UsageError(`GET ${base}/requests with token ${i + 1} answered ${res.status}, expected 200`);
  }
}
