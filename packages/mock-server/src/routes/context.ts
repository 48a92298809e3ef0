// What a route handler gets: the authenticated account and key, validated inputs, and the mock's parts.
import {
  limitOf,
  type OperationBody,
  type OperationParams,
  type OperationQuery,
  idPage as pageOfIds,
  retentionCutoff,
  type SuccessStatus,
} from "@oisr/contract";
import type { operations } from "@oisr/contract/schema";
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

/**
 * The spec's operations the route table answers: every one that authenticates (the spec gives it a
 * 401). The others are the unauthenticated service routes core.ts serves itself (`/openapi.json`,
 * `/healthz`, `/readyz`) and the webhooks the mock sends rather than answers.
 */
export type ApiOperationId = {
  [Id in keyof operations]: 401 extends keyof operations[Id]["responses"] ? Id : never;
}[keyof operations];

type Responses<Id extends ApiOperationId> = operations[Id]["responses"];

export type { OperationBody, OperationParams, OperationQuery } from "@oisr/contract";

type Answer<Status, Body> = { status: Status; body: Body; headers?: Record<string, string> };

/**
 * Operations whose answers the mock builds from records it keeps untyped: events are recorded as
 * `WebhookEventBody` (any `type`, any `data`; webhooks/dispatcher.ts), so their body is not checked
 * against the spec's `Event` here (their status still is).
 */
type UncheckedAnswer = "listEvents" | "getEvent";

/**
 * What a handler answers: one of the operation's success statuses with the spec's body for it
 * (none for a 204). Problems are thrown (HttpProblem), never returned.
 */
export type OperationResult<Id extends ApiOperationId> = {
  [Status in SuccessStatus<Id>]: Id extends UncheckedAnswer
    ? Answer<Status, unknown>
    : Responses<Id>[Status] extends { content: { "application/json": infer Body } }
      ? Answer<Status, Body>
      : { status: Status; body?: undefined; headers?: Record<string, string> };
}[SuccessStatus<Id>];

/** What every handler gets, whatever its operation. */
export interface RouteBase {
  runtime: Runtime;
  account: Account;
  /** The key whose secret the call sent. */
  apiKey: MockApiKey;
  traceId: string;
  /** Path relative to the base URL, as called (still percent-encoded). */
  path: string;
  headers: Headers;
}

/** The call as the handler of operation `Id` gets it: its inputs validated against that operation. */
export interface RouteContext<Id extends ApiOperationId> extends RouteBase {
  params: OperationParams<Id>;
  query: OperationQuery<Id>;
  body: OperationBody<Id>;
}

export type RouteHandler<Id extends ApiOperationId> = (
  ctx: RouteContext<Id>,
) => OperationResult<Id> | Promise<OperationResult<Id>>;

/** The route table: a handler for every operation of the spec that the table answers, and no other. */
export type RouteTable = { [Id in ApiOperationId]: RouteHandler<Id> };

/**
 * A handler as the pipeline calls it: once the validator has checked the call against the
 * handler's operation, its inputs are that operation's (core.ts, the one place the table's types
 * meet the untyped request).
 */
export type ValidatedHandler = (
  ctx: RouteBase & { params: Record<string, string>; query: Record<string, unknown>; body: unknown },
) => RouteResult | Promise<RouteResult>;

/** A response as the pipeline (core.ts) puts it on the wire. */
export interface RouteResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export const ok = <T>(body: T, headers?: Record<string, string>) => ({ status: 200 as const, body, headers });

export { limitOf, stringFilters } from "@oisr/contract";

/** A newest-first page of `rows` keyed by id, from the call's cursor and limit (the contract's idPage, as the server's). */
export async function idPage<R extends { id: string }, T>(
  ctx: RouteBase & { query: { cursor?: string; limit?: number } },
  rows: R[],
  map: (row: R) => T,
) {
  const limit = limitOf(ctx.query);
  const cursors = ctx.runtime.cursors.forAccount(ctx.account.id);
  const before = (await cursors.decode<string>(ctx.query.cursor, {})).position || null;
  const sorted = rows
    .filter((r) => before === null || r.id < before)
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit + 1);
  return pageOfIds(cursors, sorted, limit, before, map);
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
