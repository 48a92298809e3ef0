// Keeps webhook URLs from reaching the server's own network (SSRF): https only, and every address
// the host resolves to must be public. Checked when a URL is saved and again before each delivery,
// whose connection is then pinned to the checked address so a DNS answer cannot change in between.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; injected in tests so no real DNS is needed. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", includes the unspecified address
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata endpoints live here
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["::", 96], // deprecated IPv4-compatible addresses
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // deprecated site-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address. */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0] ?? "";
  // A dotted IPv4 tail (::ffff:1.2.3.4) counts as two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a, b, c, d] = dotted[1].split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : new Array(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16));
}

/** The IPv4 address an IPv6 address carries (IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g.length !== 8) return undefined;
  const mapped = g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff;
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (!mapped && !nat64) return undefined;
  const hi = g[6] ?? 0;
  const lo = g[7] ?? 0;
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** Why an address may not receive webhooks, or null when it is a public address. */
export function forbiddenAddress(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return "not an IP address";
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return forbiddenAddress(v4);
    return blocked.check(address, "ipv6") ? "a private, loopback, link-local or reserved address" : null;
  }
  return blocked.check(address, "ipv4") ? "a private, loopback, link-local or reserved address" : null;
}

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: string };

export interface GuardOptions {
  allowPrivateNetworks: boolean;
  resolve?: Resolver;
}

/** Resolves and checks a webhook URL. With allowPrivateNetworks nothing is resolved or refused but the scheme. */
export async function checkWebhookUrl(raw: string, options: GuardOptions): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "https:" && !(options.allowPrivateNetworks && url.protocol === "http:")) {
    return { ok: false, reason: "must use https" };
  }
  if (options.allowPrivateNetworks) return { ok: true, url, addresses: [] };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolver)(host);
    } catch {
      return { ok: false, reason: `host "${host}" does not resolve` };
    }
  }
  if (addresses.length === 0) return { ok: false, reason: `host "${host}" does not resolve` };
  // Every address counts: a client may connect to any of them, and an attacker controls the order.
  for (const { address } of addresses) {
    const why = forbiddenAddress(address);
    if (why) return { ok: false, reason: `host "${host}" resolves to ${address}, ${why}` };
  }
  return { ok: true, url, addresses };
}
