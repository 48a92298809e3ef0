// `oisr keys create|list|get|rotate|revoke`: manage the account's API keys from a terminal or a
// runbook (a key per integration, rotation on a schedule or after a leak), with a key that holds
// api_keys:write (api_keys:read for list and get).
import { parseArgs } from "node:util";
import { isPermission, MAX_ROTATION_OVERLAP_SECONDS, PERMISSIONS } from "@oisr/contract";
import type { ApiKeyWithSecret, Permission } from "@oisr/sdk";
import { CONNECTION_OPTIONS, connect } from "../client.ts";
import { EXIT, type Io, writeLine } from "../io.ts";
import { UsageError } from "../sources/open.ts";

export const KEYS_HELP = `Usage: oisr keys create --name NAME --permission P [--permission P…] [--expires-at TIME]
       oisr keys list
       oisr keys get KEY_ID
       oisr keys rotate KEY_ID [--overlap DURATION]
       oisr keys revoke KEY_ID
       [--base-url URL] [--token TOKEN]

create  makes a key holding the permissions given (none the calling key lacks) and prints it as
        JSON with its secret, which is shown only this once: store it.
list    prints every key of the account, newest first, one JSON object per line (no secrets).
get     prints one key as JSON (no secret).
rotate  gives the key a new secret, printed once as JSON with the key. The previous secret keeps
        working for --overlap (default 24h, at most 7d; 0 refuses it at once, after a leak).
revoke  revokes the key at once and for good, and prints it.

Permissions: ${PERMISSIONS.join(", ")}.
A :write includes the :read of the same resource.
TIME is an RFC 3339 date-time, at most 366 days ahead; without --expires-at the key lasts until
revoked. DURATION is a number of seconds, or a number with a unit: 90s, 30m, 1h, 7d, 1h30m.

Examples:
  oisr keys create --name "WMS poller" --permission orders:read --permission ingest:write --permission requests:read
  oisr keys rotate key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD --overlap 1h
  oisr keys revoke key_01JQ3V0B7ZQ5M8E4W2T6Y9R1KD`;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const UNIT_SECONDS = { d: 86_400, h: 3_600, m: 60, s: 1 } as const;

/** Seconds of a DURATION: "0", "3600", "90s", "30m", "1h", "7d", "1h30m". */
export function parseDuration(text: string): number {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const parts = [...trimmed.matchAll(/(\d+)([dhms])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== trimmed)
    throw new UsageError(`--overlap takes a duration such as 0, 90s, 30m, 1h or 7d, not "${text}"`);
  return parts.reduce(
    (sum, [, n, unit]) => sum + Number(n) * UNIT_SECONDS[unit as keyof typeof UNIT_SECONDS],
    0,
  );
}

function permissionsOf(values: string[] | undefined): Permission[] {
  if (!values || values.length === 0)
    throw new UsageError(`create needs at least one --permission (${PERMISSIONS.join(", ")})`);
  const unknown = values.filter((p) => !isPermission(p));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown permission ${unknown.map((p) => `"${p}"`).join(", ")}; one of ${PERMISSIONS.join(", ")}`,
    );
  return [...new Set(values)] as Permission[];
}

function printSecret(io: Io, key: ApiKeyWithSecret, what: string): void {
  writeLine(io.stdout, JSON.stringify(key, null, 2));
  writeLine(
    io.stderr,
    `oisr keys: ${what}; the secret is shown only now: store it (OISR keeps only its hash).`,
  );
}

export async function keysCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...CONNECTION_OPTIONS,
      name: { type: "string" },
      permission: { type: "string", multiple: true },
      "expires-at": { type: "string" },
      overlap: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    writeLine(io.stdout, KEYS_HELP);
    return EXIT.ok;
  }
  const [action, keyId, ...extra] = positionals;
  const refuse = (options: ("name" | "permission" | "expires-at" | "overlap")[]) => {
    const given = options.filter((o) => values[o] !== undefined);
    if (given.length > 0) throw new UsageError(`${action} takes no ${given.map((o) => `--${o}`).join(", ")}`);
  };
  const signal = io.signal;

  if (action === "create" && !keyId) {
    refuse(["overlap"]);
    if (values.name === undefined || values.name.trim() === "")
      throw new UsageError("create needs --name NAME (what the key is for, 1–100 characters)");
    const permissions = permissionsOf(values.permission);
    const expiresAt = values["expires-at"];
    if (expiresAt !== undefined && (!RFC3339.test(expiresAt) || Number.isNaN(Date.parse(expiresAt))))
      throw new UsageError(
        `--expires-at takes an RFC 3339 date-time such as 2026-03-20T08:00:00Z, not "${expiresAt}"`,
      );
    const { client } = connect(values, io);
    const key = await client.keys.create(
      { name: values.name, permissions, ...(expiresAt !== undefined ? { expiresAt } : {}) },
      { signal },
    );
    printSecret(io, key, `created ${key.id}`);
    return EXIT.ok;
  }
  if (action === "list" && !keyId) {
    refuse(["name", "permission", "expires-at", "overlap"]);
    const { client } = connect(values, io);
    for await (const key of client.keys.iterate({}, { signal })) writeLine(io.stdout, JSON.stringify(key));
    return EXIT.ok;
  }
  if ((action === "get" || action === "revoke") && keyId && extra.length === 0) {
    refuse(["name", "permission", "expires-at", "overlap"]);
    const { client } = connect(values, io);
    const key =
      action === "get"
        ? await client.keys.get(keyId, { signal })
        : await client.keys.revoke(keyId, { signal });
    writeLine(io.stdout, JSON.stringify(key, null, 2));
    return EXIT.ok;
  }
  if (action === "rotate" && keyId && extra.length === 0) {
    refuse(["name", "permission", "expires-at"]);
    const overlapSeconds = values.overlap === undefined ? undefined : parseDuration(values.overlap);
    if (overlapSeconds !== undefined && overlapSeconds > MAX_ROTATION_OVERLAP_SECONDS)
      throw new UsageError(
        `--overlap is at most 7d (${MAX_ROTATION_OVERLAP_SECONDS} s), not "${values.overlap}"`,
      );
    const { client } = connect(values, io);
    const key = await client.keys.rotate(keyId, overlapSeconds === undefined ? {} : { overlapSeconds }, {
      signal,
    });
    const previous = key.previous_secret_expires_at
      ? `the previous secret works until ${key.previous_secret_expires_at}`
      : "the previous secret no longer works";
    printSecret(io, key, `rotated ${key.id}, ${previous}`);
    return EXIT.ok;
  }
  throw new UsageError(
    "expected: oisr keys create --name NAME --permission P…, oisr keys list, or oisr keys get|rotate|revoke KEY_ID",
  );
}
