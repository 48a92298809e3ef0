// Handler types from the spec: a route's request and response are the generated `operations`
// entry's (@oisr/contract's operation-types.ts, which the mock's route table reads too), so a spec
// change that a handler does not follow fails the typecheck instead of the contract tests.
import type {
  OperationBody,
  OperationId,
  OperationParams,
  OperationQuery,
  OperationResponse,
  SuccessStatus,
} from "@oisr/contract";
import type { NextFunction, Request, RequestHandler, Response } from "express";

export type {
  OperationBody,
  OperationId,
  OperationParams,
  OperationQuery,
  OperationResponse,
} from "@oisr/contract";

// Errors are thrown as problems (http/errors.ts): a handler only ever sends a success body.
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
