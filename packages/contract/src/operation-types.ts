// An operation's inputs and answers, typed from the spec's generated `operations`: what the
// server's handlers (express) and the mock's route table (its own pipeline) both read, so a spec
// change either one does not follow fails its typecheck instead of a contract test.
import type { operations } from "./generated/schema.d.ts";

export type OperationId = keyof operations;

type Operation<Id extends OperationId> = operations[Id];
type Responses<Id extends OperationId> = Operation<Id>["responses"];

/** The generator writes `path?: never` (or `query?: never`) for an operation that has none. */
type Present<T> = [Exclude<T, undefined>] extends [never] ? Record<string, never> : Exclude<T, undefined>;

/** Path parameters, as the route matched them (the spec's are all strings). */
export type OperationParams<Id extends OperationId> = Present<Operation<Id>["parameters"]["path"]>;

/**
 * Query parameters once validated: coerced to the spec's types in place (`limit` arrives as a
 * number), unknown ones refused.
 */
export type OperationQuery<Id extends OperationId> = Present<Operation<Id>["parameters"]["query"]>;

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : undefined;

/** The JSON body once validated (defaults filled in); `undefined` for operations that take none. */
export type OperationBody<Id extends OperationId> = JsonContent<Operation<Id>["requestBody"]>;

/** Errors are problems, thrown: a handler only ever answers one of these. */
export type SuccessStatus<Id extends OperationId> = Extract<keyof Responses<Id>, 200 | 201 | 202 | 204>;

/** The JSON body the spec gives `status` of the operation; `never` when it has none (204). */
export type OperationResponse<
  Id extends OperationId,
  Status extends keyof Responses<Id>,
> = Responses<Id>[Status] extends { content: { "application/json": infer Body } } ? Body : never;
