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
      calls.push({ method: request.method, url: request.url, headers: new Headers(request.headers), body: await request.text() });
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

export function problem(status: number, code: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}): Response {
  return json(
    { type: `https://oisr.dev/problems/${code}`, title: code, status, detail: `${code} detail`, trace_id: "0af7651916cd43dd8448eb211c80319c", code, ...extra },
    status,
    headers,
  );
}
