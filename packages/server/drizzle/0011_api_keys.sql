CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"name" text NOT NULL,
	"permissions" text[] NOT NULL,
	"prefix" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "requests" ADD COLUMN "api_key_id" text;--> statement-breakpoint
CREATE INDEX "api_keys_account_idx" ON "api_keys" USING btree ("account_id","id");--> statement-breakpoint
-- A ULID (26 Crockford base32 characters: 48 bits of milliseconds, then 80 random bits) made in
-- SQL, for the ids of the keys the tokens below become: the server makes every other id
-- (store/ids.ts), but a migration has no server. The random bits are an md5 of random() and the
-- clock, plenty for ids that need only be unique, not secret.
CREATE OR REPLACE FUNCTION oisr_ulid(p_at timestamptz) RETURNS text
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  c_alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  v_ms bigint := floor(extract(epoch FROM p_at) * 1000)::bigint;
  v_random bit(80) := ('x' || substr(md5(random()::text || clock_timestamp()::text), 1, 20))::bit(80);
  v_out text := '';
  v_k int;
BEGIN
  FOR v_k IN REVERSE 9 .. 0 LOOP
    v_out := v_out || substr(c_alphabet, ((v_ms >> (5 * v_k)) & 31)::int + 1, 1);
  END LOOP;
  FOR v_k IN 0 .. 15 LOOP
    v_out := v_out || substr(c_alphabet, substring(v_random FROM 5 * v_k + 1 FOR 5)::int + 1, 1);
  END LOOP;
  RETURN v_out;
END $$;--> statement-breakpoint
-- Every token made before API keys becomes a key of its own holding every permission (in the
-- spec's order, @oisr/contract's PERMISSIONS), revoked if the token was. Its prefix stays null:
-- only the token's hash was ever stored.
UPDATE "api_tokens" SET "key_id" = 'key_' || oisr_ulid("created_at") WHERE "key_id" IS NULL;--> statement-breakpoint
INSERT INTO "api_keys" ("id", "account_id", "name", "permissions", "prefix", "created_at", "created_by", "revoked_at")
SELECT "key_id", "account_id", 'Token made before API keys',
       ARRAY['ingest:write', 'orders:read', 'returns:read', 'inventory:read', 'requests:read', 'events:read',
             'webhooks:read', 'webhooks:write', 'api_keys:read', 'api_keys:write'],
       NULL, "created_at", NULL, "revoked_at"
  FROM "api_tokens";--> statement-breakpoint
