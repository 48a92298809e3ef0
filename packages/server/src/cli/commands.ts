// `oisr-server accounts create | tokens create | tokens revoke`: print JSON on stdout.
import { parseRateLimits } from "@oisr/contract";
import type { Services } from "../services.ts";

export async function runAdminCommand(
  services: Services,
  args: string[],
): Promise<{ output: unknown; exitCode: number }> {
  const [group, action, ...rest] = args;
  const flag = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  if (group === "accounts" && action === "create") {
    const name = flag("name");
    if (!name) return { output: { error: "usage: oisr-server accounts create --name <name>" }, exitCode: 2 };
    return { output: await services.accounts.createAccount(name), exitCode: 0 };
  }
  if (group === "accounts" && action === "set-limits") {
    const [accountId, json] = rest;
    if (!accountId || json === undefined) {
      return {
        output: {
          error:
            "usage: oisr-server accounts set-limits <account_id> '{\"ingest\": 1200}' (or 'null' to clear)",
        },
        exitCode: 2,
      };
    }
    // Per-account overrides: only known scopes, positive integers, as OISR_RATE_LIMITS.
    const limits = json === "null" ? null : parseRateLimits(json, "limits");
    const updated = await services.accounts.setRateLimits(accountId, limits);
    return updated
      ? { output: { account_id: accountId, rate_limits: limits }, exitCode: 0 }
      : { output: { error: `no account ${accountId}` }, exitCode: 1 };
  }
  if (group === "tokens" && action === "create") {
    const account = flag("account");
    if (!account)
      return { output: { error: "usage: oisr-server tokens create --account <account_id>" }, exitCode: 2 };
    const created = await services.accounts.createToken(account);
    return created
      ? { output: created, exitCode: 0 }
      : { output: { error: `no account ${account}` }, exitCode: 1 };
  }
  if (group === "tokens" && action === "revoke") {
    const token = rest[0];
    if (!token) return { output: { error: "usage: oisr-server tokens revoke <token>" }, exitCode: 2 };
    return { output: { revoked: await services.accounts.revokeToken(token) }, exitCode: 0 };
  }
  return {
    output: {
      error:
        "usage: oisr-server [serve] | accounts create --name <n> | accounts set-limits <account_id> <json> | tokens create --account <id> | tokens revoke <token>",
    },
    exitCode: 2,
  };
}
