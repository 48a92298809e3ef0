// chain(): the router's rules for what a middleware hands back, without a layer per middleware.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { describe, expect, it } from "vitest";
import { chain } from "./chain.ts";

const req = {} as Request;
const res = {} as Response;

/** Runs the chain; resolves with what it handed to the router's next. */
function run(handler: RequestHandler): Promise<unknown[]> {
  return new Promise((resolve) => handler(req, res, ((...args: unknown[]) => resolve(args)) as NextFunction));
}

describe("chain", () => {
  it("runs every middleware in order, then the router's next with nothing", async () => {
    const seen: number[] = [];
    const mark =
      (n: number): RequestHandler =>
      (_req, _res, next) => {
        seen.push(n);
        next();
      };
    expect(await run(chain(mark(1), mark(2), mark(3)))).toEqual([]);
    expect(seen).toEqual([1, 2, 3]);
  });

  it("skips the rest on an error passed, thrown or rejected; 'route' is no error", async () => {
    const boom = new Error("boom");
    const never: RequestHandler = () => {
      throw new Error("must not run");
    };
    const passes: RequestHandler = (_req, _res, next) => next("route");
    expect(await run(chain(passes, (_req, _res, next) => next(boom), never))).toEqual([boom]);
    expect(
      await run(
        chain(() => {
          throw boom;
        }, never),
      ),
    ).toEqual([boom]);
    expect(await run(chain(async () => Promise.reject(boom), never))).toEqual([boom]);
    expect(((await run(chain(async () => Promise.reject(undefined))))[0] as Error).message).toBe(
      "Rejected promise",
    );
  });

  it("answers as the same middleware mounted one by one would", async () => {
    const stack: RequestHandler[] = [
      (_req, res, next) => {
        res.setHeader("X-A", "1");
        next();
      },
      async (req, _res, next) => {
        await Promise.resolve();
        if (req.path === "/fail") throw new Error("failed");
        next();
      },
    ];
    const answers = [];
    for (const mounted of [
      (app: express.Express) => app.use(...stack),
      (app: express.Express) => app.use(chain(...stack)),
    ]) {
      const app = express();
      mounted(app);
      app.get("/ok", (_req, res) => {
        res.send("ok");
      });
      app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
        res.status(500).send(err.message);
      });
      const server = app.listen(0);
      await new Promise((resolve) => server.once("listening", resolve));
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const one = async (path: string) => {
        const r = await fetch(`${base}${path}`);
        return [r.status, r.headers.get("x-a"), await r.text()];
      };
      answers.push([await one("/ok"), await one("/fail"), await one("/none")]);
      server.close();
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]?.map((a) => a[0])).toEqual([200, 500, 404]);
  });

  it("refuses an error handler, which the router would call only on errors", () => {
    const onError = (_err: unknown, _req: Request, _res: Response, next: NextFunction) => next();
    expect(() => chain(onError as unknown as RequestHandler)).toThrow();
  });
});
