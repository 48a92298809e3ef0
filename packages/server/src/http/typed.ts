// Handler types from the spec: a route's request and response are the generated `operations`
// entry's (@oisr/contract/schema, made from spec/openapi.yaml), so a spec change that a handler
// does not follow fails the typecheck instead of the contract tests.
import type { operations } from "@oisr/contract/schema";
import type { NextFunction, Request, RequestHandler, Response } from "express";

export type OperationId = keyof operations;

type Operation<Op extends OperationId> = operations[Op];
type Responses<Op extends OperationId> = Operation<Op>["responses"];

/** The generator writes `path?: never` (or `query?: never`) for an operation that has none. */
type Present<T> = [Exclude<T, undefined>] extends [never] ? Record<string, never> : Exclude<T, undefined>;

/** Path parameters, as the route template matched them (the spec's are all strings). */
export type OperationParams<Op extends OperationId> = Present<Operation<Op>["parameters"]["path"]>;

/**
 * Query parameters once the OpenAPI middleware has checked them: it coerces them to the spec's
 * types in place (`limit` arrives as a number) and refuses unknown ones.
 */
export type OperationQuery<Op extends OperationId> = Present<Operation<Op>["parameters"]["query"]>;

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : undefined;

/** The JSON body once validated (defaults filled in); `undefined` for operations that take none. */
export type OperationBody<Op extends OperationId> = JsonContent<Operation<Op>["requestBody"]>;

/** The JSON body the spec gives `status` of the operation; `never` when it has none (204). */
export type OperationResponse<
  Op extends OperationId,
  Status extends keyof Responses<Op>,
> = Responses<Op>[Status] extends { content: { "application/json": infer Body } } ? Body : never;

/** Errors are thrown as problems (http/errors.ts): a handler only ever sends a success body. */
type SuccessStatus<Op extends OperationId> = Extract<keyof Responses<Op>, 200 | 201 | 202 | 204>;
export type OperationSuccess<Op extends OperationId> = {
  [Status in SuccessStatus<Op>]: OperationResponse<Op, Status>;
}[SuccessStatus<Op>];

export type OperationRequest<Op extends OperationId> = Request<
  OperationParams<Op>,
  OperationSuccess<Op>,
  OperationBody<Op>,
  OperationQuery<Op>
>;

/** `res.json` takes only the operation's success bodies. */
export type OperationReply<Op extends OperationId> = Response<OperationSuccess<Op>>;

export type OperationHandler<Op extends OperationId> = (
  req: OperationRequest<Op>,
  res: OperationReply<Op>,
) => void | Promise<void>;

/**
 * The handler of operation `id`, for a router under the OpenAPI middleware. Its request types hold
 * because that middleware (and bodyValidation) checked the call against the operation it matched;
 * the handler makes sure that operation is `id`, so a route mounted on another path than its
 * operation's fails on its first call (500, logged) instead of reading fields that are not there.
 */
export function operation<Op extends OperationId>(id: Op, handler: OperationHandler<Op>): RequestHandler {
  const typed = handler as unknown as (req: Request, res: Response) => void | Promise<void>;
  return (req: Request, res: Response, _next: NextFunction) => {
    const matched = req.openapi?.schema.operationId;
    if (matched !== id) {
      throw new Error(`route for operation ${id} answered a call matched to ${matched ?? "no operation"}`);
    }
    return typed(req, res);
  };
}
