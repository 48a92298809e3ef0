// The kit's options as the test files see them: the runner (src/kit/run.ts) writes them to one
// environment variable before it starts vitest, and every worker reads them from there.

export const CONFIG_VARIABLE = "OISR_CONFORMANCE";

export interface KitConfig {
  /** The implementation's base URL, ending in /v2. */
  baseUrl?: string;
  /** Tokens of distinct accounts (two give the isolation tests their second account). */
  tokens: string[];
  /** A command that takes `accounts create --name <name>` and `tokens revoke <token>` and prints JSON. */
  adminCommand?: string;
  /** A host name or address of this machine that the system under test can reach. */
  webhookHost?: string;
  /** A module exporting `targets: Target[]` that the kit starts itself (OISR's own targets, or yours). */
  targetsModule?: string;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): KitConfig | undefined {
  const raw = env[CONFIG_VARIABLE];
  if (!raw) return undefined;
  return JSON.parse(raw) as KitConfig;
}

export function writeConfig(config: KitConfig, env: NodeJS.ProcessEnv = process.env): void {
  env[CONFIG_VARIABLE] = JSON.stringify(config);
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Where receivers listen and the URL host the system posts to: 127.0.0.1 unless --webhook-host. */
export function receiverHost(config: KitConfig | undefined = readConfig()): { listen: string; url: string } {
  const host = config?.webhookHost;
  return host ? { listen: "0.0.0.0", url: host } : { listen: "127.0.0.1", url: "127.0.0.1" };
}

/** Whether a system at `baseUrl` can reach this machine's receivers without --webhook-host. */
export function isLoopback(baseUrl: string): boolean {
  return LOOPBACK.has(new URL(baseUrl).hostname);
}
