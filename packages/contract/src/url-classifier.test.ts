import { describe, expect, it } from "vitest";
import {
  type AddressCategory,
  classifyAddress,
  classifyWebhookUrl,
  FORBIDDEN_ADDRESS,
  forbiddenAddress,
  ipFamily,
  refusedAddress,
} from "./url-classifier.ts";

describe("classifyAddress", () => {
  it.each<[string, AddressCategory]>([
    ["0.0.0.0", "this-network"],
    ["0.1.2.3", "this-network"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["169.254.169.254", "link-local"],
    ["172.16.0.1", "private"],
    ["172.31.255.254", "private"],
    ["192.0.0.8", "ietf-protocol"],
    ["192.0.2.1", "documentation"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::102:304", "ipv4-compatible"],
    ["::1.2.3.4", "ipv4-compatible"],
    ["100::1", "discard"],
    ["2001:db8::1", "documentation"],
    ["fc00::", "private"],
    ["fd12:3456:789a::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["FF02::1", "multicast"],
    // IPv4-mapped and NAT64 addresses are what they carry.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["0:0:0:0:0:ffff:a9fe:a9fe", "link-local"],
    ["64:ff9b::a00:1", "private"],
    ["::ffff:8.8.8.8", "public"],
    ["64:ff9b::808:808", "public"],
    ["93.184.216.34", "public"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["172.15.255.255", "public"],
    ["100.128.0.1", "public"],
    ["100.63.255.255", "public"],
    ["11.0.0.1", "public"],
    ["198.20.0.1", "public"],
    ["223.255.255.255", "public"],
    ["2606:4700:4700::1111", "public"],
    ["2001:db9::1", "public"],
    ["fe00::1", "public"],
    ["::1:0:0:1", "public"],
  ])("%s is %s", (address, category) => {
    expect(classifyAddress(address)).toBe(category);
    expect(forbiddenAddress(address)).toBe(category === "public" ? null : FORBIDDEN_ADDRESS);
  });

  it.each([
    "",
    "example.com",
    "1.2.3",
    "1.2.3.4.5",
    "256.0.0.1",
    "01.2.3.4",
    "1.2.3.-1",
    "1::2::3",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7::8",
    "12345::1",
    "g::1",
    "::ffff:1.2.3.256",
    ":1::",
  ])("%j is not an IP address", (text) => {
    expect(classifyAddress(text)).toBeUndefined();
    expect(ipFamily(text)).toBe(0);
    expect(forbiddenAddress(text)).toBe("not an IP address");
  });

  it.each([
    ["1.2.3.4", 4],
    ["::", 6],
    ["1:2:3:4:5:6:7::", 6],
    ["::2:3:4:5:6:7:8", 6],
    ["1:2:3:4:5:6:1.2.3.4", 6],
    ["fe80::1%25eth0", 6],
  ] as const)("%s is IPv%i", (text, family) => {
    expect(ipFamily(text)).toBe(family);
  });
});

describe("refusedAddress", () => {
  it("names the first forbidden address of a host, whatever its position", () => {
    const addresses = [
      { address: "93.184.216.34", family: 4 },
      { address: "127.0.0.1", family: 4 },
    ] as const;
    expect(refusedAddress("sneaky.example.com", addresses)).toBe(
      `host "sneaky.example.com" resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}`,
    );
    expect(refusedAddress("hooks.example.com", [{ address: "2606:2800:220:1::1", family: 6 }])).toBeNull();
  });
});

describe("classifyWebhookUrl", () => {
  it.each([
    ["https://hooks.example.com/oisr", "hooks.example.com"],
    ["https://HOOKS.Example.com:8443/oisr?x=1", "hooks.example.com"],
  ])("leaves a host name (%s) to be resolved", (raw, host) => {
    expect(classifyWebhookUrl(raw, false)).toMatchObject({
      ok: true,
      host,
      addresses: [],
      mustResolve: true,
    });
  });

  it.each([
    ["https://8.8.8.8/h", "8.8.8.8", 4],
    ["https://[2606:4700::1111]/h", "2606:4700::1111", 6],
    ["https://134744072/h", "8.8.8.8", 4],
  ] as const)("accepts the public literal of %s as its one address", (raw, address, family) => {
    expect(classifyWebhookUrl(raw, false)).toMatchObject({
      ok: true,
      host: address,
      addresses: [{ address, family }],
      mustResolve: false,
    });
  });

  it.each([
    ["http://hooks.example.com/oisr", "must use https"],
    ["ftp://hooks.example.com/", "must use https"],
    ["not a url", "must be an absolute URL"],
    ["/relative/path", "must be an absolute URL"],
    ["https://localhost/h", `host "localhost" resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}`],
    ["https://api.localhost/h", `host "api.localhost" resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}`],
    ["https://localhost./h", `host "localhost." resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}`],
    ["https://127.0.0.1/h", `host "127.0.0.1" resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}`],
    ["https://10.1.2.3/h", `host "10.1.2.3" resolves to 10.1.2.3, ${FORBIDDEN_ADDRESS}`],
    [
      "https://169.254.169.254/latest",
      `host "169.254.169.254" resolves to 169.254.169.254, ${FORBIDDEN_ADDRESS}`,
    ],
    // The URL parser makes these canonical before the table sees them.
    ["https://2130706433/", `host "127.0.0.1" resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}`],
    ["https://0x7f000001/h", `host "127.0.0.1" resolves to 127.0.0.1, ${FORBIDDEN_ADDRESS}`],
    ["https://[::1]:8443/", `host "::1" resolves to ::1, ${FORBIDDEN_ADDRESS}`],
    ["https://[fd00::1]/h", `host "fd00::1" resolves to fd00::1, ${FORBIDDEN_ADDRESS}`],
    [
      "https://[::ffff:169.254.169.254]/",
      `host "::ffff:a9fe:a9fe" resolves to ::ffff:a9fe:a9fe, ${FORBIDDEN_ADDRESS}`,
    ],
  ])("refuses %s: %s", (raw, reason) => {
    expect(classifyWebhookUrl(raw, false)).toEqual({ ok: false, reason });
  });

  it("allows plain http and any host, with nothing to resolve, when private networks are allowed", () => {
    for (const raw of [
      "http://127.0.0.1:3000/hook",
      "https://localhost/h",
      "https://intranet.example.com/",
    ]) {
      expect(classifyWebhookUrl(raw, true)).toMatchObject({ ok: true, addresses: [], mustResolve: false });
    }
    expect(classifyWebhookUrl("ftp://127.0.0.1/h", true)).toEqual({ ok: false, reason: "must use https" });
  });
});
