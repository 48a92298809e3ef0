// createApp(deps): the whole HTTP surface, every router mounted here with what it needs passed in
// (openServices builds the stores); only per-call facts travel in res.locals (http/locals.ts).
import { integerQueryParameters } from "@oisr/contract";
import express, { type Express, Router } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import type { Logger } from "pino";
import type { Config } from "./config.ts";
import { accessGate } from "./http/access.ts";
import { largeBodyGate, verifyBody } from "./http/body-limits.ts";
import { bodyValidation, splitBodySchemas } from "./http/body-validation.ts";
import { chain } from "./http/chain.ts";
import { corsMiddleware } from "./http/cors.ts";
import { apiNotFound, errorHandler, notFound } from "./http/errors.ts";
import { integerQuery } from "./http/integer-query.ts";
import { largeJsonBody } from "./http/large-json.ts";
import { openApiFastPath } from "./http/openapi-fast-path.ts";
import "./http/locals.ts";
import { requestLogger } from "./http/request-log.ts";
import { traceMiddleware } from "./http/trace.ts";
import { unstorableParameters } from "./http/unstorable-parameters.ts";
import { metricsMiddleware, metricsRoutes, routeTemplates } from "./metrics-http.ts";
import { apiKeyRoutes } from "./routes/api-keys.ts";
import { consoleRoutes } from "./routes/console.ts";
import { docsRoutes } from "./routes/docs.ts";
import { createAsset, sendAsset } from "./routes/docs-assets.ts";
import { eventRoutes } from "./routes/events.ts";
import { healthRoutes } from "./routes/health.ts";
import { ingestRoutes } from "./routes/ingest.ts";
import { inventoryRoutes } from "./routes/inventory.ts";
import { orderRoutes } from "./routes/orders.ts";
import { requestRoutes } from "./routes/requests.ts";
import { returnRoutes } from "./routes/returns.ts";
import { webhookRoutes } from "./routes/webhooks.ts";
import type { Services } from "./services.ts";
import type { OpenApiDocument } from "./spec.ts";
import { createRateLimitCharge } from "./store/rate-limit-charge.ts";
import type { Resolver } from "./webhooks/ssrf-guard.ts";

/** Bodies over this are large: few read at once (largeBodyGate), parsed in steps (largeJsonBody). */
const LARGE_BODY_BYTES = 1 << 20;

type ValidatorOptions = Parameters<typeof OpenApiValidator.middleware>[0];

export type AppDeps = Services & {
  config: Config;
  logger: Logger;
  spec: OpenApiDocument;
  /** DNS for the webhook URL check; the system's unless a test injects one. */
  resolve?: Resolver;
};

export function createApp(deps: AppDeps): Express {
  const { config, logger, spec } = deps;
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  app.use(
    chain(
      traceMiddleware,
      metricsMiddleware(deps.metrics, routeTemplates(spec)),
      // A per-request child logger is costly; skip the middleware when request logs are off anyway.
      // Never logs credentials: see http/request-log.ts.
      ...(logger.isLevelEnabled("info") ? [requestLogger(logger)] : []),
    ),
  );

  app.use("/v2", corsMiddleware);
  // The document (~165 kB) compressed once, on first use (~25 kB brotli), with an ETag: SDK
  // generators and gateways fetch it often.
  const specAsset = createAsset(Buffer.from(JSON.stringify(spec)), "application/json; charset=utf-8");
  app.get("/v2/openapi.json", (req, res, next) => {
    sendAsset(req, res, specAsset, { immutable: false }).catch(next);
  });

  const v2 = Router();
  const access = accessGate(deps.accounts, (scope) => deps.metrics.rateLimited.inc({ scope }));
  const { forParameters, bodySchemas } = splitBodySchemas(spec);
  const openApiValidator = OpenApiValidator.middleware({
    // The document is the spec, checked in CI; its embedded type is looser than the library's.
    apiSpec: forParameters as ValidatorOptions["apiSpec"],
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
  });
  // Every /v2 call's checks, in this order, as one router layer (http/chain.ts).
  v2.use(
    chain(
      access.middleware,
      largeBodyGate({ thresholdBytes: LARGE_BODY_BYTES, concurrent: config.maxLargeBodies }),
      largeJsonBody({ thresholdBytes: LARGE_BODY_BYTES, limit: "5mb" }),
      express.json({
        limit: "5mb",
        strict: false,
        type: ["application/json", "application/*+json"],
        verify: verifyBody,
      }),
      integerQuery(integerQueryParameters(spec)),
      // The usual ingest call is approved without the validator's per-call work (http/openapi-fast-path.ts).
      ...(config.validateResponses ? openApiValidator : [openApiFastPath(spec, openApiValidator)]),
      bodyValidation(spec, bodySchemas),
      unstorableParameters,
    ),
  );
  const { cursors } = deps;
  v2.use(ingestRoutes(deps.requests, deps.resources, access));
  v2.use(
    requestRoutes(
      deps.requests,
      cursors,
      config.requestRetentionDays,
      createRateLimitCharge(deps.database, config.rateLimits),
    ),
  );
  v2.use(orderRoutes(deps.resources, cursors));
  v2.use(returnRoutes(deps.resources, cursors));
  v2.use(inventoryRoutes(deps.resources, cursors));
  v2.use(eventRoutes(deps.events, cursors));
  v2.use(
    webhookRoutes({
      subscriptions: deps.webhookSubscriptions,
      deliveries: deps.webhookDeliveries,
      cursors,
      config,
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
    }),
  );
  v2.use(apiKeyRoutes(deps.apiKeys, cursors));
  v2.use(access.settle);
  app.use("/v2", v2);
  // After /v2: the API's calls, the hot path, then meet no probe or docs routes on their way.
  app.use(healthRoutes(deps.database, deps.reads));
  app.use(docsRoutes());
  app.use(consoleRoutes());
  // With a metrics port, /metrics is served there only (createMetricsApp), off the public API port.
  if (config.metricsPort === undefined) app.use(metricsRoutes(deps.metrics));

  app.use(apiNotFound);
  app.use(errorHandler(logger));
  return app;
}

/**
 * What OISR_METRICS_PORT serves, in any role: /metrics for Prometheus and the probes, so a
 * worker-only process, which has no API port, can be scraped and probed.
 */
export function createMetricsApp(deps: Pick<AppDeps, "database" | "reads" | "metrics" | "logger">): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.use(traceMiddleware);
  app.use(healthRoutes(deps.database, deps.reads));
  app.use(metricsRoutes(deps.metrics));
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
