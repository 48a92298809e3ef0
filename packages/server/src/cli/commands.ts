// `oisr-server` admin commands: accounts, their rate limits, and their API keys as an operator
// manages them (decision 013: keys made here have `created_by` null, and `keys revoke` and
// `tokens revoke` may revoke an account's last admin key, the break-glass the API refuses). Each
// prints one JSON value on stdout; usage errors exit 2, a missing account or key exits 1.
import {
  apiKeyInactive,
  BodyValidator,
  type CallingKey,
  newKeyProblem,
  PERMISSIONS,
  parseRateLimits,
  rotationOverlapMs,
  toApiKey,
  toApiKeyWithSecret,
} from "@oisr/contract";
import type { Services } from "../services.ts";
import { loadSpec } from "../spec.ts";

export const USAGE = `usage: oisr-server [command]

  serve                                     run the API, the workers and the webhook dispatcher (default)
  accounts create --name <name>             a new account and its first key, holding every permission
  accounts set-limits <account_id> <json>   per-account rate limits, e.g. '{"ingest": 1200}' ('null' clears them)
  keys list --account <account_id>          the account's API keys, newest first
  keys create --account <account_id> --name <name> --permission <permission> [--permission <permission> ...]
              [--expires-at <RFC 3339 time>]
                                            a new key and its secret (shown once)
  keys rotate <key_id> [--overlap-seconds <n>]
                                            a new secret; the old one works for n more seconds (default 86400)
  keys revoke <key_id>                      revokes the key at once, even the account's last admin key
  tokens create --account <account_id>      a new key holding every permission (prints its secret as token)
  tokens revoke <token>                     revokes the key the token belongs to
  retention run                             one retention pass now: partitions made ahead and dropped past
                                            OISR_REQUEST_RETENTION, rows in the dropped ones, duration_ms
  help, --help                              this text

Permissions: ${PERMISSIONS.join(", ")}.
Output is JSON on stdout. Exit codes: 0 done, 1 no such account or key (or the key is inactive), 2 usage.`;

export type CommandResult = { output: unknown; exitCode: number };

/** Whether the arguments ask for the usage text (main.ts prints it without opening the database). */
export const asksForHelp = (args: readonly string[]) =>
  args[0] === "help" || args.includes("--help") || args.includes("-h");

/** Keys an operator makes or manages are bound by no calling key: only the rules on expiry apply. */
const OPERATOR: CallingKey = { id: "operator", permissions: PERMISSIONS, expiresAtMs: null };

/** Flags (`--name value`, repeatable) and positional arguments; a flag without a value is an error. */
function parse(rest: readonly string[]): { flags: Map<string, string[]>; positional: string[] } | null {
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const value = rest[i + 1];
    if (value === undefined) return null;
    flags.set(arg.slice(2), [...(flags.get(arg.slice(2)) ?? []), value]);
    i++;
  }
  return { flags, positional };
}

const usage = (text: string): CommandResult => ({
  output: { error: `usage: oisr-server ${text}` },
  exitCode: 2,
});
const failed = (error: string, exitCode = 1): CommandResult => ({ output: { error }, exitCode });

export async function runAdminCommand(services: Services, args: string[]): Promise<CommandResult> {
  const [group, action, ...rest] = args;
  const parsed = parse(rest);
  const flag = (name: string) => parsed?.flags.get(name)?.[0];
  const only = (...names: string[]) =>
    parsed !== null && [...parsed.flags.keys()].every((n) => names.includes(n));

  if (group === "retention" && action === "run") {
    if (parsed === null || rest.length > 0) return usage("retention run");
    return { output: await services.retention.run(), exitCode: 0 };
  }

  if (group === "accounts" && action === "create") {
    const name = flag("name");
    if (!name || !only("name")) return usage("accounts create --name <name>");
    return { output: await services.accounts.createAccount(name), exitCode: 0 };
  }
  if (group === "accounts" && action === "set-limits") {
    const [accountId, json] = rest;
    if (!accountId || json === undefined) {
      return usage("accounts set-limits <account_id> '{\"ingest\": 1200}' (or 'null' to clear)");
    }
    // Per-account overrides: only known scopes, positive integers, as OISR_RATE_LIMITS.
    const limits = json === "null" ? null : parseRateLimits(json, "limits");
    const updated = await services.accounts.setRateLimits(accountId, limits);
    return updated
      ? { output: { account_id: accountId, rate_limits: limits }, exitCode: 0 }
      : failed(`no account ${accountId}`);
  }
  if (group === "tokens" && action === "create") {
    const account = flag("account");
    if (!account || !only("account")) return usage("tokens create --account <account_id>");
    const created = await services.accounts.createToken(account);
    return created ? { output: created, exitCode: 0 } : failed(`no account ${account}`);
  }
  if (group === "tokens" && action === "revoke") {
    const token = rest[0];
    if (!token || rest.length > 1) return usage("tokens revoke <token>");
    return { output: { revoked: await services.accounts.revokeToken(token) }, exitCode: 0 };
  }
  if (group === "keys" && parsed) return keysCommand(services, action, parsed, only);
  return { output: { error: USAGE }, exitCode: 2 };
}

