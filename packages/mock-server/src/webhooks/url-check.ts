// The server's webhook URL rules without DNS (browsers have none): https only, and no host that
// is, or is named as, a private, loopback, link-local or reserved address; with
// `allowPrivateNetworks` only the scheme is checked and plain http is allowed too.

const FORBIDDEN = "a private, loopback, link-local or reserved address";

const V4_BLOCKS: [number, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
].map(([net, bits]) => [v4(net as string) as number, bits as number]);

function v4(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function v4Forbidden(n: number): boolean {
  return V4_BLOCKS.some(
    ([net, bits]) => Math.floor(n / 2 ** (32 - bits)) === Math.floor(net / 2 ** (32 - bits)),
  );
}

/** The eight 16-bit groups of an IPv6 literal, or null. */
function v6Groups(address: string): number[] | null {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const n = v4(dotted[1]);
    if (n === null) return null;
    text = `${text.slice(0, -dotted[1].length)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const left = halves[0] ? halves[0].split(":") : [];
  const right = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  const groups = [...left, ...new Array(Math.max(0, fill)).fill("0"), ...right];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => Number.parseInt(g, 16));
}

function v6Forbidden(g: number[]): boolean {
  const [a = 0, b = 0] = g;
  const allZeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (allZeroUpTo(5) && g[5] === 0xffff) return v4Forbidden((g[6] ?? 0) * 65536 + (g[7] ?? 0));
  if (a === 0x64 && b === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return v4Forbidden((g[6] ?? 0) * 65536 + (g[7] ?? 0));
  }
  if (allZeroUpTo(6)) return true; // ::, ::1 and IPv4-compatible
  if (a === 0x100 && b === 0 && g[2] === 0 && g[3] === 0) return true;
  if (a === 0x2001 && b === 0xdb8) return true;
  if ((a & 0xfe00) === 0xfc00) return true;
  if ((a & 0xffc0) === 0xfe80 || (a & 0xffc0) === 0xfec0) return true;
  return (a & 0xff00) === 0xff00;
}

export type UrlCheck = { ok: true } | { ok: false; reason: string };

export function checkWebhookUrl(raw: string, allowPrivateNetworks: boolean): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "https:" && !(allowPrivateNetworks && url.protocol === "http:")) {
    return { ok: false, reason: "must use https" };
  }
  if (allowPrivateNetworks) return { ok: true };
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) {
    return { ok: false, reason: `host "${host}" resolves to 127.0.0.1, ${FORBIDDEN}` };
  }
  const n = v4(host);
  if (n !== null)
    return v4Forbidden(n)
      ? { ok: false, reason: `host "${host}" resolves to ${host}, ${FORBIDDEN}` }
      : { ok: true };
  const groups = host.includes(":") ? v6Groups(host) : null;
  if (groups && v6Forbidden(groups))
    return { ok: false, reason: `host "${host}" resolves to ${host}, ${FORBIDDEN}` };
  return { ok: true };
}