ALTER TABLE "api_tokens" ALTER COLUMN "key_id" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "api_tokens_key_idx" ON "api_tokens" USING btree ("key_id");--> statement-breakpoint
-- oisr_authorize (0006) with API keys: authenticates a batch of calls, checks each one's key
-- (revoked, expired, the secret's own end after a rotation, the permission the call needs) and
-- takes the rate limits of the calls let through, in one statement (decision 013). oisr_authorize
-- stays for servers of the previous version during a rolling deploy (revoking a key revokes its
-- tokens too, so they refuse it as well).
-- Call k (1-based) is p_hashes[k], the SHA-256 hex of its secret; p_scope_sets[k], the scopes it
-- counts toward, comma-joined in the order the server breaks ties in ('' for an unlimited call);
-- and p_permission_sets[k], the permissions any one of which grants it, comma-joined ('' when the
-- call needs none). The implication rule (a :write includes its :read) is the server's
-- (@oisr/contract's grantingPermissions), not this function's.
-- Two kinds of rows come back:
--   one per call with a live secret of a live key (i set): the stored hash, the account, the key
--   (id, permissions comma-joined, its expiry, the secret's end and last_used_at, instants as epoch
--   ms) and the verdict: 'expired' (the key's expires_at has passed), 'secret_expired' (a secret
--   replaced by rotation whose overlap ended), 'forbidden' (no permission grants the call) or 'ok'.
--   Only 'ok' calls have a group (account and scope set) and a 0-based position there: the others
--   count toward nothing. Unknown secrets, revoked secrets and revoked keys have no row;
--   take_many's rows of each limited group (i null), in scope order: the first `allowed` calls of
--   the group are let through.
CREATE OR REPLACE FUNCTION oisr_authorize_keys(p_hashes text[], p_scope_sets text[], p_permission_sets text[],
                                               p_defaults jsonb, p_now_ms bigint)
RETURNS TABLE(i int, hash text, account_id text, name text, rate_limits jsonb, key_id text, permissions text,
              key_expires_at double precision, secret_expires_at double precision, last_used_at double precision,
              verdict text, grp int, pos int, allowed int, scope text, lim int, used int, oldest bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_now timestamptz := to_timestamp(p_now_ms / 1000.0);
  -- Read once, so every step below sees the same secrets, keys and accounts.
  c_i int[];
  c_hash text[];
  c_account text[];
  c_name text[];
  c_limits jsonb[];
  c_key text[];
  c_permissions text[];
  c_key_expires double precision[];
  c_secret_expires double precision[];
  c_last_used double precision[];
  c_verdict text[];
  c_set text[];
  c_grp int[];
  c_pos int[];
  v record;
  v_scopes text[];
BEGIN
  SELECT array_agg(x.i), array_agg(x.token_hash), array_agg(x.id), array_agg(x.name), array_agg(x.rate_limits),
         array_agg(x.key_id), array_agg(x.permissions), array_agg(x.key_expires), array_agg(x.secret_expires),
         array_agg(x.last_used), array_agg(x.verdict), array_agg(x.scope_set),
         array_agg(CASE WHEN x.verdict = 'ok' THEN x.grp END), array_agg(CASE WHEN x.verdict = 'ok' THEN x.pos END)
    INTO c_i, c_hash, c_account, c_name, c_limits, c_key, c_permissions, c_key_expires, c_secret_expires,
         c_last_used, c_verdict, c_set, c_grp, c_pos
    FROM (SELECT y.*,
                 -- Ranked among the calls let through only (the partition on the verdict).
                 dense_rank() OVER (PARTITION BY y.verdict = 'ok' ORDER BY y.id, y.scope_set)::int AS grp,
                 (row_number() OVER (PARTITION BY y.verdict = 'ok', y.id, y.scope_set ORDER BY y.i) - 1)::int AS pos
            FROM (SELECT q.i::int AS i, t.token_hash, a.id, a.name, a.rate_limits, q.scope_set, k.id AS key_id,
                         array_to_string(k.permissions, ',') AS permissions,
                         extract(epoch FROM k.expires_at)::double precision * 1000 AS key_expires,
                         extract(epoch FROM t.expires_at)::double precision * 1000 AS secret_expires,
                         extract(epoch FROM k.last_used_at)::double precision * 1000 AS last_used,
                         CASE
                           WHEN k.expires_at IS NOT NULL AND k.expires_at <= v_now THEN 'expired'
                           WHEN t.expires_at IS NOT NULL AND t.expires_at <= v_now THEN 'secret_expired'
                           WHEN q.permission_set <> ''
                                AND NOT (k.permissions && string_to_array(q.permission_set, ',')) THEN 'forbidden'
                           ELSE 'ok'
                         END AS verdict
                    FROM unnest(p_hashes, p_scope_sets, p_permission_sets) WITH ORDINALITY
                           AS q(token_hash, scope_set, permission_set, i)
                    JOIN api_tokens t ON t.token_hash = q.token_hash AND t.revoked_at IS NULL
                    JOIN api_keys k ON k.id = t.key_id AND k.revoked_at IS NULL
                    JOIN accounts a ON a.id = t.account_id) y) x;

  RETURN QUERY
    SELECT c.i, c.hash, c.account, c.name, c.limits, c.kid, c.permissions, c.key_expires, c.secret_expires,
           c.last_used, c.verdict, c.grp, c.pos,
           NULL::int, NULL::text, NULL::int, NULL::int, NULL::bigint
      FROM unnest(c_i, c_hash, c_account, c_name, c_limits, c_key, c_permissions, c_key_expires,
                  c_secret_expires, c_last_used, c_verdict, c_grp, c_pos)
        AS c(i, hash, account, name, limits, kid, permissions, key_expires, secret_expires, last_used,
             verdict, grp, pos);

  -- Locks up front in one global order (account, then scope name), as oisr_authorize takes them:
  -- see there why, and why scope names order them.
  FOR v IN
    SELECT DISTINCT hashtext(c.account) AS account_key, s.scope COLLATE "C" AS scope
      FROM unnest(c_account, c_set, c_verdict) AS c(account, scope_set, verdict)
      CROSS JOIN LATERAL unnest(string_to_array(c.scope_set, ',')) AS s(scope)
     WHERE c.verdict = 'ok'
     ORDER BY 1, 2
  LOOP
    PERFORM pg_advisory_xact_lock(v.account_key, hashtext(v.scope));
  END LOOP;

  FOR v IN
    SELECT c.grp, c.account, c.scope_set, c.limits, count(*)::int AS n
      FROM unnest(c_grp, c_account, c_set, c_limits, c_verdict) AS c(grp, account, scope_set, limits, verdict)
     WHERE c.verdict = 'ok' AND c.scope_set <> ''
     GROUP BY c.grp, c.account, c.scope_set, c.limits
     ORDER BY c.grp
  LOOP
    v_scopes := string_to_array(v.scope_set, ',');
    RETURN QUERY
      SELECT NULL::int, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::text, NULL::text,
             NULL::double precision, NULL::double precision, NULL::double precision, NULL::text, v.grp, NULL::int,
             t.allowed, t.scope, t.lim, t.used, t.oldest
        FROM oisr_rate_limit_take_many(
               v.account,
               v_scopes,
               ARRAY(SELECT coalesce((v.limits ->> u.scope)::int, (p_defaults ->> u.scope)::int)
                       FROM unnest(v_scopes) WITH ORDINALITY AS u(scope, k)
                      ORDER BY u.k),
               v.n,
               p_now_ms) AS t;
  END LOOP;
END $$;
