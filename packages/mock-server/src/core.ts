// The request pipeline, in the server's middleware order: trace id → CORS → (unauthenticated
// service routes) → auth (401) → permission (403) → rate limit (429) → JSON body → route
// (404/405) → media type (415) → schema validation (400) → route handler. Takes a fetch
// `Request`, answers a fetch `Response`, so msw, the standalone HTTP server and tests all drive
// the same code.
import {
  apiKeyExpired,
  bearerToken,
  grants,
  insufficientPermission,
  internalError,
  methodNotAllowed,
  notFound,
  openapiDocument,
  permissionFor,
  rateLimitedProblem,
  rateLimitHeaders,
  SERVICE_UNAVAILABLE_DETAIL,
  scopesFor,
  serviceUnavailable,
  unauthorized,
  unsupportedMediaType,
  unversionedPathNotFound,
} from "@oisr/contract";
import { Clock } from "./clock.ts";
import { mediaType, readJsonBody } from "./http/body.ts";
import { corsHeaders, preflight } from "./http/cors.ts";
import { CursorCodec } from "./http/cursor.ts";
import { docsPage } from "./http/docs.ts";
import { OperationTable } from "./http/operations.ts";
import { HttpProblem, problemBody } from "./http/problem.ts";
import { traceIdFrom } from "./http/trace.ts";
import { SpecValidator } from "./http/validate.ts";
import { type MockOptions, type ResolvedOptions, resolveOptions } from "./options.ts";
import type { ApiOperationId, RouteResult, RouteTable, Runtime, ValidatedHandler } from "./routes/context.ts";
import { routes } from "./routes/index.ts";
import { Scenarios } from "./scenarios.ts";
import { Processor } from "./store/processor.ts";
import { type Credentials, MockStore } from "./store/store.ts";
import { WebhookDispatcher } from "./webhooks/dispatcher.ts";

/** A handler for every authenticated operation of the spec (a missing or misspelt one does not compile). */
const ROUTES: RouteTable = routes;

const isRouted = (operationId: string): operationId is ApiOperationId => Object.hasOwn(ROUTES, operationId);

/**
 * The handler of an operation, to call with inputs the validator has checked against that
 * operation: from here each handler's inputs are its operation's, as its type says.
 */
function routeOf(operationId: string): ValidatedHandler | undefined {
  return isRouted(operationId) ? (ROUTES[operationId] as unknown as ValidatedHandler) : undefined;
}

type ServicePath = "/healthz" | "/readyz" | "/docs";
/** The 401 for a token without the `oisr_` prefix when the mock accepts any `oisr_` token. */
export const MOCK_TOKEN_DETAIL = "The mock accepts any token that starts with oisr_ (e.g. oisr_test).";

type Location = { kind: "api"; path: string } | { kind: "service"; path: ServicePath } | { kind: "other" };

/** The document without the paths served outside the versioned base URL (health probes). */
function apiDocument(document: Record<string, unknown>): Record<string, unknown> {
  const paths = Object.fromEntries(
    Object.entries(document.paths as Record<string, Record<string, unknown>>).filter(
      ([, item]) => !item.servers,
    ),
  );
  return { ...document, paths };
}

let sharedTable: OperationTable | undefined;
let sharedValidator: SpecValidator | undefined;

export class MockCore {
  readonly options: ResolvedOptions;
  readonly runtime: Runtime;
  readonly #table: OperationTable;
  readonly #validator: SpecValidator;

  constructor(options: MockOptions = {}) {
    this.options = resolveOptions(options);
    const clock = new Clock(this.options.clock);
    const store = new MockStore(clock);
    const webhooks = new WebhookDispatcher(store, clock, this.options.webhooks);
    const processor = new Processor(store, clock, this.options, webhooks);
    this.runtime = {
      options: this.options,
      clock,
      store,
      processor,
      webhooks,
      scenarios: new Scenarios(),
      cursors: new CursorCodec(),
    };
    // Compiled validators are the costly part and depend only on the document: share them.
    sharedTable ??= new OperationTable(apiDocument(openapiDocument));
    sharedValidator ??= new SpecValidator(openapiDocument);
    this.#table = sharedTable;
    this.#validator = sharedValidator;
  }

