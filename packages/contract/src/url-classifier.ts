// Webhook URL rules (docs/product.md §6), the part that needs no network: https only (plain http
// too when private networks are allowed), and no host that is, or is named as, a private,
// loopback, link-local or reserved address. One CIDR table for the server and the mock; the
// server resolves host names and checks every address it gets here, then pins the connection to
// them (ssrf-guard.ts, http-sender.ts); the mock, which has no DNS, stops at the literal.

export interface IpAddress {
  address: string;
  family: 4 | 6;
}

export type AddressCategory =
  | "public"
  | "unspecified"
  | "this-network"
  | "private"
  | "shared"
  | "loopback"
  | "link-local"
  | "site-local"
  | "documentation"
  | "benchmarking"
  | "ietf-protocol"
  | "ipv4-compatible"
  | "discard"
  | "multicast"
  | "reserved";

/** The reason text of every refused address (the API's `url_not_allowed` message quotes it). */
export const FORBIDDEN_ADDRESS = "a private, loopback, link-local or reserved address";

// Most specific first: the first block that contains an address names its category.
const V4_BLOCKS: readonly (readonly [string, number, AddressCategory])[] = [
  ["0.0.0.0", 8, "this-network"], // includes the unspecified address
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared"], // carrier-grade NAT
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"], // cloud metadata endpoints live here
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "ietf-protocol"],
  ["192.0.2.0", 24, "documentation"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // includes broadcast
];
const V6_BLOCKS: readonly (readonly [string, number, AddressCategory])[] = [
  ["::", 128, "unspecified"],
  ["::1", 128, "loopback"],
  ["::", 96, "ipv4-compatible"], // deprecated
  ["100::", 64, "discard"],
  ["2001:db8::", 32, "documentation"],
  ["fc00::", 7, "private"], // unique local
  ["fe80::", 10, "link-local"],
  ["fec0::", 10, "site-local"], // deprecated
  ["ff00::", 8, "multicast"],
];
// IPv6 addresses that carry an IPv4 address, classified as that address.
const V4_CARRIERS: readonly (readonly [string, number])[] = [
  ["::ffff:0:0", 96], // IPv4-mapped
  ["64:ff9b::", 96], // NAT64
];

type Block = { bytes: Uint8Array; bits: number; category: AddressCategory };
let compiled: { v4: Block[]; v6: Block[]; carriers: Block[] } | undefined;

/** Built on first use, so a bundle that never classifies an address pays nothing at load. */
function blocks() {
  const compile = (table: readonly (readonly [string, number, AddressCategory?])[]) =>
    table.map(([net, bits, category = "public"]) => ({
      bytes: ipBytes(net) as Uint8Array,
      bits,
      category,
    }));
  compiled ??= { v4: compile(V4_BLOCKS), v6: compile(V6_BLOCKS), carriers: compile(V4_CARRIERS) };
  return compiled;
}

const V4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function v4Bytes(text: string): Uint8Array | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => V4_PART.test(p))) return undefined;
  return Uint8Array.from(parts, Number);
}

