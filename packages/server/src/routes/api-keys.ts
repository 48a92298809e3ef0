// /api_keys*: an account's keys, managed by its own keys (decision 013). accessMiddleware already
// checked the calling key's permission; the rules on what a key may create, and every text, are
// @oisr/contract's. Another account's key is answered as a missing one.
import {
  apiKeyInactive,
  apiKeyLocation,
  apiKeyNotFound,
  lastAdminKey,
  limitOf,
  newKeyProblem,
  pageOf,
  rotateKeyProblem,
  rotationOverlapMs,
  toApiKey,
  toApiKeyWithSecret,
} from "@oisr/contract";
import { Router } from "express";
import type { Cursors } from "../http/cursor.ts";
import { operation } from "../http/typed.ts";
import type { ApiKeyStore } from "../store/api-keys.ts";

const BASE_PATH = "/v2";

export function apiKeyRoutes(keys: ApiKeyStore, codec: Cursors): Router {
  const router = Router();

  router.post(
    "/api_keys",
    operation("createApiKey", async (req, res) => {
      const { account, apiKey: caller } = res.locals;
      const nowMs = Date.now();
      const problem = newKeyProblem(caller, req.body, nowMs);
      if (problem) throw problem;
      const { key, secret } = await keys.insert(
        {
          accountId: account.id,
          name: req.body.name,
          permissions: req.body.permissions,
          expiresAtMs: req.body.expires_at === undefined ? null : Date.parse(req.body.expires_at),
          createdBy: caller.id,
        },
        nowMs,
      );
      res.setHeader("Location", apiKeyLocation(BASE_PATH, key.id));
      res.status(201).json(toApiKeyWithSecret(key, secret, nowMs));
    }),
  );

  router.get(
    "/api_keys",
    operation("listApiKeys", async (req, res) => {
      const { account } = res.locals;
      const cursors = codec.forAccount(account.id);
      const limit = limitOf(req.query);
      // The id the previous page ended at; none for the first page.
      const before = (await cursors.decode<string>(req.query.cursor, {})).position || null;
      const rows = await keys.list(account.id, before, limit + 1);
      const nowMs = Date.now();
      res.json(
        await pageOf(cursors, rows, {
          limit,
          from: before ?? "",
          filters: {},
          positionOf: (key) => key.id,
          map: (key) => toApiKey(key, nowMs),
        }),
      );
    }),
  );

  router.get(
    "/api_keys/:api_key_id",
    operation("getApiKey", async (req, res) => {
      const id = req.params.api_key_id;
      const key = await keys.get(res.locals.account.id, id);
      if (!key) throw apiKeyNotFound(id);
      res.json(toApiKey(key, Date.now()));
    }),
  );

  router.post(
    "/api_keys/:api_key_id/rotate",
    operation("rotateApiKey", async (req, res) => {
      const { account, apiKey: caller } = res.locals;
      const id = req.params.api_key_id;
      const target = await keys.get(account.id, id);
      if (!target) throw apiKeyNotFound(id);
      // Rotation hands the caller a secret of the target: never one that grants more than it holds.
      // A key's permissions never change, so this holds for the rotation below.
      const refused = rotateKeyProblem(caller, target);
      if (refused) throw refused;
      const nowMs = Date.now();
      // The body is optional: a call without one (and without a Content-Type) has none.
      const result = await keys.rotate(account.id, id, rotationOverlapMs(req.body), nowMs);
      if (result.outcome === "not_found") throw apiKeyNotFound(id);
      if (result.outcome === "inactive") throw apiKeyInactive(result.key);
      res.json(toApiKeyWithSecret(result.key, result.secret, nowMs));
    }),
  );

  router.delete(
    "/api_keys/:api_key_id",
    operation("revokeApiKey", async (req, res) => {
      const id = req.params.api_key_id;
      const nowMs = Date.now();
      const result = await keys.revoke(res.locals.account.id, id, { keepLastAdmin: true }, nowMs);
      switch (result.outcome) {
        case "not_found":
          throw apiKeyNotFound(id);
        case "inactive":
          throw apiKeyInactive(result.key);
        case "last_admin":
          throw lastAdminKey(result.key.id);
        case "revoked":
          res.json(toApiKey(result.key, nowMs));
      }
    }),
  );

  return router;
}
