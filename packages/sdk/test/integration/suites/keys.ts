// The SDK against the real server: API keys (decision 013) — a restricted key does its job and is
// refused the rest with a PermissionError, rotation with and without an overlap, revocation, and
// the 409s of keys.
import { beforeAll, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  ConflictError,
  createClient,
  type OisrClient,
  PermissionError,
} from "../../../src/index.ts";
import type { TestServer } from "../harness.ts";

export const keysTests = (getServer: () => TestServer) =>
  describe("API keys", () => {
    let server: TestServer;
    let admin: OisrClient;
    const as = (token: string) => createClient({ baseUrl: server.baseUrl, token, maxRetries: 0 });

    beforeAll(async () => {
      server = getServer();
      admin = await server.newClient();
    });

    it("a restricted key does its job, and is refused the rest with a PermissionError naming the permission", async () => {
      const key = await admin.keys.create({ name: "reader", permissions: ["orders:read"] });
      expect(key).toMatchObject({
        name: "reader",
        permissions: ["orders:read"],
        status: "active",
        expires_at: null,
        prefix: key.secret.slice(0, 12),
      });
      const reader = as(key.secret);
      await reader.orders.list();
      const refused = await reader.events.list().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(PermissionError);
      expect(refused).toMatchObject({ status: 403, permission: "events:read", apiKeyId: key.id });
      expect((refused as PermissionError).message).toContain("events:read");
      expect((refused as PermissionError).message).toContain(key.id);
      // A key never grants more than the key that creates it.
      await expect(
        reader.keys.create({ name: "escalate", permissions: ["orders:read"] }),
      ).rejects.toBeInstanceOf(PermissionError);
    });

    it("creates a key with an expiry given as a Date, lists and gets it without its secret", async () => {
      const expiresAt = new Date(Date.now() + 30 * 86_400_000);
      const { data: key, response } = await admin.keys
        .create({ name: "dated", permissions: ["returns:read"], expiresAt })
        .withResponse();
      expect(response.status).toBe(201);
      expect(response.headers.get("location")).toBe(`/v2/api_keys/${key.id}`);
      expect(Date.parse(key.expires_at ?? "")).toBe(expiresAt.getTime());
      const got = await admin.keys.get(key.id);
      expect(got).not.toHaveProperty("secret");
      expect(got.id).toBe(key.id);
      const ids: string[] = [];
      for await (const k of admin.keys.iterate({ limit: 1 })) ids.push(k.id);
      expect(ids).toContain(key.id);
      expect(ids.length).toBeGreaterThanOrEqual(2);
    });

    it("rotates with the default overlap (no body), and with none: the old secret is refused with api_key_expired", async () => {
      const key = await admin.keys.create({ name: "rotating", permissions: ["orders:read"] });
      const overlapping = await admin.keys.rotate(key.id);
      expect(overlapping.secret).not.toBe(key.secret);
      expect(overlapping.previous_secret_expires_at).not.toBeNull();
      await as(key.secret).orders.list(); // still works during the overlap

      const cut = await admin.keys.rotate(key.id, { overlapSeconds: 0 });
      await as(cut.secret).orders.list();
      const old = await as(overlapping.secret)
        .orders.list()
        .catch((e: unknown) => e);
      expect(old).toBeInstanceOf(AuthenticationError);
      expect(old).toMatchObject({ status: 401, code: "api_key_expired", apiKeyId: key.id });
      expect(typeof (old as AuthenticationError).expiredAt).toBe("string");
    });

    it("revokes a key at once; a second revoke and the last admin key are ConflictErrors", async () => {
      const key = await admin.keys.create({ name: "doomed", permissions: ["orders:read"] });
      const revoked = await admin.keys.revoke(key.id);
      expect(revoked).toMatchObject({ id: key.id, status: "revoked" });
      await expect(as(key.secret).orders.list()).rejects.toMatchObject({ status: 401, code: "unauthorized" });
      await expect(admin.keys.revoke(key.id)).rejects.toMatchObject({
        status: 409,
        code: "api_key_inactive",
      });
      await expect(admin.keys.rotate(key.id)).rejects.toBeInstanceOf(ConflictError);

      const lone = await server.newClient();
      const [first] = (await lone.keys.list()).data;
      const last = await lone.keys.revoke(first?.id ?? "").catch((e: unknown) => e);
      expect(last).toBeInstanceOf(ConflictError);
      expect(last).toMatchObject({ status: 409, code: "last_admin_key" });
    });
  });
