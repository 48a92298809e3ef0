// `oisr keys …`: the command lines and what they print against a scripted API (no server), then
// the whole life of a key against the real server.
import { createClient } from "@oisr/sdk";
import { describe, expect, it } from "vitest";
import { parseDuration } from "../src/commands/keys.ts";
import { runCli, useSystem } from "./harness.ts";

const URL_ = "https://api.test/v2";
const TOKEN = "oisr_test";
const KEY = "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD";
const ADMIN = "key_01JKQ9ZT1E4N7C2H8V5B3M6X0P";
const TRACE = "92e22e5cfe71ee645b71b2a1339fc915";
const key = {
  id: KEY,
  name: "WMS poller",
  permissions: ["orders:read", "ingest:write"],
  prefix: "oisr_Q2xvdWR",
  status: "active",
  created_at: "2025-03-20T08:00:00.000Z",
  created_by: ADMIN,
  expires_at: null,
  last_used_at: null,
  rotated_at: null,
  previous_secret_expires_at: null,
  revoked_at: null,
};
const secret = "oisr_Q2xvdWR8DevTM6O55Gs0Yrr5j7MTBM8Rq-vA_zLaKcc";

interface Call {
  method: string;
  path: string;
  search: string;
  body: string;
}

/** A fetch answering `"METHOD /path"` (relative to /v2) with the handler's response, recording each call. */
function scripted(routes: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    const call = {
      method: request.method,
      path: url.pathname.replace(/^\/v2/, ""),
      search: url.search,
      body: await request.text(),
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    return route ? route(call) : problem(404, "not_found", "No such route.");
  };
  return { calls, fetch };
}

function problem(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
): Response {
  return Response.json(
    {
      type: `https://oisr.dev/problems/${code}`,
      title: code,
      status,
      detail,
      trace_id: TRACE,
      code,
      ...extra,
    },
    { status, headers: { "content-type": "application/problem+json" } },
  );
}

const run = (args: string[], api: ReturnType<typeof scripted>) =>
  runCli(["keys", ...args], { url: URL_, token: TOKEN, fetch: api.fetch });

