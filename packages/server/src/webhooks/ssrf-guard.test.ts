import { describe, expect, it } from "vitest";
import { checkWebhookUrl, forbiddenAddress, type Resolver } from "./ssrf-guard.ts";

describe("forbiddenAddress", () => {
  it.each([
    "127.0.0.1",
    "127.8.9.10",
    "10.0.0.1",
    "10.255.255.255",
    "172.16.0.1",
    "172.31.255.254",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "100.127.255.255",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fc00::",
    "fd12:3456:789a::1",
    "fe80::1",
    "fe80::1%eth0",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "0:0:0:0:0:ffff:a9fe:a9fe",
    "64:ff9b::a00:1",
  ])("refuses %s", (address) => {
    expect(forbiddenAddress(address)).not.toBeNull();
  });

  it.each([
    "93.184.216.34",
    "8.8.8.8",
    "172.32.0.1",
    "100.128.0.1",
    "11.0.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
  ])("allows the public address %s", (address) => {
    expect(forbiddenAddress(address)).toBeNull();
  });
});

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
  });

  it.each([
    ["http://hooks.example.com/oisr", /https/],
    ["ftp://hooks.example.com/", /https/],
    ["not a url", /absolute URL/],
    ["https://intranet.example.com/", /10\.1\.2\.3/],
    ["https://sneaky.example.com/", /127\.0\.0\.1/],
    ["https://mapped.example.com/", /::ffff:192\.168\.0\.10/],
    ["https://nowhere.example.com/", /does not resolve/],
    ["https://empty.example.com/", /does not resolve/],
    ["https://127.0.0.1/", /127\.0\.0\.1/],
    ["https://[::1]:8443/", /::1/],
    ["https://[::ffff:169.254.169.254]/", /::ffff:a9fe:a9fe/],
    ["https://2130706433/", /127\.0\.0\.1/],
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
      });
    }
    expect(await checkWebhookUrl("ftp://127.0.0.1/", { allowPrivateNetworks: true })).toMatchObject({
      ok: false,
    });
  });
});