function v6Bytes(text: string): Uint8Array | undefined {
  let rest = text.split("%")[0] ?? "";
  const groups: number[] = [];
  // A dotted IPv4 tail (::ffff:1.2.3.4) stands for the last two groups.
  const dotted = /:(\d+\.\d+\.\d+\.\d+)$/.exec(rest);
  if (dotted?.[1]) {
    const v4 = v4Bytes(dotted[1]);
    if (!v4) return undefined;
    rest = rest.slice(0, -dotted[1].length) + ((v4[0] as number) * 256 + (v4[1] as number)).toString(16);
    rest += `:${((v4[2] as number) * 256 + (v4[3] as number)).toString(16)}`;
  }
  const halves = rest.split("::");
  if (halves.length > 2) return undefined;
  const split = (half: string) => (half === "" ? [] : half.split(":"));
  const head = split(halves[0] ?? "");
  const tail = halves.length === 2 ? split(halves[1] ?? "") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  for (const g of [...head, ...new Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
    groups.push(Number.parseInt(g, 16));
  }
  return Uint8Array.from(groups.flatMap((g) => [g >> 8, g & 0xff]));
}

/** 4 or 16 bytes of an IP literal (IPv6 may carry a `%zone`), or undefined for anything else. */
function ipBytes(text: string): Uint8Array | undefined {
  return text.includes(":") ? v6Bytes(text) : v4Bytes(text);
}

/** 4 or 6 for an IP literal, 0 for anything else (node:net's isIP, without Node). */
export function ipFamily(text: string): 0 | 4 | 6 {
  const bytes = ipBytes(text);
  return bytes === undefined ? 0 : bytes.length === 4 ? 4 : 6;
}

function within(bytes: Uint8Array, block: Block): boolean {
  if (bytes.length !== block.bytes.length) return false;
  for (let bit = 0; bit < block.bits; bit += 8) {
    const mask = (0xff << Math.max(0, 8 - (block.bits - bit))) & 0xff;
    if (((bytes[bit / 8] as number) & mask) !== ((block.bytes[bit / 8] as number) & mask)) return false;
  }
  return true;
}

function categoryOf(bytes: Uint8Array): AddressCategory {
  const { v4, v6, carriers } = blocks();
  if (bytes.length === 16 && carriers.some((c) => within(bytes, c))) return categoryOf(bytes.subarray(12));
  return (bytes.length === 4 ? v4 : v6).find((b) => within(bytes, b))?.category ?? "public";
}

/** Which block of the table an IP literal falls in; undefined when it is not an IP literal. */
export function classifyAddress(text: string): AddressCategory | undefined {
  const bytes = ipBytes(text);
  return bytes === undefined ? undefined : categoryOf(bytes);
}

/** Why an address may not receive webhooks, or null when it is a public address. */
export function forbiddenAddress(text: string): string | null {
  const category = classifyAddress(text);
  if (category === undefined) return "not an IP address";
  return category === "public" ? null : FORBIDDEN_ADDRESS;
}

/** The refusal of the first address a host resolves to that may not receive webhooks, or null. */
export function refusedAddress(host: string, addresses: readonly IpAddress[]): string | null {
  for (const { address } of addresses) {
    const why = forbiddenAddress(address);
    if (why) return `host "${host}" resolves to ${address}, ${why}`;
  }
  return null;
}

export type WebhookUrlVerdict =
  | {
      ok: true;
      url: URL;
      /** The host without IPv6 brackets. */
      host: string;
      /** The checked address of an IP literal host; empty for a name, or when private networks are allowed. */
      addresses: IpAddress[];
      /** The host is a name whose addresses must be resolved and passed to `refusedAddress`. */
      mustResolve: boolean;
    }
  | { ok: false; reason: string };

/** Everything about a webhook URL that can be decided without DNS. */
export function classifyWebhookUrl(raw: string, allowPrivateNetworks: boolean): WebhookUrlVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "https:" && !(allowPrivateNetworks && url.protocol === "http:")) {
    return { ok: false, reason: "must use https" };
  }
  // The URL parser has already turned 2130706433, 0x7f.1 and [::ffff:7f00:1]-style hosts canonical.
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (allowPrivateNetworks) return { ok: true, url, host, addresses: [], mustResolve: false };
  // RFC 6761: these names are loopback whatever a resolver says (a trailing dot changes nothing).
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || name.endsWith(".localhost")) {
    return { ok: false, reason: `host "${host}" resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}` };
  }
  const family = ipFamily(host);
  if (family === 0) return { ok: true, url, host, addresses: [], mustResolve: true };
  const addresses: IpAddress[] = [{ address: host, family }];
  const refusal = refusedAddress(host, addresses);
  return refusal ? { ok: false, reason: refusal } : { ok: true, url, host, addresses, mustResolve: false };
}
