-- Rolling 60-second rate limit, atomic across every process on this database.
-- Takes one call for all the given scopes at once, or for none: a call refused by any scope
-- counts toward no scope. Buckets are per second; the window is the last 60 of them.
-- Returns, for the scope with the fewest calls remaining: allowed, limit, remaining, reset (unix s).
CREATE OR REPLACE FUNCTION oisr_rate_limit_take(p_account text, p_scopes text[], p_limits int[], p_now_ms bigint)
RETURNS TABLE(allowed boolean, lim int, remaining int, reset bigint)
LANGUAGE plpgsql AS $$
DECLARE
  v_sec bigint := p_now_ms / 1000;
  v_i int;
  v_used int[] := '{}';
  v_oldest bigint[] := '{}';
  v_u int;
  v_o bigint;
  v_ok boolean := true;
  v_best int := 1;
  v_best_rem int;
  v_rem int;
BEGIN
  FOR v_i IN 1 .. array_length(p_scopes, 1) LOOP
    -- Serialise callers per (account, scope); released at the end of the statement's transaction.
    PERFORM pg_advisory_xact_lock(hashtext(p_account), hashtext(p_scopes[v_i]));
    DELETE FROM rate_limit_buckets
      WHERE account_id = p_account AND scope = p_scopes[v_i] AND second <= v_sec - 60;
    SELECT coalesce(sum(count), 0)::int, min(second) INTO v_u, v_o
      FROM rate_limit_buckets WHERE account_id = p_account AND scope = p_scopes[v_i];
    v_used := v_used || v_u;
    v_oldest := v_oldest || coalesce(v_o, v_sec);
    IF v_u >= p_limits[v_i] THEN v_ok := false; END IF;
  END LOOP;

  IF v_ok THEN
    FOR v_i IN 1 .. array_length(p_scopes, 1) LOOP
      INSERT INTO rate_limit_buckets (account_id, scope, second, count)
        VALUES (p_account, p_scopes[v_i], v_sec, 1)
        ON CONFLICT (account_id, scope, second) DO UPDATE SET count = rate_limit_buckets.count + 1;
      v_used[v_i] := v_used[v_i] + 1;
    END LOOP;
  END IF;

  v_best_rem := p_limits[1] - v_used[1];
  FOR v_i IN 2 .. coalesce(array_length(p_scopes, 1), 1) LOOP
    v_rem := p_limits[v_i] - v_used[v_i];
    IF v_rem < v_best_rem THEN v_best := v_i; v_best_rem := v_rem; END IF;
  END LOOP;
  -- A refused call reports the scope that refused it.
  IF NOT v_ok THEN
    FOR v_i IN 1 .. array_length(p_scopes, 1) LOOP
      IF v_used[v_i] >= p_limits[v_i] THEN v_best := v_i; EXIT; END IF;
    END LOOP;
  END IF;

  RETURN QUERY SELECT v_ok, p_limits[v_best], greatest(p_limits[v_best] - v_used[v_best], 0), v_oldest[v_best] + 60;
END $$;