describe("oisr keys (scripted API)", () => {
  it("create sends the name, the permissions and the expiry, prints the key with its secret and warns on stderr", async () => {
    const api = scripted({ "POST /api_keys": () => Response.json({ ...key, secret }, { status: 201 }) });
    const created = await run(
      [
        "create",
        "--name",
        "WMS poller",
        "--permission",
        "orders:read",
        "--permission",
        "ingest:write",
        "--expires-at",
        "2026-03-20T08:00:00Z",
      ],
      api,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ ...key, secret });
    expect(created.stderr.trim().split("\n")).toEqual([
      `oisr keys: created ${KEY}; the secret is shown only now: store it (OISR keeps only its hash).`,
    ]);
    expect(api.calls).toHaveLength(1);
    expect(JSON.parse(api.calls[0]?.body ?? "")).toEqual({
      name: "WMS poller",
      permissions: ["orders:read", "ingest:write"],
      expires_at: "2026-03-20T08:00:00Z",
    });

    const forever = await run(
      ["create", "--name", "ERP", "--permission", "orders:read", "--permission", "orders:read"],
      api,
    );
    expect(forever.code, forever.stderr).toBe(0);
    // Without --expires-at the key lasts until revoked; a permission given twice is sent once.
    expect(JSON.parse(api.calls[1]?.body ?? "")).toEqual({ name: "ERP", permissions: ["orders:read"] });
  });

  it("list prints every key, page after page, one JSON object per line", async () => {
    const second = { ...key, id: ADMIN, name: "Admin" };
    const api = scripted({
      "GET /api_keys": (call) =>
        Response.json(
          call.search.includes("cursor=c1")
            ? { data: [second], next_cursor: "c2", has_more: false }
            : { data: [key], next_cursor: "c1", has_more: true },
        ),
    });
    const listed = await run(["list"], api);
    expect(listed.code, listed.stderr).toBe(0);
    expect(
      listed.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).id),
    ).toEqual([KEY, ADMIN]);
    expect(api.calls.map((c) => c.search)).toEqual(["", "?cursor=c1"]);
  });

  it("get and revoke print the key", async () => {
    const revoked = { ...key, status: "revoked", revoked_at: "2025-03-25T08:10:44.120Z" };
    const api = scripted({
      [`GET /api_keys/${KEY}`]: () => Response.json(key),
      [`DELETE /api_keys/${KEY}`]: () => Response.json(revoked),
    });
    const got = await run(["get", KEY], api);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toEqual(key);
    const gone = await run(["revoke", KEY], api);
    expect(gone.code, gone.stderr).toBe(0);
    expect(JSON.parse(gone.stdout)).toEqual(revoked);
    expect(gone.stderr).toBe("");
    expect(api.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /api_keys/${KEY}`,
      `DELETE /api_keys/${KEY}`,
    ]);
  });

  it("rotate sends no body without --overlap, the overlap in seconds with it, and warns on stderr", async () => {
    const rotated = {
      ...key,
      secret,
      rotated_at: "2025-03-25T08:00:00.000Z",
      previous_secret_expires_at: "2025-03-25T09:00:00.000Z",
    };
    const api = scripted({
      [`POST /api_keys/${KEY}/rotate`]: (call) =>
        Response.json(
          call.body && JSON.parse(call.body).overlap_seconds === 0
            ? { ...rotated, previous_secret_expires_at: null }
            : rotated,
        ),
    });
    const plain = await run(["rotate", KEY], api);
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual(rotated);
    expect(plain.stderr).toBe(
      `oisr keys: rotated ${KEY}, the previous secret works until 2025-03-25T09:00:00.000Z; the secret is shown only now: store it (OISR keeps only its hash).\n`,
    );
    for (const overlap of ["1h", "30m", "1h30m", "90s", "3600", "7d"]) {
      const r = await run(["rotate", KEY, "--overlap", overlap], api);
      expect(r.code, r.stderr).toBe(0);
    }
    const leaked = await run(["rotate", KEY, "--overlap", "0"], api);
    expect(leaked.stderr).toContain("the previous secret no longer works");
    expect(api.calls.map((c) => (c.body ? JSON.parse(c.body) : null))).toEqual([
      null,
      { overlap_seconds: 3600 },
      { overlap_seconds: 1800 },
      { overlap_seconds: 5400 },
      { overlap_seconds: 90 },
      { overlap_seconds: 3600 },
      { overlap_seconds: 604800 },
      { overlap_seconds: 0 },
    ]);
  });

  it.each([
    [["create", "--permission", "orders:read"], "create needs --name"],
    [["create", "--name", "x"], "create needs at least one --permission"],
    [["create", "--name", "x", "--permission", "orders:write"], 'unknown permission "orders:write"'],
    [
      ["create", "--name", "x", "--permission", "orders:read", "--expires-at", "tomorrow"],
      "--expires-at takes an RFC 3339",
    ],
    [
      ["create", "--name", "x", "--permission", "orders:read", "--overlap", "1h"],
      "create takes no --overlap",
    ],
    [["create", KEY, "--name", "x", "--permission", "orders:read"], "expected: oisr keys create"],
    [
      ["rotate", KEY, "--overlap", "1 hour"],
      '--overlap takes a duration such as 0, 90s, 30m, 1h or 7d, not "1 hour"',
    ],
    [["rotate", KEY, "--overlap", "8d"], "--overlap is at most 7d (604800 s)"],
    [["rotate", KEY, "--overlap=-1"], "--overlap takes a duration"],
    [["rotate", KEY, "--name", "x"], "rotate takes no --name"],
    [["rotate"], "expected: oisr keys"],
    [["get"], "expected: oisr keys"],
    [["revoke", KEY, "key_other"], "expected: oisr keys"],
    [["list", "--permission", "orders:read"], "list takes no --permission"],
    [["delete", KEY], "expected: oisr keys"],
    [["list", "--color"], "Unknown option '--color'"],
  ])("%j is a usage error (exit 2, nothing sent)", async (args, message) => {
    const api = scripted({});
    const r = await run(args, api);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("oisr keys: ");
    expect(r.stderr).toContain(message);
    expect(api.calls).toEqual([]);
  });

  it.each([
    [
      ["create", "--name", "hooks", "--permission", "webhooks:write"],
      "POST /api_keys",
      problem(
        403,
        "insufficient_permission",
        `API key ${ADMIN} lacks the permission webhooks:write, which POST /v2/api_keys needs.`,
        {
          permission: "webhooks:write",
          api_key_id: ADMIN,
        },
      ),
      `403 insufficient_permission: API key ${ADMIN} lacks the permission webhooks:write, which POST /v2/api_keys needs. (trace ${TRACE})`,
    ],
    [
      ["revoke", ADMIN],
      `DELETE /api_keys/${ADMIN}`,
      problem(
        409,
        "last_admin_key",
        `API key ${ADMIN} is the account's last active key with api_keys:write; create another admin key before revoking it.`,
        {
          api_key_id: ADMIN,
        },
      ),
      `409 last_admin_key: API key ${ADMIN} is the account's last active key with api_keys:write`,
    ],
    [
      ["rotate", KEY],
      `POST /api_keys/${KEY}/rotate`,
      problem(409, "api_key_inactive", `API key ${KEY} was revoked at 2025-03-25T08:10:44.120Z.`, {
        api_key_id: KEY,
      }),
      `409 api_key_inactive: API key ${KEY} was revoked at 2025-03-25T08:10:44.120Z.`,
    ],
    [
      ["list"],
      "GET /api_keys",
      problem(401, "api_key_expired", `API key ${ADMIN} expired at 2026-03-20T08:00:00.000Z.`, {
        api_key_id: ADMIN,
        expired_at: "2026-03-20T08:00:00.000Z",
      }),
      `(401 api_key_expired: API key ${ADMIN} expired at 2026-03-20T08:00:00.000Z.)`,
    ],
    [
      ["get", "key_missing"],
      "GET /api_keys/key_missing",
      problem(404, "not_found", "No API key key_missing."),
      "404 not_found: No API key key_missing.",
    ],
  ])("%j answered with an error exits 1 with the API's message", async (args, route, response, message) => {
    const api = scripted({ [route]: () => response.clone() });
    const r = await run(args, api);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`oisr keys: `);
    expect(r.stderr).toContain(message);
  });

  it("--help lists the permissions and shows examples", async () => {
    const r = await run(["--help"], scripted({}));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("ingest:write, orders:read, returns:read");
    expect(r.stdout).toContain("  oisr keys rotate key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD --overlap 1h");
  });
});

