// Test helpers (not exported from the package; imported only by *.test.ts).

export interface RecordedCall {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

export type Scripted = Response | Error | ((request: Request) => Response | Promise<Response>);

/** A fetch that answers from a script, one entry per call (the last one repeats), and records what it was sent. */
export function scriptedFetch(script: Scripted[]): {
  fetch: (request: Request) => Promise<Response>;
  calls: RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  let i = 0;
  return {
    calls,
    async fetch(request) {
      calls.push({
        method: request.method,
        url: request.url,
        headers: new Headers(request.headers),
        body: await request.text(),
      });
      const step = script[Math.min(i++, script.length - 1)];
      if (step instanceof Error) throw step;
      if (typeof step === "function") return step(request);
      if (!step) throw new Error("script is empty");
      return step.clone();
    },
  };
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": status >= 400 ? "application/problem+json" : "application/json", ...headers },
  });
}

export function problem(
  status: number,
  code: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Response {
  return json(
    {
      type: `https://oisr.dev/problems/${code}`,
      title: code,
      status,
      detail: `${code} detail`,
      trace_id: "0af7651916cd43dd8448eb211c80319c",
      code,
      ...extra,
    },
    status,
    headers,
  );
}

/**
 * A fake API routed by `"METHOD /path"` (relative to /v2; `*` matches one segment). Each route is
 * a handler or a list of responses served in turn (the last one repeats).
 */
export function fakeApi(routes: Record<string, Scripted | Scripted[]>): {
  fetch: (request: Request) => Promise<Response>;
  calls: RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  const served = new Map<string, number>();
  const table = Object.entries(routes).map(([key, script]) => {
    const [method, pattern] = key.split(" ") as [string, string];
    const re = new RegExp(`^${pattern.replace(/[.?+]/g, "\\$&").replace(/\*/g, "[^/]+")}$`);
    return { key, method, re, script: Array.isArray(script) ? script : [script] };
  });
  return {
    calls,
    async fetch(request) {
      const url = new URL(request.url);
      calls.push({
        method: request.method,
        url: request.url,
        headers: new Headers(request.headers),
        body: await request.clone().text(),
      });
      const path = url.pathname.replace(/^\/v2/, "");
      const route = table.find((r) => r.method === request.method && r.re.test(path));
      if (!route) return json({ status: 404, code: "not_found", title: "Not found" }, 404);
      const n = served.get(route.key) ?? 0;
      served.set(route.key, n + 1);
      const step = route.script[Math.min(n, route.script.length - 1)];
      if (step instanceof Error) throw step;
      if (typeof step === "function") return step(request);
      return (step as Response).clone();
    },
  };
}