  /** Validates a body as `operationId` would (for `seed`); throws the 400 problem. */
  validateBody(operationId: string, body: unknown, returnId?: string): void {
    const operation = this.#table.byId(operationId);
    const params: Record<string, string> = returnId === undefined ? {} : { return_id: returnId };
    this.#validator.validate(operation, { query: {}, headers: {}, params, body });
  }

  /** Whether a URL is one this mock answers. */
  locate(url: URL): Location | null {
    const base = this.options.baseUrl;
    if (url.origin !== base.origin) return null;
    const path = url.pathname;
    if (path === "/healthz" || path === "/readyz" || path === "/docs") return { kind: "service", path };
    if (path === base.pathname || path.startsWith(`${base.pathname}/`)) {
      return { kind: "api", path: path.slice(base.pathname.length) };
    }
    return this.options.ownOrigin ? { kind: "other" } : null;
  }

  /** The mock's answer to a request, or undefined when the URL is not the mock's. */
  async handle(request: Request): Promise<Response | undefined> {
    const url = new URL(request.url);
    const location = this.locate(url);
    if (!location) return undefined;
    const delay = this.runtime.scenarios.delayMs;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const traceId = traceIdFrom(request.headers.get("traceparent"));
    const headers: Record<string, string> = { "X-Trace-Id": traceId };
    if (location.kind === "api") Object.assign(headers, corsHeaders());
    try {
      if (location.kind === "other")
        throw this.options.baseUrl.pathname === "/v2" ? unversionedPathNotFound() : notFound();
      if (location.kind === "service") {
        const result = this.#service(location.path, request);
        return result instanceof Response ? result : build(request, result, headers);
      }
      if (request.method === "OPTIONS") {
        const response = preflight(request);
        response.headers.set("X-Trace-Id", traceId);
        return response;
      }
      return build(request, await this.#api(request, url, location.path, traceId, headers), headers);
    } catch (err) {
      const problem = err instanceof HttpProblem ? err : internalError();
      return build(
        request,
        { status: problem.status, body: problemBody(problem, traceId), headers: problem.headers },
        { ...headers, "Content-Type": "application/problem+json; charset=utf-8" },
      );
    }
  }

  #service(path: ServicePath, request: Request): RouteResult | Response {
    if (request.method !== "GET" && request.method !== "HEAD") {
      throw methodNotAllowed(request.method, ["GET"]);
    }
    if (path === "/docs") {
      const html = docsPage(openapiDocument, this.options.baseUrl.pathname);
      return new Response(request.method === "HEAD" ? null : html, {
        headers: { "Content-Type": "text/html; charset=utf-8" },
      });
    }
    if (path === "/healthz") return { status: 200, body: { status: "ok" } };
    const retryAfter = this.runtime.scenarios.takeUnavailable();
    if (retryAfter !== null) {
      throw serviceUnavailable(SERVICE_UNAVAILABLE_DETAIL.notReady, retryAfter);
    }
    return { status: 200, body: { status: "ready" } };
  }

