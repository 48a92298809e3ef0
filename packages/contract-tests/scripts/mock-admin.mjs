#!/usr/bin/env node
// The admin command of a standalone mock (`oisr-mock --known-tokens-only`), in the shape the kit's
// --admin-command takes (docs/product.md §2): `accounts create --name N` prints
// {"account_id","token"}, `tokens revoke T` prints {"revoked":true}. Used by the kit's own tests
// and by test:pack:  --admin-command "node scripts/mock-admin.mjs http://127.0.0.1:4010"
const [origin, ...args] = process.argv.slice(2);
const post = async (path, body) => {
  const res = await fetch(`${origin}/__mock/${path}`, { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST /__mock/${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? {} : res.json();
};
const command = args.slice(0, 2).join(" ");
if (command === "accounts create") {
  const name = args[args.indexOf("--name") + 1] ?? "conformance";
  const created = await post("accounts", { name });
  process.stdout.write(`${JSON.stringify({ account_id: created.accountId, name, token: created.token })}\n`);
} else if (command === "tokens revoke" && args[2]) {
  await post("tokens/revoke", { token: args[2] });
  process.stdout.write(`${JSON.stringify({ revoked: true })}\n`);
} else {
  process.stderr.write("usage: mock-admin.mjs ORIGIN accounts create --name N | tokens revoke TOKEN\n");
  process.exit(2);
}
