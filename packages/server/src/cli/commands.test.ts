// The operator's commands (oisr-server accounts|tokens|keys …) over a fresh database, and the
// binary's --help. PGlite, or PostgreSQL when DATABASE_URL is set.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PERMISSIONS } from "@oisr/contract";
import { describe, expect, it } from "vitest";
import type { Services } from "../services.ts";
import { useFreshServices } from "../test-services.ts";
import { runAdminCommand, USAGE } from "./commands.ts";

let services: Services;
useFreshServices((s) => {
  services = s;
});

const run = (...args: string[]) => runAdminCommand(services, args);
// biome-ignore lint/suspicious/noExplicitAny: command output is read loosely
const out = async (...args: string[]): Promise<any> => {
  const result = await run(...args);
  expect(result.exitCode, JSON.stringify(result.output)).toBe(0);
  return result.output;
};

const KEY_ID = /^key_[0-9A-HJKMNP-TV-Z]{26}$/;

describe("oisr-server accounts and tokens", () => {
  it("accounts create makes an account and its admin key", async () => {
    const created = await out("accounts", "create", "--name", "Acme");
    expect(created).toMatchObject({ name: "Acme", account_id: expect.stringMatching(/^acc_/) });
    expect(created.api_key_id).toMatch(KEY_ID);
    expect(created.token).toMatch(/^oisr_[A-Za-z0-9_-]{43}$/);
    const listed = await out("keys", "list", "--account", created.account_id);
    expect(listed.data).toEqual([
      expect.objectContaining({
        id: created.api_key_id,
        name: "Admin (created with the account)",
        permissions: [...PERMISSIONS],
        created_by: null,
        status: "active",
      }),
    ]);
  });

  it("tokens create and revoke make and revoke keys", async () => {
    const { account_id } = await out("accounts", "create", "--name", "tokens");
    const created = await out("tokens", "create", "--account", account_id);
    expect(created.api_key_id).toMatch(KEY_ID);
    expect(await services.accounts.authenticate(created.token)).toMatchObject({ id: account_id });
    expect(await out("tokens", "revoke", created.token)).toEqual({ revoked: true });
    expect(await services.accounts.authenticate(created.token)).toBeNull();
    expect(await out("tokens", "revoke", created.token)).toEqual({ revoked: false });
    expect(await run("tokens", "create", "--account", "acc_missing")).toEqual({
      output: { error: "no account acc_missing" },
      exitCode: 1,
    });
  });
});

