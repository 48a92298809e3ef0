// What a route handler gets: the authenticated account and key, validated inputs, and the mock's parts.
import { limitOf, retentionCutoff } from "@oisr/contract";
import type { Clock } from "../clock.ts";
import type { CursorCodec } from "../http/cursor.ts";
import type { ResolvedOptions } from "../options.ts";
import type { Scenarios } from "../scenarios.ts";
import type { Account } from "../store/account.ts";
import type { MockApiKey } from "../store/api-keys.ts";
import type { Processor } from "../store/processor.ts";
import type { MockStore } from "../store/store.ts";
import type { WebhookDispatcher } from "../webhooks/dispatcher.ts";

export interface Runtime {
  options: ResolvedOptions;
  clock: Clock;
  store: MockStore;
  processor: Processor;
  webhooks: WebhookDispatcher;
  scenarios: Scenarios;
  cursors: CursorCodec;
}

export interface RouteContext {
  runtime: Runtime;
  account: Account;
  /** The key whose secret the call sent. */
  apiKey: MockApiKey;
  traceId: string;
  /** Path relative to the base URL, as called (still percent-encoded). */
  path: string;
  params: Record<string, string>;
  /** Validated query, numbers coerced. */
  query: Record<string, unknown>;
  headers: Headers;
  body: unknown;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type RouteHandler = (ctx: RouteContext) => RouteResult | Promise<RouteResult>;

export const ok = (body: unknown, headers?: Record<string, string>): RouteResult => ({
  status: 200,
  body,
  headers,
});

export { limitOf, stringFilters } from "@oisr/contract";

/** A newest-first page keyed by id; an empty page keeps the position it was asked from. */
export async function idPage<R extends { id: string }, T>(ctx: RouteContext, rows: R[], map: (row: R) => T) {
  const limit = limitOf(ctx.query);
  const cursors = ctx.runtime.cursors.forAccount(ctx.account.id);
  const before = (await cursors.decode<string>(ctx.query.cursor, {})).position || null;
  const sorted = rows
    .filter((r) => before === null || r.id < before)
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit + 1);
  const data = sorted.slice(0, limit);
  return {
    data: data.map(map),
    next_cursor: await cursors.encode(data.at(-1)?.id ?? before ?? "", {}),
    has_more: sorted.length > limit,
  };
}

/** The oldest instant (ms) the mock still shows: request records, events and recoveries before it are gone, as on the server. */
export function retentionCutoffMs(runtime: Runtime): number {
  return retentionCutoff(new Date(runtime.clock.now()), runtime.options.requestRetentionDays).getTime();
}

/** Whether something created at `at` (ms) is still within the retention period. */
export function retained(runtime: Runtime, at: number): boolean {
  return at >= retentionCutoffMs(runtime);
}

/** The base path (e.g. `/v2`) that `Location` headers start with. */
export function basePath(runtime: Runtime): string {
  return runtime.options.baseUrl.pathname;
}