  async #api(
    request: Request,
    url: URL,
    path: string,
    traceId: string,
    headers: Record<string, string>,
  ): Promise<RouteResult> {
    const { runtime } = this;
    const method = request.method.toUpperCase();
    if (path === "/openapi.json" && method === "GET") return { status: 200, body: openapiDocument };
    const retryAfter = runtime.scenarios.takeUnavailable();
    if (retryAfter !== null) {
      throw serviceUnavailable(SERVICE_UNAVAILABLE_DETAIL.database, retryAfter);
    }
    const { account, key } = this.#authenticate(request);
    this.#authorize(key, method, path);
    this.#rateLimit(account, method, path, headers);
    const body = await readJsonBody(request);
    const { operation, params } = this.#table.match(method, path);
    if (
      operation.bodySchema &&
      mediaType(request) !== "application/json" &&
      // An optional body may be left out altogether (no Content-Type, nothing sent).
      (operation.bodyRequired || !(await isEmpty(request)))
    ) {
      throw unsupportedMediaType();
    }
    // Null prototypes: a parameter or header named `__proto__` must be an ordinary member, not
    // the object's prototype (it would slip past the unknown-parameter check).
    const query: Record<string, string | string[]> = Object.create(null);
    for (const [name, value] of url.searchParams) {
      const current = query[name];
      query[name] =
        current === undefined ? value : [...(Array.isArray(current) ? current : [current]), value];
    }
    // An explode-form list sent once is still a list (`?type=a` is `["a"]`), as on the server.
    for (const p of operation.parameters) {
      const value = query[p.name];
      if (p.in === "query" && p.schema?.type === "array" && typeof value === "string")
        query[p.name] = [value];
    }
    const headerRecord: Record<string, string> = Object.create(null);
    request.headers.forEach((value, name) => {
      headerRecord[name] = value;
    });
    this.#validator.validate(operation, { query, headers: headerRecord, params, body: body.value });
    const handler = routeOf(operation.operationId);
    if (!handler) throw notFound();
    return handler({
      runtime,
      account,
      apiKey: key,
      traceId,
      path,
      params,
      query,
      headers: request.headers,
      body: body.value,
    });
  }

  #authenticate(request: Request): Credentials {
    const token = bearerToken(request.headers.get("authorization"));
    const found = token ? this.runtime.store.authenticate(token, this.options.acceptAnyToken) : null;
    if (!found) {
      // The server's text says how its keys are made; the mock's says which tokens it takes.
      if (token && this.options.acceptAnyToken && !token.startsWith("oisr_")) {
        const problem = unauthorized(true);
        throw new HttpProblem(401, problem.code, MOCK_TOKEN_DETAIL, { headers: problem.headers });
      }
      throw unauthorized(Boolean(token));
    }
    if ("expired" in found) {
      const { keyId, at, replacedSecret } = found.expired;
      throw apiKeyExpired(keyId, at, replacedSecret);
    }
    return found;
  }

  /** 403 when the key lacks the permission the call needs (before anything else about the call). */
  #authorize(key: Credentials["key"], method: string, path: string): void {
    const permission = permissionFor(method, path);
    if (permission && !grants(key.permissions, permission)) {
      throw insufficientPermission(key.id, permission, `${method} ${this.options.baseUrl.pathname}${path}`);
    }
  }

  #rateLimit(
    account: Credentials["account"],
    method: string,
    path: string,
    headers: Record<string, string>,
  ): void {
    const limits = this.options.rateLimits;
    const scopes = scopesFor(method, path);
    if (limits === false || scopes.length === 0) return;
    const now = this.runtime.clock.now();
    const decision = account.rateWindows.take(
      scopes.map((scope) => ({ scope, limit: account.rateLimits?.[scope] ?? limits[scope] })),
      now,
    );
    const answer = rateLimitHeaders(decision, now);
    Object.assign(headers, answer.headers);
    if (answer.retryAfterSeconds !== undefined) {
      const problem = rateLimitedProblem(decision.limit, answer.retryAfterSeconds);
      throw new HttpProblem(problem.status, problem.code, problem.detail, { headers: problem.headers });
    }
  }
}

/** Whether a request that is not JSON sent no body at all. */
async function isEmpty(request: Request): Promise<boolean> {
  if (request.body === null) return true;
  return (await request.arrayBuffer()).byteLength === 0;
}

function build(request: Request, result: RouteResult, base: Record<string, string>): Response {
  const headers = new Headers(base);
  for (const [name, value] of Object.entries(result.headers ?? {})) headers.set(name, value);
  let payload: string | null = null;
  if (result.body !== undefined && result.status !== 204) {
    payload = JSON.stringify(result.body);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json; charset=utf-8");
  }
  if (request.method === "HEAD") payload = null;
  return new Response(payload, { status: result.status, headers });
}
