// GET /requests (newest first) and GET /requests/{request_id}. Records older than the retention
// period are gone, as after the server's purge.
import { HttpProblem } from "../http/problem.ts";
import { type RequestEntry, toRequestRecord } from "../store/account.ts";
import { limitOf, ok, type RouteContext, type RouteHandler } from "./context.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function retained(ctx: RouteContext, entry: RequestEntry): boolean {
  return ctx.runtime.clock.now() - entry.acceptedAt <= ctx.runtime.options.requestRetentionMs;
}

const listRequests: RouteHandler = async (ctx) => {
  const decoded = await ctx.runtime.cursors.decode<number>(ctx.query.cursor as string | undefined, {
    status: ctx.query.status as string | undefined,
    kind: ctx.query.kind as string | undefined,
  });
  const filters = decoded.filters as { status?: string; kind?: string };
  const limit = limitOf(ctx.query);
  const before = decoded.position;
  const final = (e: RequestEntry) => e.status === "succeeded" || e.status === "failed" || e.status === "dead";
  const rows = ctx.account.requests
    .filter(
      (e) =>
        (!filters.status || e.status === filters.status) &&
        (!filters.kind || e.kind === filters.kind) &&
        (before === null || e.seq < before) &&
        (!final(e) || retained(ctx, e)),
    )
    .sort((a, b) => b.seq - a.seq)
    .slice(0, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return ok({
    data: page.map(toRequestRecord),
    // On the last page the cursor still points past its final row, so a later call sees only older rows: none.
    next_cursor: await ctx.runtime.cursors.encode(last ? last.seq : (before ?? 0), filters),
    has_more: rows.length > limit,
  });
};

const getRequest: RouteHandler = (ctx) => {
  const id = ctx.params.request_id ?? "";
  const entry = UUID.test(id) ? ctx.account.requestById.get(id.toLowerCase()) : undefined;
  if (!entry || !retained(ctx, entry))
    throw new HttpProblem(404, "not_found", `No request ${id} in this account.`);
  return ok(toRequestRecord(entry));
};

export const requestRoutes: Record<string, RouteHandler> = { listRequests, getRequest };
