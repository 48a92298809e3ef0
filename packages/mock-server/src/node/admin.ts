// The standalone server's control API under `/__mock/`: the test controls over HTTP, for
// end-to-end tests and consumers in other languages.
import type { IngestKind } from "@oisr/domain";
import type { Mock } from "../public-types.ts";
import type { RateLimitScope } from "../store/rate-limit.ts";

type Json = Record<string, unknown>;

/** A refused control call: problem+json (RFC 9457), `error` kept for callers that read it. */
const problem = (status: number, title: string, detail: string) =>
  new Response(JSON.stringify({ type: "about:blank", title, status, detail, error: detail }), {
    status,
    headers: { "content-type": "application/problem+json; charset=utf-8" },
  });

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { "content-type": "application/json; charset=utf-8" },
  });

export const ADMIN_PREFIX = "/__mock";

/**
 * Answers `/__mock/<name>`. A refused call is a problem+json whose `detail` (also `error`) says
 * why: 400 for a body that is not a JSON object or a value the control does not take (naming the
 * allowed ones), 404 for an unknown control.
 */
export async function handleAdmin(mock: Mock, request: Request, name: string): Promise<Response> {
  const { controls } = mock;
  const url = new URL(request.url);
  let body: Json = {};
  if (request.method === "POST") {
    const text = await request.text();
    let parsed: unknown = {};
    try {
      if (text.trim() !== "") parsed = JSON.parse(text);
    } catch {
      return problem(400, "Bad Request", `the body of ${ADMIN_PREFIX}/${name} is not valid JSON`);
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
      return problem(400, "Bad Request", `the body of ${ADMIN_PREFIX}/${name} must be a JSON object`);
    body = parsed as Json;
  }
  // Values are passed on as sent: the controls check them (ControlError) and name what they take.
  const str = (key: string) => body[key] as string | undefined;
  const q = (key: string) => url.searchParams.get(key) ?? undefined;
  try {
    switch (`${request.method} ${name}`) {
      case "POST reset":
        controls.reset();
        return json(204, undefined);
      case "POST seed":
        return json(
          200,
          controls.seed((body.data ?? {}) as never, { token: str("token"), events: body.events === true }),
        );
      case "POST accounts":
        return json(201, controls.createAccount(str("name")));
      case "POST tokens/revoke":
        controls.revokeToken(str("token") as string);
        return json(204, undefined);
      case "GET clock":
        return json(200, {
          now: new Date(controls.clock.now()).toISOString(),
          frozen: controls.clock.frozen,
        });
      case "POST clock/advance":
        controls.clock.advance(Number(body.ms));
        return json(200, { now: new Date(controls.clock.now()).toISOString() });
      case "POST clock/set":
        controls.clock.set(body.to as string | number);
        return json(200, { now: new Date(controls.clock.now()).toISOString() });
      case "POST clock/freeze":
        controls.clock.freeze(body.at as string | number | undefined);
        return json(200, { now: new Date(controls.clock.now()).toISOString() });
      case "POST clock/unfreeze":
        controls.clock.unfreeze();
        return json(200, { now: new Date(controls.clock.now()).toISOString() });
      case "POST fail-next":
        controls.failNext((str("outcome") ?? "dead") as "dead" | "failed", {
          token: str("token"),
          kind: str("kind") as IngestKind | undefined,
          errors: body.errors as never,
          count: body.count as number | undefined,
        });
        return json(204, undefined);
      case "POST exhaust-rate-limit":
        controls.exhaustRateLimit(body.scope as RateLimitScope, str("token"));
        return json(204, undefined);
      case "POST rate-limits":
        controls.setRateLimits(str("token") as string, (body.limits ?? null) as never);
        return json(204, undefined);
      case "POST delay-responses":
        controls.delayResponses((body.ms ?? 0) as number);
        return json(204, undefined);
      case "POST unavailable":
        controls.unavailable((body.calls ?? 1) as number, {
          retryAfterSeconds: body.retryAfterSeconds as number | undefined,
        });
        return json(204, undefined);
      case "POST processing/pause":
        controls.pauseProcessing();
        return json(204, undefined);
      case "POST processing/resume":
        controls.resumeProcessing();
        return json(204, undefined);
      case "POST flush":
        await controls.flush();
        return json(204, undefined);
      case "GET events":
        return json(200, controls.events({ token: q("token"), type: q("type") }));
      case "GET requests":
        return json(
          200,
          controls.requests({ token: q("token"), status: q("status"), kind: q("kind") as IngestKind }),
        );
      default:
        return problem(404, "Not Found", `no control ${request.method} ${ADMIN_PREFIX}/${name}`);
    }
  } catch (err) {
    return problem(400, "Bad Request", err instanceof Error ? err.message : String(err));
  }
}
