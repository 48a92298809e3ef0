// Runs the probe cases against the server (in-process, PGlite) or the mock, prints normalized results.
import { cases } from "/tmp/probe/cases.mjs";
const target = process.argv[2];
let base: string, origin: string, token: string, fetchFn: typeof fetch = fetch, close = async () => {};
if (target === "server") {
  const { loadConfig, startServer } = await import("@oisr/server");
  const server = await startServer(loadConfig({ PORT: "0", LOG_LEVEL: "silent", OISR_DATA_DIR: "memory://" }));
  base = server.url!; origin = server.origin!;
  token = (await server.services.accounts.createAccount("probe")).token;
  close = () => server.close();
} else {
  const { createMock } = await import("../src/index.ts");
  const mock = createMock();
  base = mock.baseUrl; origin = new URL(base).origin; token = mock.controls.createAccount().token;
  fetchFn = (async (url: string, init: RequestInit) => (await mock.handle(new Request(url, init))) ?? new Response("unhandled", { status: 599 })) as typeof fetch;
}
const out: Record<string, unknown>[] = [];
const KEEP = ["allow", "content-type", "www-authenticate", "retry-after", "x-ratelimit-limit", "idempotent-replayed", "access-control-allow-origin", "access-control-allow-methods"];
async function run(name: string, url: string, method: string, headers: Record<string, string>, body?: string) {
  const res = await fetchFn(url, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  try { parsed = JSON.parse(text); } catch {}
  const h: Record<string, string> = {};
  for (const k of KEEP) { const v = res.headers.get(k); if (v !== null) h[k] = v; }
  h["has-trace"] = String(res.headers.has("x-trace-id"));
  h["has-location"] = String(res.headers.has("location"));
  const summary = parsed && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed.code ? { code: parsed.code, title: parsed.title, detail: parsed.detail, errors: parsed.errors } : parsed.data ? { keys: Object.keys(parsed), n: parsed.data.length } : parsed.status ? { status: parsed.status } : { keys: Object.keys(parsed).sort() })
    : typeof parsed === "string" ? parsed.slice(0, 40) : parsed;
  out.push({ name, status: res.status, headers: h, body: summary });
}
for (const [name, method, path, opts] of cases as any[]) {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (name !== "no auth" && name !== "bad auth scheme") headers.authorization = `Bearer ${token}`;
  if (name === "bad auth scheme") headers.authorization = "Basic abc";
  await run(name, base + path, method, headers, opts.body);
}
for (const [p, m] of [["/healthz", "GET"], ["/readyz", "GET"], ["/healthz", "POST"], ["/v2/openapi.json", "GET"]]) await run(`${m} ${p}`, origin + p, m, {});
await run("unknown token", base + "/orders", "GET", { authorization: "Bearer nope" });
await run("options with origin", base + "/orders", "OPTIONS", { origin: "http://x.test", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" });
console.log(JSON.stringify(out, null, 1));
await close();
process.exit(0);