async function keysCommand(
  services: Services,
  action: string | undefined,
  { flags, positional }: { flags: Map<string, string[]>; positional: string[] },
  only: (...names: string[]) => boolean,
): Promise<CommandResult> {
  const { apiKeys, accounts } = services;
  const nowMs = Date.now();
  // The spec's own schemas check what the API would check of the same body.
  const validate = (schema: string, body: unknown) => {
    const problems = new BodyValidator(loadSpec()).validate({ $ref: `#/components/schemas/${schema}` }, body);
    return problems
      ? failed(problems.errors.map((e) => `${e.pointer || "/"}: ${e.message}`).join("; "), 2)
      : null;
  };

  if (action === "list") {
    const account = flags.get("account")?.[0];
    if (!account || positional.length > 0 || !only("account"))
      return usage("keys list --account <account_id>");
    if (!(await accounts.exists(account))) return failed(`no account ${account}`);
    const keys = await apiKeys.list(account, null, Number.MAX_SAFE_INTEGER);
    return { output: { data: keys.map((key) => toApiKey(key, nowMs)) }, exitCode: 0 };
  }
  if (action === "create") {
    const account = flags.get("account")?.[0];
    const name = flags.get("name")?.[0];
    const permissions = flags.get("permission") ?? [];
    const expiresAt = flags.get("expires-at")?.[0];
    if (
      !account ||
      name === undefined ||
      positional.length > 0 ||
      !only("account", "name", "permission", "expires-at")
    ) {
      return usage(
        "keys create --account <account_id> --name <name> --permission <permission> [--permission <permission> ...] [--expires-at <RFC 3339 time>]",
      );
    }
    const body = { name, permissions, ...(expiresAt === undefined ? {} : { expires_at: expiresAt }) };
    const invalid = validate("ApiKeyCreate", body);
    if (invalid) return invalid;
    const problem = newKeyProblem(OPERATOR, body as Parameters<typeof newKeyProblem>[1], nowMs);
    if (problem) return failed(problem.errors?.map((e) => e.message).join("; ") ?? problem.message, 2);
    if (!(await accounts.exists(account))) return failed(`no account ${account}`);
    const { key, secret } = await apiKeys.insert(
      {
        accountId: account,
        name,
        permissions,
        expiresAtMs: expiresAt === undefined ? null : Date.parse(expiresAt),
        createdBy: null,
      },
      nowMs,
    );
    return { output: toApiKeyWithSecret(key, secret, nowMs), exitCode: 0 };
  }
  if (action === "rotate") {
    const [id, ...extra] = positional;
    const overlap = flags.get("overlap-seconds")?.[0];
    if (!id || extra.length > 0 || !only("overlap-seconds")) {
      return usage("keys rotate <key_id> [--overlap-seconds <n>]");
    }
    const body =
      overlap === undefined ? {} : { overlap_seconds: /^\d+$/.test(overlap) ? Number(overlap) : overlap };
    const invalid = validate("ApiKeyRotate", body);
    if (invalid) return invalid;
    const result = await apiKeys.rotate(
      null,
      id,
      rotationOverlapMs(body as { overlap_seconds?: number }),
      nowMs,
    );
    if (result.outcome === "not_found") return failed(`no API key ${id}`);
    if (result.outcome === "inactive") return failed(apiKeyInactive(result.key).message);
    return { output: toApiKeyWithSecret(result.key, result.secret, nowMs), exitCode: 0 };
  }
  if (action === "revoke") {
    const [id, ...extra] = positional;
    if (!id || extra.length > 0 || !only()) return usage("keys revoke <key_id>");
    // Break-glass: an operator may revoke the account's last admin key, which the API refuses.
    const result = await apiKeys.revoke(null, id, { keepLastAdmin: false }, nowMs);
    if (result.outcome === "not_found") return failed(`no API key ${id}`);
    if (result.outcome === "revoked") return { output: toApiKey(result.key, nowMs), exitCode: 0 };
    return failed(apiKeyInactive(result.key).message);
  }
  return { output: { error: USAGE }, exitCode: 2 };
}
