// Keeps webhook URLs from reaching the server's own network (SSRF). The rules that need no network
// (scheme, IP literals, the CIDR table) are @oisr/contract's classifier, shared with the mock; this
// adds what only the server can do: resolve a host name and check every address it resolves to.
// Checked when a URL is saved and again before each delivery, whose connection is then pinned to
// the checked addresses (http-sender.ts) so a DNS answer cannot change in between.
import { lookup } from "node:dns/promises";
import { classifyWebhookUrl, type IpAddress, refusedAddress } from "@oisr/contract";

export type ResolvedAddress = IpAddress;

/** Resolves a host name to all its addresses; injected in tests so no real DNS is needed. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string };

export interface GuardOptions {
  allowPrivateNetworks: boolean;
  resolve?: Resolver;
}

/** Resolves and checks a webhook URL. With allowPrivateNetworks nothing is resolved or refused but the scheme. */
export async function checkWebhookUrl(raw: string, options: GuardOptions): Promise<UrlCheck> {
  const verdict = classifyWebhookUrl(raw, options.allowPrivateNetworks);
  if (!verdict.ok || !verdict.mustResolve) return verdict;
  const { host, url } = verdict;
  let addresses: ResolvedAddress[];
  try {
    addresses = await (options.resolve ?? systemResolver)(host);
  } catch {
    return { ok: false, reason: `host "${host}" does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host "${host}" does not resolve` };
  // Every address counts: a client may connect to any of them, and an attacker controls the order.
  const refusal = refusedAddress(host, addresses);
  return refusal ? { ok: false, reason: refusal } : { ok: true, url, addresses };
}