describe("oisr-server keys", () => {
  it("creates a key with the permissions and expiry asked, and prints its secret", async () => {
    const { account_id } = await out("accounts", "create", "--name", "keys");
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const key = await out(
      "keys",
      "create",
      "--account",
      account_id,
      "--name",
      "WMS poller",
      "--permission",
      "returns:read",
      "--permission",
      "orders:read",
      "--expires-at",
      expiresAt,
    );
    expect(key).toMatchObject({
      name: "WMS poller",
      permissions: ["orders:read", "returns:read"],
      expires_at: expiresAt,
      created_by: null,
      status: "active",
    });
    expect(key.secret).toMatch(/^oisr_/);
    expect(await services.accounts.authenticate(key.secret)).toMatchObject({ id: account_id });
    const listed = await out("keys", "list", "--account", account_id);
    expect(listed.data.map((k: { id: string }) => k.id)[0]).toBe(key.id);
    expect(listed.data[0]).not.toHaveProperty("secret");
  });

  it("refuses what the API would refuse of the same key (exit 2), and an unknown account (exit 1)", async () => {
    const { account_id } = await out("accounts", "create", "--name", "refusals");
    const create = (...rest: string[]) =>
      run("keys", "create", "--account", account_id, "--name", "k", ...rest);
    for (const result of [
      await create(),
      await create("--permission", "orders:write"),
      await create("--permission", "orders:read", "--expires-at", "tomorrow"),
      await create("--permission", "orders:read", "--expires-at", new Date(Date.now() - 1000).toISOString()),
      await create(
        "--permission",
        "orders:read",
        "--expires-at",
        new Date(Date.now() + 400 * 86_400_000).toISOString(),
      ),
      await create("--permission", "orders:read", "--bogus", "x"),
      await run("keys", "create", "--account", account_id, "--permission", "orders:read"),
    ]) {
      expect(result.exitCode, JSON.stringify(result.output)).toBe(2);
      expect(result.output).toEqual({ error: expect.any(String) });
    }
    expect(
      (await create("--permission", "orders:read", "--expires-at", "2099-01-01T00:00:00Z")).output,
    ).toEqual({
      error: "expires_at may be at most 366 days ahead.",
    });
    expect(
      await run("keys", "create", "--account", "acc_missing", "--name", "k", "--permission", "orders:read"),
    ).toEqual({ output: { error: "no account acc_missing" }, exitCode: 1 });
    expect(await run("keys", "list", "--account", "acc_missing")).toEqual({
      output: { error: "no account acc_missing" },
      exitCode: 1,
    });
  });

  it("rotates with an overlap, and revokes the last admin key (break-glass)", async () => {
    const created = await out("accounts", "create", "--name", "rotate");
    const rotated = await out("keys", "rotate", created.api_key_id, "--overlap-seconds", "60");
    expect(rotated.secret).not.toBe(created.token);
    expect(Date.parse(rotated.previous_secret_expires_at) - Date.parse(rotated.rotated_at)).toBe(60_000);
    expect(await services.accounts.authenticate(created.token)).not.toBeNull();
    const immediate = await out("keys", "rotate", created.api_key_id, "--overlap-seconds", "0");
    expect(await services.accounts.authenticate(rotated.secret)).toBeNull();
    expect((await run("keys", "rotate", created.api_key_id, "--overlap-seconds", "-1")).exitCode).toBe(2);
    expect((await run("keys", "rotate", created.api_key_id, "--overlap-seconds", "604801")).exitCode).toBe(2);

    // The API keeps an account's last admin key; an operator may revoke it.
    const revoked = await out("keys", "revoke", created.api_key_id);
    expect(revoked).toMatchObject({ id: created.api_key_id, status: "revoked" });
    expect(await services.accounts.authenticate(immediate.secret)).toBeNull();
    const again = await run("keys", "revoke", created.api_key_id);
    expect(again.exitCode).toBe(1);
    expect((again.output as { error: string }).error).toContain("was revoked at");
    expect((await run("keys", "rotate", created.api_key_id)).exitCode).toBe(1);
    expect(await run("keys", "revoke", "key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD")).toEqual({
      output: { error: "no API key key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD" },
      exitCode: 1,
    });
  });

  it("answers an unknown command or a missing argument with usage, exit 2", async () => {
    expect(await run("nonsense")).toEqual({ output: { error: USAGE }, exitCode: 2 });
    expect(await run("keys", "frobnicate")).toEqual({ output: { error: USAGE }, exitCode: 2 });
    expect((await run("keys", "revoke")).exitCode).toBe(2);
    expect((await run("keys", "list")).exitCode).toBe(2);
    expect((await run("keys", "list", "--account")).exitCode).toBe(2);
    for (const command of [
      "accounts create",
      "tokens create",
      "tokens revoke",
      "keys list",
      "keys create",
      "keys rotate",
      "keys revoke",
    ]) {
      expect(USAGE).toContain(command);
    }
  });
});

describe("oisr-server --help", () => {
  const main = fileURLToPath(new URL("../main.ts", import.meta.url));
  it.each([[["--help"]], [["help"]], [["keys", "--help"]]])(
    "%j prints the usage and exits 0, touching no database",
    (args) => {
      // A data directory that cannot be created: the command must not open the database.
      const result = spawnSync(process.execPath, [main, ...args], {
        env: { ...process.env, OISR_DATA_DIR: "/proc/oisr-no-such-dir", DATABASE_URL: "" },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${USAGE}\n`);
    },
  );
});
