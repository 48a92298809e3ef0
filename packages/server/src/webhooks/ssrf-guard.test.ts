// The resolving half of the URL check; the rules without DNS (schemes, IP literals, the CIDR
// table) are tested once, in @oisr/contract's url-classifier.test.ts.
import { describe, expect, it } from "vitest";
import { checkWebhookUrl, type Resolver } from "./ssrf-guard.ts";

/** A fake DNS: host name -> addresses. */
function resolver(table: Record<string, string[]>): Resolver {
  return async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
}

const dns = resolver({
  "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"],
  "intranet.example.com": ["10.1.2.3"],
  "sneaky.example.com": ["93.184.216.34", "127.0.0.1"],
  "mapped.example.com": ["::ffff:192.168.0.10"],
  "zoned.example.com": ["fe80::1%eth0"],
  "empty.example.com": [],
});

describe("checkWebhookUrl", () => {
  it("accepts an https URL whose every address is public, and returns them for pinning", async () => {
    const check = await checkWebhookUrl("https://hooks.example.com/oisr", {
      allowPrivateNetworks: false,
      resolve: dns,
    });
    expect(check).toMatchObject({
      ok: true,
      addresses: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1::1", family: 6 },
      ],
    });
    if (check.ok) expect(check.url.href).toBe("https://hooks.example.com/oisr");
  });

  it("returns an IP literal as the one address to pin to, without resolving", async () => {
    const failingDns: Resolver = () => Promise.reject(new Error("no DNS for a literal"));
    expect(
      await checkWebhookUrl("https://8.8.8.8/h", { allowPrivateNetworks: false, resolve: failingDns }),
    ).toMatchObject({
      ok: true,
      addresses: [{ address: "8.8.8.8", family: 4 }],
    });
  });

  it.each([
    ["https://intranet.example.com/", /resolves to 10\.1\.2\.3, a private/],
    ["https://sneaky.example.com/", /resolves to 127\.0\.0\.1/],
    ["https://mapped.example.com/", /::ffff:192\.168\.0\.10/],
    ["https://zoned.example.com/", /fe80::1%eth0/],
    ["https://nowhere.example.com/", /host "nowhere.example.com" does not resolve/],
    ["https://empty.example.com/", /does not resolve/],
    // Refused by the classifier before any DNS.
    ["http://hooks.example.com/oisr", /must use https/],
    ["https://127.0.0.1/", /127\.0\.0\.1/],
    ["https://localhost/", /localhost/],
  ])("refuses %s", async (url, reason) => {
    const check = await checkWebhookUrl(url, { allowPrivateNetworks: false, resolve: dns });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toMatch(reason);
  });

  it("allows plain http and private hosts, without resolving, when private networks are allowed", async () => {
    const failingDns: Resolver = () => Promise.reject(new Error("no DNS in this test"));
    for (const url of ["http://127.0.0.1:3000/hook", "https://intranet.example.com/"]) {
      expect(await checkWebhookUrl(url, { allowPrivateNetworks: true, resolve: failingDns })).toMatchObject({
        ok: true,
        addresses: [],
      });
    }
    expect(await checkWebhookUrl("ftp://127.0.0.1/", { allowPrivateNetworks: true })).toMatchObject({
      ok: false,
    });
  });
});
