// The standalone server's control API under `/__mock/`: the test controls over HTTP, for
// end-to-end tests and consumers in other languages.
import type { IngestKind } from "@oisr/domain";
import type { Mock } from "../public-types.ts";
import type { RateLimitScope } from "../store/rate-limit.ts";

type Json = Record<string, unknown>;

const json = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: body === undefined ? {} : { "content-type": "application/json; charset=utf-8" },
  });

export const ADMIN_PREFIX = "/__mock";

/** Answers `/__mock/<name>`; errors are 400 with `{error}`. */
export async function handleAdmin(mock: Mock, request: Request, name: string): Promise<Response> {
  const { controls } = mock;
  const url = new URL(request.url);
  const body: Json =
    request.method === "POST" ? (((await request.json().catch(() => ({}))) as Json) ?? {}) : {};
  const str = (key: string) => (typeof body[key] === "string" ? (body[key] as string) : undefined);
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
        controls.revokeToken(String(body.token));
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
          count: typeof body.count === "number" ? body.count : undefined,
        });
        return json(204, undefined);
      case "POST exhaust-rate-limit":
        controls.exhaustRateLimit(String(body.scope) as RateLimitScope, str("token"));
        return json(204, undefined);
      case "POST rate-limits":
        controls.setRateLimits(String(body.token), (body.limits ?? null) as never);
        return json(204, undefined);
      case "POST delay-responses":
        controls.delayResponses(Number(body.ms ?? 0));
        return json(204, undefined);
      case "POST unavailable":
        controls.unavailable(Number(body.calls ?? 1), {
          retryAfterSeconds: typeof body.retryAfterSeconds === "number" ? body.retryAfterSeconds : undefined,
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
        return json(404, { error: `no control ${request.method} ${ADMIN_PREFIX}/${name}` });
    }
  } catch (err) {
    return json(400, { error: err instanceof Error ? err.message : String(err) });
  }
}
