// Someone else's running implementation as a target: nothing but HTTP, the tokens given, and
// what the options add (src/capabilities.ts). `start` starts nothing and honours no settings:
// tests that need the suite's settings ask for "settings" and are skipped.
import type { Capability } from "../capabilities.ts";
import { MissingCapability } from "../capabilities.ts";
import type { System, Target } from "../system.ts";
import { mintAccount, revokeWith } from "./admin-command.ts";
import { isLoopback, type KitConfig, receiverHost } from "./config.ts";

export function externalTarget(config: KitConfig & { baseUrl: string }): Target {
  const capabilities: Capability[] = [];
  if (config.adminCommand) capabilities.push("accounts", "revoke");
  if (config.webhookHost || isLoopback(config.baseUrl)) capabilities.push("webhooks");
  const baseUrl = config.baseUrl.replace(/\/+$/, "");
  return {
    name: baseUrl,
    capabilities,
    ...(config.adminCommand ? {} : { sharedAccounts: config.tokens.length }),
    async start() {
      const accounts = config.tokens.map((token, i) => ({ accountId: `given-${i + 1}`, token }));
      let handedOut = 0;
      const system: System = {
        baseUrl,
        origin: new URL(baseUrl).origin,
        receiverHost: receiverHost(config),
        async createAccount(name = "conformance") {
          if (config.adminCommand) return mintAccount(config.adminCommand, name);
          // The harness restarts the count for every test (src/harness.ts).
          const account = accounts[handedOut++];
          if (!account) throw new MissingCapability("accounts");
          return account;
        },
        async revokeToken(token) {
          if (!config.adminCommand) throw new MissingCapability("revoke");
          await revokeWith(config.adminCommand, token);
        },
        resetSharedAccounts() {
          handedOut = 0;
        },
        async close() {},
      };
      return system;
    },
  };
}
