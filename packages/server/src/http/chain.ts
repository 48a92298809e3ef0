// Middleware that runs on every path of a router, in order, as one router layer. Each layer costs
// the router a path match, a params step, a trace check and a debug call with objects and closures
// for each, per call: a one-order ingest call crossed 15 layers to reach its handler (the router
// was ~7 % of the API process's busy CPU in bench/ingest-ack.ts, session 14). Here the next
// middleware is called directly, with the router's rules for what a middleware hands back: an error
// passed to next or thrown, or a rejected promise, skips the rest and goes to the router's error
// handling; "route" is no error (the router treats it so outside routes). One difference: the
// router's tracing channel (express.router.request) sees the chain as one handler.
import type { NextFunction, Request, RequestHandler, Response } from "express";

export function chain(...handlers: RequestHandler[]): RequestHandler {
  if (handlers.some((h) => h.length > 3)) throw new Error("chain() takes no error handlers");
  return (req: Request, res: Response, next: NextFunction) => {
    let i = 0;
    const step = (err?: unknown): void => {
      if (err && err !== "route") {
        next(err);
        return;
      }
      const handler = handlers[i++];
      if (handler === undefined) {
        next();
        return;
      }
      try {
        const ret: unknown = handler(req, res, step);
        if (ret instanceof Promise)
          ret.then(undefined, (error) => next(error || new Error("Rejected promise")));
      } catch (error) {
        next(error);
      }
    };
    step();
  };
}
