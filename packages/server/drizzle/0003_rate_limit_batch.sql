-- Batched form of the rolling 60-second rate limit: takes up to p_count calls for all given scopes
-- at once (group commit of concurrent calls). The first k calls are allowed, where k is what
-- every scope still has room for; refused calls count toward no scope.
-- Returns k, and per scope its limit, the calls counted before this batch, and its oldest
-- counted second, so each caller's headers can be computed.
DROP FUNCTION IF EXISTS oisr_rate_limit_take(text, text[], int[], bigint);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION oisr_rate_limit_take_many(p_account text, p_scopes text[], p_limits int[], p_count int, p_now_ms bigint)
RETURNS TABLE(allowed int, scope text, lim int, used int, oldest bigint)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  v_sec bigint := p_now_ms / 1000;
  v_i int;
  v_n int := array_length(p_scopes, 1);
  v_used int[] := '{}';
  v_oldest bigint[] := '{}';
  v_u int;
  v_o bigint;
  v_k int := p_count;
BEGIN
  FOR v_i IN 1 .. v_n LOOP
    -- Serialise callers per (account, scope) across every process; released at transaction end.
    PERFORM pg_advisory_xact_lock(hashtext(p_account), hashtext(p_scopes[v_i]));
    DELETE FROM rate_limit_buckets b
      WHERE b.account_id = p_account AND b.scope = p_scopes[v_i] AND b.second <= v_sec - 60;
    SELECT coalesce(sum(b.count), 0)::int, min(b.second) INTO v_u, v_o
      FROM rate_limit_buckets b WHERE b.account_id = p_account AND b.scope = p_scopes[v_i];
    v_used := v_used || v_u;
    v_oldest := v_oldest || coalesce(v_o, v_sec);
    v_k := least(v_k, greatest(p_limits[v_i] - v_u, 0));
  END LOOP;

  IF v_k > 0 THEN
    FOR v_i IN 1 .. v_n LOOP
      INSERT INTO rate_limit_buckets AS b (account_id, scope, second, count)
        VALUES (p_account, p_scopes[v_i], v_sec, v_k)
        ON CONFLICT (account_id, scope, second) DO UPDATE SET count = b.count + v_k;
    END LOOP;
  END IF;

  FOR v_i IN 1 .. v_n LOOP
    allowed := v_k; scope := p_scopes[v_i]; lim := p_limits[v_i]; used := v_used[v_i]; oldest := v_oldest[v_i];
    RETURN NEXT;
  END LOOP;
END $$;
