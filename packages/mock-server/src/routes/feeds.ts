// GET /orders and GET /returns (change feeds: each resource at the position of its latest change),
// GET /orders/{identifier}, GET /returns/{return_id}, and GET /inventory (keyset by location, sku).
import {
  type Filters,
  limitOf,
  orderNotFound,
  pageOf,
  readFeed,
  returnNotFound,
  stringFilters,
} from "@oisr/contract";
import { type InventoryLevel, type Order, type Return, resolveOrder, resolveReturn } from "@oisr/domain";
import type { Account, FeedPosition } from "../store/account.ts";
import { ok, type RouteBase, type RouteContext, type RouteHandler, type RouteTable } from "./context.ts";

const cursorsOf = (ctx: RouteBase) => ctx.runtime.cursors.forAccount(ctx.account.id);

const since = (updatedAt: string, filter: string | undefined) =>
  filter === undefined || Date.parse(updatedAt) >= Date.parse(filter);

/**
 * A change-feed list: each resource once, at the position of its latest change after the cursor's,
 * kept when it passes the filters (`updated_since` for every feed, the rest by `keep`).
 */
function feedRoute<T extends { updated_at: string }>(
  names: readonly string[],
  positionsOf: (account: Account) => Map<string, FeedPosition>,
  lookup: (account: Account, id: string) => T | undefined,
  keep: (item: T, filters: Filters) => boolean,
) {
  return async (ctx: RouteContext<"listOrders" | "listReturns">) => {
    const page = await readFeed(
      cursorsOf(ctx),
      ctx.query,
      stringFilters(ctx.query, names),
      (filters, after, take) => {
        const rows: { seq: number; body: T }[] = [];
        for (const [id, at] of positionsOf(ctx.account)) {
          if (at.seq <= after) continue;
          const body = lookup(ctx.account, id);
          if (body && keep(body, filters) && since(body.updated_at, filters.updated_since)) {
            rows.push({ seq: at.seq, body });
          }
        }
        return rows.sort((a, b) => a.seq - b.seq).slice(0, take);
      },
    );
    return ok(page);
  };
}

const listOrders: RouteHandler<"listOrders"> = feedRoute<Order>(
  ["status", "source", "updated_since"],
  (account) => account.orderFeed,
  (account, id) => account.state.orderById(id),
  (o, filters) =>
    (filters.status === undefined || o.status === filters.status) &&
    (filters.source === undefined || o.source === filters.source),
);

const listReturns: RouteHandler<"listReturns"> = feedRoute<Return>(
  ["status", "order_id", "updated_since"],
  (account) => account.returnFeed,
  (account, id) => account.state.returnById(id),
  (r, filters) =>
    (filters.status === undefined || r.status === filters.status) &&
    (filters.order_id === undefined ||
      r.order_id === filters.order_id ||
      r.order_external_id === filters.order_id),
);

const getOrder: RouteHandler<"getOrder"> = (ctx) => {
  const { identifier } = ctx.params;
  const order = resolveOrder(ctx.account.state, identifier);
  if (!order) throw orderNotFound(identifier);
  return ok(order);
};

const getReturn: RouteHandler<"getReturn"> = (ctx) => {
  const identifier = ctx.params.return_id;
  const found = resolveReturn(ctx.account.state, identifier);
  if (!found) throw returnNotFound(identifier);
  return ok(found);
};

const compareKeys = (a: [string, string], b: [string, string]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

const listInventory: RouteHandler<"listInventory"> = async (ctx) => {
  const cursors = cursorsOf(ctx);
  const decoded = await cursors.decode<[string, string]>(
    ctx.query.cursor,
    stringFilters(ctx.query, ["location_id", "sku"]),
  );
  const filters = decoded.filters;
  const limit = limitOf(ctx.query);
  const after = decoded.position;
  const rows = ctx.account.state
    .allInventoryLevels()
    .filter(
      (l: InventoryLevel) =>
        (filters.location_id === undefined || l.location_id === filters.location_id) &&
        (filters.sku === undefined || l.sku === filters.sku) &&
        (after === null || compareKeys([l.location_id, l.sku], after) > 0),
    )
    .sort((a, b) => compareKeys([a.location_id, a.sku], [b.location_id, b.sku]))
    .slice(0, limit + 1);
  return ok(
    await pageOf(cursors, rows, {
      limit,
      from: after ?? ["", ""],
      filters,
      positionOf: (l): [string, string] => [l.location_id, l.sku],
      map: (l) => l,
    }),
  );
};

export const feedRoutes = {
  listOrders,
  getOrder,
  listReturns,
  getReturn,
  listInventory,
} satisfies Partial<RouteTable>;
