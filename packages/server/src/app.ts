// createApp(deps): the whole HTTP surface, with every dependency injected.
import express, { type Express, Router } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import { accessMiddleware } from "./http/access.ts";
import { largeBodyGate, verifyBody } from "./http/body-limits.ts";
import { bodyValidation, splitBodySchemas } from "./http/body-validation.ts";
import { corsMiddleware } from "./http/cors.ts";
import type { Cursors } from "./http/cursor.ts";
import { errorHandler, notFound } from "./http/errors.ts";
import { requestLogger } from "./http/request-log.ts";
import { traceMiddleware } from "./http/trace.ts";
import { unstorableParameters } from "./http/unstorable-parameters.ts";
import { type Metrics, metricsMiddleware, metricsRoutes } from "./metrics-http.ts";
import type { RequestStore } from "./queue/index.ts";
import { docsRoutes } from "./routes/docs.ts";
import { healthRoutes } from "./routes/health.ts";
import { ingestRoutes } from "./routes/ingest.ts";
import { inventoryRoutes } from "./routes/inventory.ts";
import { orderRoutes } from "./routes/orders.ts";
import { requestRoutes } from "./routes/requests.ts";
import { returnRoutes } from "./routes/returns.ts";
import type { OpenApiDocument } from "./spec.ts";
import type { AccountStore } from "./store/accounts.ts";
import type { ResourceStore } from "./store/resources.ts";

export interface AppDeps {
  config: Config;
  logger: Logger;
  database: Database;
  spec: OpenApiDocument;
  accounts: AccountStore;
  requests: RequestStore;
  resources: ResourceStore;
  metrics: Metrics;
  /** Signs and checks page cursors; its key is shared by every process on the database. */
  cursors: Cursors;
  /** Extra routers mounted under /v2 after auth and rate limiting (webhooks). */
  extraRoutes?: Router[];
}

export function createApp(deps: AppDeps): Express {
  const { config, logger, spec } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(traceMiddleware);
  app.use(metricsMiddleware(deps.metrics));
  // A per-request child logger is costly; skip the middleware when request logs are off anyway.
  if (logger.isLevelEnabled("info")) {
    // Never logs credentials: see http/request-log.ts.
    app.use(requestLogger(logger));
  }

  app.use("/v2", corsMiddleware);
  app.get("/v2/openapi.json", (_req, res) => {
    res.json(spec);
  });

  const v2 = Router();
  v2.use(accessMiddleware(deps.accounts, (scope) => deps.metrics.rateLimited.inc({ scope })));
  v2.use((_req, res, next) => {
    res.locals.cursors = deps.cursors;
    next();
  });
  v2.use(largeBodyGate({ thresholdBytes: 1 << 20, concurrent: config.maxLargeBodies }));
  v2.use(
    express.json({
      limit: "5mb",
      strict: false,
      type: ["application/json", "application/*+json"],
      verify: verifyBody,
    }),
  );
  const { forParameters, bodySchemas } = splitBodySchemas(spec);
  v2.use(
    OpenApiValidator.middleware({
      apiSpec: forParameters as never,
      validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
      validateResponses: config.validateResponses ? { removeAdditional: false } : false,
      // Checking the spec itself against the OpenAPI meta-schema costs ~0.2 s of every start; the
      // spec is checked before it ships (Redocly and the spec tests in CI), so only tests re-check it.
      validateApiSpec: config.validateResponses,
      validateSecurity: false,
      // No operation takes multipart bodies: skip the per-call multipart check.
      fileUploader: false,
      validateFormats: true,
      // Real calendar values: "fast" mode takes 2025-02-30 and hour 24 for dates.
      ajvFormats: { mode: "full" },
      ignoreUndocumented: false,
    }),
  );
  v2.use(bodyValidation(spec, bodySchemas));
  v2.use(unstorableParameters);
  v2.use(ingestRoutes(deps.requests, deps.resources));
  v2.use(requestRoutes(deps.requests, config.requestRetentionDays));
  v2.use(orderRoutes(deps.resources));
  v2.use(returnRoutes(deps.resources));
  v2.use(inventoryRoutes(deps.resources));
  for (const router of deps.extraRoutes ?? []) v2.use(router);
  app.use("/v2", v2);
  // After /v2: the API's calls, the hot path, then meet no probe or docs routes on their way.
  app.use(healthRoutes(deps.database));
  app.use(docsRoutes());
  app.use(metricsRoutes(deps.metrics));

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
