import type { ApiPromise } from "../internal/api-promise.ts";
import { type Context, init, type RequestOptions, unwrap } from "../internal/context.ts";
import { iterateList } from "../internal/paginate.ts";
import type { ApiKey, ApiKeyPage, ApiKeyWithSecret, ListApiKeysParams, Permission } from "../types.ts";

/** A new key: `keys.create`'s argument. */
export interface ApiKeyCreateParams {
  /** What the key is for (1–100 characters), e.g. the integration that uses it. */
  name: string;
  /** What it may do: at least one, each once, and none the calling key lacks (else `PermissionError`). */
  permissions: readonly Permission[];
  /**
   * When it stops working (RFC 3339, or a `Date`): in the future, at most 366 days ahead, and not
   * after the calling key's own expiry (else `ValidationError` at `/expires_at`). Leave it out for
   * a key that works until revoked.
   */
  expiresAt?: string | Date;
}

/** `keys.rotate`'s options. */
export interface ApiKeyRotateParams {
  /**
   * How long the previous secret keeps working, in seconds: 0 (refused at once, after a leak) to
   * 604 800 (7 days). Left out, the API's default: 86 400 (24 hours).
   */
  overlapSeconds?: number;
}

export interface KeysResource {
  /**
   * Creates an API key. The answer carries its `secret` (`oisr_…`): store it now, it is shown
   * again only by `rotate`. A key never grants more than the key that creates it. Not retried
   * after a network error or a `5xx` other than `503` (a second call could make a second key).
   * @example
   * ```ts
   * const key = await client.keys.create({
   *   name: "WMS poller (Leipzig)",
   *   permissions: ["orders:read", "returns:read"],
   *   expiresAt: new Date(Date.now() + 90 * 86_400_000),
   * });
   * await secrets.put("WMS_OISR_TOKEN", key.secret);
   * ```
   */
  create(key: ApiKeyCreateParams, options?: RequestOptions): ApiPromise<ApiKeyWithSecret>;
  /**
   * One page of the account's keys, newest first, revoked and expired ones included.
   * @example `const { data } = await client.keys.list({ limit: 50 })`
   */
  list(params?: ListApiKeysParams, options?: RequestOptions): ApiPromise<ApiKeyPage>;
  /**
   * Every key of the account, page after page.
   * @example
   * ```ts
   * for await (const key of client.keys.iterate()) console.log(key.id, key.name, key.status, key.last_used_at);
   * ```
   */
  iterate(params?: ListApiKeysParams, options?: RequestOptions): AsyncGenerator<ApiKey, void, undefined>;
  /** One key, without its secret. @example `const key = await client.keys.get("key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD")` */
  get(apiKeyId: string, options?: RequestOptions): ApiPromise<ApiKey>;
  /**
   * Gives the key a new secret, returned once in the answer; id, name, permissions and expiry
   * stay. The previous secret keeps working for `overlapSeconds` (default 24 hours), long enough
   * to deploy the new one; `previous_secret_expires_at` says until when. A revoked or expired key
   * is a `ConflictError` (`api_key_inactive`). Retried like `create`.
   * @example
   * ```ts
   * const { secret } = await client.keys.rotate(keyId, { overlapSeconds: 3600 });
   * await client.keys.rotate(leakedKeyId, { overlapSeconds: 0 }); // the old secret is refused at once
   * ```
   */
  rotate(
    apiKeyId: string,
    params?: ApiKeyRotateParams,
    options?: RequestOptions,
  ): ApiPromise<ApiKeyWithSecret>;
  /**
   * Revokes a key at once and for good; resolves to it, `status` `revoked`. A key already revoked
   * or expired is a `ConflictError` (`api_key_inactive`; after a lost answer, a retried revoke
   * can meet its own success this way), and so is the account's last active key holding
   * `api_keys:write` (`last_admin_key`).
   * @example `await client.keys.revoke("key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD")`
   */
  revoke(apiKeyId: string, options?: RequestOptions): ApiPromise<ApiKey>;
}

export function keysResource(ctx: Context): KeysResource {
  const path = (id: string) => ({ path: { api_key_id: id } });
  const list = (params: ListApiKeysParams = {}, options?: RequestOptions) =>
    unwrap(ctx.raw.GET("/api_keys", { params: { query: params }, ...init(ctx, options) }));
  return {
    create: ({ name, permissions, expiresAt }, options) =>
      unwrap(
        ctx.raw.POST("/api_keys", {
          // The body goes through JSON.stringify, which writes a Date as its toISOString() and
          // leaves an undefined expires_at out.
          body: {
            name,
            permissions: permissions as Permission[],
            expires_at: expiresAt as string | undefined,
          },
          ...init(ctx, options),
        }),
      ),
    list,
    iterate: (params = {}, options) => iterateList(list, params, options),
    get: (id, options) =>
      unwrap(ctx.raw.GET("/api_keys/{api_key_id}", { params: path(id), ...init(ctx, options) })),
    // No overlap named, no body (the spec's body is optional): the API's default applies.
    rotate: (id, { overlapSeconds } = {}, options) =>
      unwrap(
        ctx.raw.POST("/api_keys/{api_key_id}/rotate", {
          params: path(id),
          body: overlapSeconds === undefined ? undefined : { overlap_seconds: overlapSeconds },
          ...init(ctx, options),
        }),
      ),
    revoke: (id, options) =>
      unwrap(ctx.raw.DELETE("/api_keys/{api_key_id}", { params: path(id), ...init(ctx, options) })),
  };
}
