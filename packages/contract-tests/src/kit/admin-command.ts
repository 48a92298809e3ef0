// The operator commands of docs/product.md §2 (`accounts create`, `tokens revoke`), run through
// whatever command the user gives: `node dist/main.mjs`, `docker exec api oisr-server`, a script.
import { spawn } from "node:child_process";

/** Runs `<command> <args…>` in a shell and returns the JSON object printed on its last stdout line. */
export async function runAdmin(command: string, args: string[]): Promise<Record<string, unknown>> {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const child = spawn(`${command} ${quoted}`, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  const last = stdout.trim().split("\n").at(-1) ?? "";
  try {
    const parsed: unknown = JSON.parse(last);
    if (code === 0 && parsed !== null && typeof parsed === "object") return parsed as Record<string, unknown>;
  } catch {}
  throw new Error(
    `admin command "${command} ${args.join(" ")}" exited with ${code}, stdout: ${stdout} stderr: ${stderr}`,
  );
}

export async function mintAccount(
  command: string,
  name: string,
): Promise<{ accountId: string; token: string }> {
  const out = await runAdmin(command, ["accounts", "create", "--name", name]);
  if (typeof out.token !== "string")
    throw new Error(`"${command} accounts create" printed no token: ${JSON.stringify(out)}`);
  return { accountId: String(out.account_id ?? out.accountId ?? "unknown"), token: out.token };
}

export async function revokeWith(command: string, token: string): Promise<void> {
  await runAdmin(command, ["tokens", "revoke", token]);
}