describe("parseDuration", () => {
  it.each([
    ["0", 0],
    ["45", 45],
    ["90s", 90],
    ["30m", 1800],
    ["1h", 3600],
    ["1h30m", 5400],
    ["7d", 604_800],
    ["1d2h3m4s", 93_784],
  ])("%s is %i s", (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(["", "h", "1x", "1.5h", "-1", "1h 30m", "30m1h1"])("%j is refused", (text) => {
    expect(() => parseDuration(text)).toThrow(/--overlap takes a duration/);
  });
});

// Needs the server's /api_keys (decision 013).
describe("oisr keys (real server)", () => {
  const system = useSystem();

  it("creates a restricted key, which can do its job and nothing else, then rotates and revokes it", async () => {
    const token = await system.token();
    const as = { url: system.url, token };
    const created = await runCli(
      [
        "keys",
        "create",
        "--name",
        "WMS poller",
        "--permission",
        "orders:read",
        "--permission",
        "requests:read",
      ],
      as,
    );
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: "WMS poller",
      permissions: ["orders:read", "requests:read"],
      status: "active",
      expires_at: null,
      secret: expect.stringMatching(/^oisr_/),
    });
    expect(created.stderr).toContain("the secret is shown only now");

    // The new key reads orders, and is refused what it was not given, naming the permission.
    const restricted = createClient({ baseUrl: system.url, token: key.secret });
    await restricted.orders.list();
    const refused = await runCli(["keys", "list"], { url: system.url, token: key.secret });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("403 insufficient_permission");
    expect(refused.stderr).toContain("api_keys:read");
    expect(refused.stderr).toContain(key.id);

    const listed = await runCli(["keys", "list"], as);
    expect(listed.code, listed.stderr).toBe(0);
    const keys = listed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(keys.map((k) => k.id)).toContain(key.id);
    expect(keys.every((k) => !("secret" in k))).toBe(true);

    const got = await runCli(["keys", "get", key.id], as);
    expect(got.code, got.stderr).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ id: key.id, prefix: key.secret.slice(0, 12) });

    // Rotated with no overlap: the old secret is refused at once, the new one works.
    const rotated = await runCli(["keys", "rotate", key.id, "--overlap", "0"], as);
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = JSON.parse(rotated.stdout);
    expect(fresh.secret).not.toBe(key.secret);
    expect(fresh.rotated_at).not.toBeNull();
    await expect(restricted.orders.list()).rejects.toMatchObject({ status: 401 });
    await createClient({ baseUrl: system.url, token: fresh.secret }).orders.list();

    // With the default overlap, the previous secret keeps working for 24 h.
    const overlapping = await runCli(["keys", "rotate", key.id], as);
    expect(overlapping.code, overlapping.stderr).toBe(0);
    expect(overlapping.stderr).toContain("the previous secret works until");
    await createClient({ baseUrl: system.url, token: fresh.secret }).orders.list();

    const revoked = await runCli(["keys", "revoke", key.id], as);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id: key.id, status: "revoked" });
    const again = await runCli(["keys", "revoke", key.id], as);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("409 api_key_inactive");
  });

  it("refuses to revoke the account's last admin key", async () => {
    const token = await system.token();
    const as = { url: system.url, token };
    const listed = await runCli(["keys", "list"], as);
    expect(listed.code, listed.stderr).toBe(0);
    const [admin] = listed.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const refused = await runCli(["keys", "revoke", admin.id], as);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("409 last_admin_key");
  });
});
