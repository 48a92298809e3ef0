import { describe, expect, it } from "vitest";
import { checkWebhookUrl } from "./url-check.ts";

describe("webhook URL rules (no DNS)", () => {
  it.each([
    ["https://hooks.example.com/oisr", true],
    ["https://8.8.8.8/h", true],
    ["https://[2606:4700::1111]/h", true],
    ["http://hooks.example.com/oisr", false],
    ["ftp://hooks.example.com", false],
    ["not a url", false],
    ["https://localhost/h", false],
    ["https://api.localhost/h", false],
    ["https://127.0.0.1/h", false],
    ["https://10.1.2.3/h", false],
    ["https://172.20.0.1/h", false],
    ["https://192.168.1.1/h", false],
    ["https://169.254.169.254/latest", false],
    ["https://0x7f000001/h", false],
    ["https://[::1]/h", false],
    ["https://[fd00::1]/h", false],
    ["https://[fe80::1]/h", false],
    ["https://[::ffff:127.0.0.1]/h", false],
  ])("%s allowed: %s", (url, allowed) => {
    expect(checkWebhookUrl(url, false).ok).toBe(allowed);
  });

  it("allows http and private hosts when private networks are allowed", () => {
    expect(checkWebhookUrl("http://127.0.0.1:3000/h", true).ok).toBe(true);
    expect(checkWebhookUrl("ftp://127.0.0.1/h", true)).toEqual({ ok: false, reason: "must use https" });
  });

  it("explains a refusal the way the server does", () => {
    expect(checkWebhookUrl("https://10.0.0.1/h", false)).toEqual({
      ok: false,
      reason: 'host "10.0.0.1" resolves to 10.0.0.1, a private, loopback, link-local or reserved address',
    });
  });
});
