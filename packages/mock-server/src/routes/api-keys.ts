// /api_keys*: create (never more than the calling key), list newest first, get, rotate (the
// replaced secret keeps working for the overlap asked), revoke (never the account's last admin
// key). The rules and their problems are @oisr/contract's; the keys are the store's (store/api-keys.ts).
import {
  apiKeyInactive,
  apiKeyLocation,
  apiKeyNotFound,
  apiKeyStatus,
  isActiveAdmin,
  lastAdminKey,
  newKeyProblem,
  rotateKeyProblem,
  rotationOverlapMs,
  toApiKey,
  toApiKeyWithSecret,
} from "@oisr/contract";
import type { MockApiKey } from "../store/api-keys.ts";
import { basePath, idPage, ok, type RouteContext, type RouteHandler, type RouteTable } from "./context.ts";

/** The account's key named by the path; another account's is not found, as one that does not exist. */
function found(ctx: RouteContext<"getApiKey" | "rotateApiKey" | "revokeApiKey">): MockApiKey {
  const id = ctx.params.api_key_id;
  const key = ctx.runtime.store.keys.get(id);
  if (!key || key.accountId !== ctx.account.id) throw apiKeyNotFound(id);
  return key;
}

const createApiKey: RouteHandler<"createApiKey"> = (ctx) => {
  const { body } = ctx;
  const now = ctx.runtime.clock.now();
  const caller = ctx.apiKey;
  const problem = newKeyProblem(
    { id: caller.id, permissions: caller.permissions, expiresAtMs: caller.expiresAt },
    body,
    now,
  );
  if (problem) throw problem;
  const key = ctx.runtime.store.keys.add(
    {
      accountId: ctx.account.id,
      name: body.name,
      permissions: body.permissions,
      expiresAt: body.expires_at === undefined ? null : Date.parse(body.expires_at),
      createdBy: caller.id,
    },
    now,
  );
  return {
    status: 201,
    body: toApiKeyWithSecret(key, key.secret, now),
    headers: { Location: apiKeyLocation(basePath(ctx.runtime), key.id) },
  };
};

const listApiKeys: RouteHandler<"listApiKeys"> = async (ctx) => {
  const now = ctx.runtime.clock.now();
  return ok(await idPage(ctx, ctx.runtime.store.keys.ofAccount(ctx.account.id), (k) => toApiKey(k, now)));
};

const getApiKey: RouteHandler<"getApiKey"> = (ctx) => ok(toApiKey(found(ctx), ctx.runtime.clock.now()));

const rotateApiKey: RouteHandler<"rotateApiKey"> = (ctx) => {
  const key = found(ctx);
  const now = ctx.runtime.clock.now();
  const refused = rotateKeyProblem(ctx.apiKey, key);
  if (refused) throw refused;
  if (apiKeyStatus(key, now) !== "active") throw apiKeyInactive(key);
  const secret = ctx.runtime.store.keys.rotate(key, rotationOverlapMs(ctx.body), now);
  return ok(toApiKeyWithSecret(key, secret, now));
};

const revokeApiKey: RouteHandler<"revokeApiKey"> = (ctx) => {
  const key = found(ctx);
  const now = ctx.runtime.clock.now();
  if (key.revokedAt !== null) throw apiKeyInactive(key);
  const others = ctx.runtime.store.keys.ofAccount(ctx.account.id).filter((k) => k !== key);
  if (isActiveAdmin(key, now) && !others.some((k) => isActiveAdmin(k, now))) throw lastAdminKey(key.id);
  ctx.runtime.store.keys.revoke(key, now);
  return ok(toApiKey(key, now));
};

export const apiKeyRoutes = {
  createApiKey,
  listApiKeys,
  getApiKey,
  rotateApiKey,
  revokeApiKey,
} satisfies Partial<RouteTable>;
