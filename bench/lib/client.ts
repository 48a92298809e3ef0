// A thin HTTP client for benchmarks: fetch (undici, keep-alive), bearer token, JSON.
export interface Api {
  url: string;
  token: string;
  post(path: string, body: string): Promise<{ status: number; json: Record<string, unknown> }>;
  get<T = Record<string, unknown>>(path: string): Promise<{ status: number; json: T }>;
  /** The body as text, unparsed: for timing reads without the client's JSON.parse in the figure. */
  getText(path: string): Promise<{ status: number; text: string }>;
}

export function api(url: string, token: string): Api {
  const auth = { authorization: `Bearer ${token}` };
  const post = { ...auth, "content-type": "application/json" };
  return {
    url,
    token,
    async post(path, body) {
      const res = await fetch(`${url}${path}`, { method: "POST", headers: post, body });
      return { status: res.status, json: (await res.json()) as Record<string, unknown> };
    },
    async get<T>(path: string) {
      const res = await fetch(`${url}${path}`, { headers: auth });
      return { status: res.status, json: (await res.json()) as T };
    },
    async getText(path) {
      const res = await fetch(`${url}${path}`, { headers: auth });
      return { status: res.status, text: await res.text() };
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Milliseconds since the epoch, with the microseconds PostgreSQL gives (Date keeps only ms). */
export function epochMs(timestamp: string): number {
  const m = /\.(\d+)/.exec(timestamp);
  const whole = Date.parse(timestamp.replace(/\.\d+/, ""));
  return whole + (m ? Number(`0.${m[1]}`) * 1000 : 0);
}
