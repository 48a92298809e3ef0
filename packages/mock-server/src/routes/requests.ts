// GET /requests (newest first), GET /requests/{request_id} and its submitted body. Records older than the retention
// period are gone, as after the server's purge.
import { limitOf, requestNotFound, requestPage, stringFilters, toRequestRecord } from "@oisr/contract";
import type { RequestEntry } from "../store/account.ts";
import { ok, type RouteHandler, type RouteTable, retained, retentionCutoffMs } from "./context.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const listRequests: RouteHandler<"listRequests"> = async (ctx) => {
  const cursors = ctx.runtime.cursors.forAccount(ctx.account.id);
  const decoded = await cursors.decode<number>(
    ctx.query.cursor,
    stringFilters(ctx.query, ["status", "kind"]),
  );
  const filters = decoded.filters;
  const limit = limitOf(ctx.query);
  const before = decoded.position;
  const final = (e: RequestEntry) => e.status === "succeeded" || e.status === "failed" || e.status === "dead";
  const cutoff = retentionCutoffMs(ctx.runtime);
  const rows = ctx.account.requests
    .filter(
      (e) =>
        (!filters.status || e.status === filters.status) &&
        (!filters.kind || e.kind === filters.kind) &&
        (before === null || e.seq < before) &&
        (!final(e) || e.acceptedAt >= cutoff),
    )
    .sort((a, b) => b.seq - a.seq)
    .slice(0, limit + 1);
  return ok(await requestPage(cursors, rows, toRequestRecord, { limit, before, filters }));
};

const getRequest: RouteHandler<"getRequest"> = (ctx) => {
  const id = ctx.params.request_id;
  const entry = UUID.test(id) ? ctx.account.requestById.get(id.toLowerCase()) : undefined;
  if (!entry || !retained(ctx.runtime, entry.acceptedAt)) throw requestNotFound(id);
  return ok(toRequestRecord(entry));
};

const getRequestBody: RouteHandler<"getRequestBody"> = (ctx) => {
  const id = ctx.params.request_id;
  const entry = UUID.test(id) ? ctx.account.requestById.get(id.toLowerCase()) : undefined;
  if (!entry || !retained(ctx.runtime, entry.acceptedAt)) throw requestNotFound(id);
  return ok(entry.body);
};

export const requestRoutes = { listRequests, getRequest, getRequestBody } satisfies Partial<RouteTable>;
