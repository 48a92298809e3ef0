-- Authenticates a batch of calls and takes their rate limits in one statement, so an authenticated
-- call costs one round trip before its handler instead of two (token look-up, then
-- oisr_rate_limit_take_many).
-- Call k (1-based) is p_hashes[k], the SHA-256 hex of its token, and p_scope_sets[k], the scopes it
-- counts toward, comma-joined in the order the server breaks ties in ('' for an unlimited call).
-- A scope's limit is the account's override (accounts.rate_limits) or else p_defaults'.
-- Two kinds of rows come back:
--   one per authenticated call (i set): the stored token hash, the account, the group (account and
--   scope set) it was counted in and its 0-based position there; unknown and revoked tokens have none;
--   take_many's rows of each limited group (i null), in scope order: the first `allowed` calls of
--   the group are let through.
CREATE OR REPLACE FUNCTION oisr_authorize(p_hashes text[], p_scope_sets text[], p_defaults jsonb, p_now_ms bigint)
RETURNS TABLE(i int, hash text, account_id text, name text, rate_limits jsonb, grp int, pos int,
              allowed int, scope text, lim int, used int, oldest bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  -- Read once, so every step below sees the same tokens and accounts.
  c_i int[];
  c_hash text[];
  c_account text[];
  c_name text[];
  c_limits jsonb[];
  c_set text[];
  c_grp int[];
  c_pos int[];
  v record;
  v_scopes text[];
BEGIN
  SELECT array_agg(x.i), array_agg(x.token_hash), array_agg(x.id), array_agg(x.name),
         array_agg(x.rate_limits), array_agg(x.scope_set), array_agg(x.grp), array_agg(x.pos)
    INTO c_i, c_hash, c_account, c_name, c_limits, c_set, c_grp, c_pos
    FROM (SELECT q.i::int AS i, t.token_hash, a.id, a.name, a.rate_limits, q.scope_set,
                 dense_rank() OVER (ORDER BY a.id, q.scope_set)::int AS grp,
                 (row_number() OVER (PARTITION BY a.id, q.scope_set ORDER BY q.i) - 1)::int AS pos
            FROM unnest(p_hashes, p_scope_sets) WITH ORDINALITY AS q(token_hash, scope_set, i)
            JOIN api_tokens t ON t.token_hash = q.token_hash AND t.revoked_at IS NULL
            JOIN accounts a ON a.id = t.account_id) x;

  RETURN QUERY
    SELECT c.i, c.hash, c.account, c.name, c.limits, c.grp, c.pos,
           NULL::int, NULL::text, NULL::int, NULL::int, NULL::bigint
      FROM unnest(c_i, c_hash, c_account, c_name, c_limits, c_grp, c_pos)
        AS c(i, hash, account, name, limits, grp, pos);

  -- One statement may now hold the locks of several accounts, so every statement takes all of its
  -- locks up front in one global order (account, then scope name): two of them can never each hold
  -- a lock the other waits for. take_many takes them again, which is free (they are re-entrant).
  -- Scope names rather than their hashes order the scopes of an account because take_many, as
  -- servers before this function call it, locks ingest before ingest_inventory: mixed versions
  -- during a rolling deploy keep to the same order.
  FOR v IN
    SELECT DISTINCT hashtext(c.account) AS account_key, s.scope COLLATE "C" AS scope
      FROM unnest(c_account, c_set) AS c(account, scope_set)
      CROSS JOIN LATERAL unnest(string_to_array(c.scope_set, ',')) AS s(scope)
     ORDER BY 1, 2
  LOOP
    PERFORM pg_advisory_xact_lock(v.account_key, hashtext(v.scope));
  END LOOP;

  FOR v IN
    SELECT c.grp, c.account, c.scope_set, c.limits, count(*)::int AS n
      FROM unnest(c_grp, c_account, c_set, c_limits) AS c(grp, account, scope_set, limits)
     WHERE c.scope_set <> ''
     GROUP BY c.grp, c.account, c.scope_set, c.limits
     ORDER BY c.grp
  LOOP
    v_scopes := string_to_array(v.scope_set, ',');
    RETURN QUERY
      SELECT NULL::int, NULL::text, NULL::text, NULL::text, NULL::jsonb, v.grp, NULL::int,
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
