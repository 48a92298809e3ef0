// API keys (decision 013), part 2: a key's life. Rotation (a new secret, the old one kept for an
// overlap: 24 h by default, 0 for a leak), revocation (the very next call is 401; never the
// account's last admin key), expiry (401 api_key_expired once expires_at passes, on the target's
// own clock: a real wait of about three seconds). Part 1: api-keys.test.ts.
import { describe, expect, it } from "vitest";
import {
  clientWith,
  expectExpired,
  expectForbidden,
  expectUnauthorized,
  fromNow,
  listKeys,
  makeKey,
  ownKeyId,
  SECRET,
} from "../src/api-keys.ts";
import { expectProblem, useSystem } from "../src/harness.ts";
import { sleep } from "../src/poll.ts";
import { targets } from "../src/targets.ts";

const DAY_S = 86_400;

describe.each(targets)("API keys: rotation, revocation, expiry — $name", (target) => {
  const h = useSystem(target);

  describe("rotation", () => {
    it("gives a new secret; the old one keeps working for the default overlap of 24 hours", async () => {
      const admin = await h.account();
      const { key, as: old } = await makeKey(admin, ["orders:read"]);
      const before = Date.now();
      const res = await admin.post(`/api_keys/${key.id}/rotate`, {});
      expect(res.status, res.text).toBe(200);
      const rotated = res.body;
      expect(rotated.secret).toMatch(SECRET);
      expect(rotated.secret).not.toBe(key.secret);
      expect(rotated).toMatchObject({
        id: key.id,
        name: key.name,
        permissions: key.permissions,
        created_at: key.created_at,
        created_by: key.created_by,
        expires_at: null,
        status: "active",
        prefix: rotated.secret.slice(0, 12),
        revoked_at: null,
      });
      const rotatedAt = Date.parse(rotated.rotated_at);
      expect(rotatedAt).toBeGreaterThanOrEqual(before - 1000);
      expect(rotatedAt).toBeLessThanOrEqual(Date.now() + 1000);
      const overlapEnd = Date.parse(rotated.previous_secret_expires_at);
      expect(Math.abs(overlapEnd - (rotatedAt + DAY_S * 1000))).toBeLessThanOrEqual(2000);
      // Both secrets work; the key as read shows the overlap and no secret.
      const fresh = clientWith(admin, rotated.secret);
      expect((await fresh.get("/orders")).status).toBe(200);
      expect((await old.get("/orders")).status).toBe(200);
      const { secret, ...shown } = rotated;
      const got = await admin.get(`/api_keys/${key.id}`);
      expect(got.body).toEqual({ ...shown, last_used_at: got.body.last_used_at });
      expect(got.text).not.toContain(secret);
    });

    it("with overlap_seconds 0 the old secret is refused at once: 401 api_key_expired with expired_at and the key's id", async () => {
      const admin = await h.account();
      const { key, as: old } = await makeKey(admin, ["orders:read"]);
      expect((await old.get("/orders")).status).toBe(200);
      const res = await admin.post(`/api_keys/${key.id}/rotate`, { overlap_seconds: 0 });
      expect(res.status, res.text).toBe(200);
      const refused = expectExpired(await old.get("/orders"), key.id);
      expect(Date.parse(refused.expired_at)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(Date.parse(refused.expired_at)).toBeGreaterThanOrEqual(Date.parse(res.body.rotated_at) - 1000);
      expect((await clientWith(admin, res.body.secret).get("/orders")).status).toBe(200);
      expect((await admin.get(`/api_keys/${key.id}`)).body).toMatchObject({
        status: "active",
        previous_secret_expires_at: null,
      });
    });

    it("works with no body at all, and a secret replaced earlier keeps its own end", async () => {
      const admin = await h.account();
      const { key, as: first } = await makeKey(admin, ["orders:read"]);
      const noBody = await admin.request("POST", `/api_keys/${key.id}/rotate`);
      expect(noBody.status, noBody.text).toBe(200);
      const second = clientWith(admin, noBody.body.secret);
      // Rotating again, ending the second secret at once, leaves the first its 24 hours.
      const again = await admin.post(`/api_keys/${key.id}/rotate`, { overlap_seconds: 0 });
      expect(again.status, again.text).toBe(200);
      expectExpired(await second.get("/orders"), key.id);
      expect((await first.get("/orders")).status).toBe(200);
      expect((await clientWith(admin, again.body.secret).get("/orders")).status).toBe(200);
    });

    it.each([
      ["more than 7 days", { overlap_seconds: 604_801 }, "maximum"],
      ["a negative overlap", { overlap_seconds: -1 }, "minimum"],
      ["a fractional overlap", { overlap_seconds: 1.5 }, "type"],
      ["an unknown member", { overlap: 60 }, "additionalProperties"],
    ])("%s is a 400 and changes nothing", async (_name, body, code) => {
      const admin = await h.account();
      const { key, as } = await makeKey(admin, ["orders:read"]);
      const problem = expectProblem(
        await admin.post(`/api_keys/${key.id}/rotate`, body),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([expect.objectContaining({ code })]);
      expect((await admin.get(`/api_keys/${key.id}`)).body).toMatchObject({
        rotated_at: null,
        prefix: key.prefix,
      });
      expect((await as.get("/orders")).status).toBe(200);
    });

    it("the last admin key may rotate itself and goes on with the new secret", async () => {
      const admin = await h.account();
      const id = await ownKeyId(admin);
      const res = await admin.post(`/api_keys/${id}/rotate`, { overlap_seconds: 0 });
      expect(res.status, res.text).toBe(200);
      expectExpired(await admin.get("/api_keys"), id);
      expect(await listKeys(clientWith(admin, res.body.secret))).toHaveLength(1);
    });

    it("a key may rotate only keys that grant nothing it lacks: api_keys:write alone cannot take an admin secret", async () => {
      const admin = await h.account();
      const adminId = await ownKeyId(admin);
      const { key: manager, as: asManager } = await makeKey(admin, ["api_keys:write", "orders:read"]);
      const refused = await asManager.post(`/api_keys/${adminId}/rotate`, { overlap_seconds: 0 });
      const body = expectForbidden(refused, "ingest:write", manager.id, { afterBody: true });
      expect(body.detail).toContain(adminId);
      expect(refused.text).not.toMatch(/oisr_[A-Za-z0-9_-]{43}/);
      // Nothing changed: the admin secret still works and was not rotated.
      expect((await admin.get(`/api_keys/${adminId}`)).body).toMatchObject({
        rotated_at: null,
        status: "active",
      });
      // A key within the manager's permissions may be rotated by it.
      const { key: reader } = await makeKey(admin, ["orders:read"]);
      const ok = await asManager.post(`/api_keys/${reader.id}/rotate`, {});
      expect(ok.status, ok.text).toBe(200);
    });
  });

  describe("revocation", () => {
    it("is 200 with status revoked; the secret is 401 unauthorized on the very next call; a second revocation and a rotation are 409 api_key_inactive", async () => {
      const admin = await h.account();
      const { key, as } = await makeKey(admin, ["orders:read", "ingest:write"]);
      expect((await as.get("/orders")).status).toBe(200);
      const res = await admin.request("DELETE", `/api_keys/${key.id}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ id: key.id, status: "revoked", revoked_at: expect.any(String) });
      expect(res.body.secret).toBeUndefined();
      expectUnauthorized(await as.get("/orders"));
      expectUnauthorized(await as.post("/ingest/orders", { orders: [] }));
      for (const again of [
        await admin.request("DELETE", `/api_keys/${key.id}`),
        await admin.post(`/api_keys/${key.id}/rotate`, {}),
      ]) {
        expect(expectProblem(again, 409, "api_key_inactive").api_key_id).toBe(key.id);
      }
      // It stays listed, revoked.
      expect((await listKeys(admin)).find((k) => k.id === key.id)).toMatchObject({
        status: "revoked",
        revoked_at: res.body.revoked_at,
      });
    });

    it("a key revoked during its rotation overlap takes both its secrets with it", async () => {
      const admin = await h.account();
      const { key, as: old } = await makeKey(admin, ["orders:read"]);
      const rotated = await admin.post(`/api_keys/${key.id}/rotate`, { overlap_seconds: 3600 });
      const fresh = clientWith(admin, rotated.body.secret);
      expect((await admin.request("DELETE", `/api_keys/${key.id}`)).status).toBe(200);
      expectUnauthorized(await old.get("/orders"));
      expectUnauthorized(await fresh.get("/orders"));
      expect((await admin.get(`/api_keys/${key.id}`)).body.previous_secret_expires_at).toBeNull();
    });

    it("the account's last active admin key cannot be revoked (409 last_admin_key); after a second admin key exists it can, even by itself", async () => {
      const admin = await h.account();
      const id = await ownKeyId(admin);
      // A restricted key, even one that reads keys, does not count as an admin.
      await makeKey(admin, ["api_keys:read", "orders:read"]);
      const refused = expectProblem(await admin.request("DELETE", `/api_keys/${id}`), 409, "last_admin_key");
      expect(refused.api_key_id).toBe(id);
      expect((await admin.get("/orders")).status).toBe(200);
      const second = await makeKey(admin, ["api_keys:write"]);
      const revoked = await admin.request("DELETE", `/api_keys/${id}`);
      expect(revoked.status, revoked.text).toBe(200);
      expectUnauthorized(await admin.get("/orders"));
      // Now the second is the last admin key.
      expectProblem(await second.as.request("DELETE", `/api_keys/${second.key.id}`), 409, "last_admin_key");
      expect((await second.as.get("/api_keys")).status).toBe(200);
    });
  });

  it("expiry: a key works until expires_at, then is 401 api_key_expired; an expired key cannot be rotated (409) but may be revoked, and is no admin", async () => {
    const admin = await h.account();
    const adminId = await ownKeyId(admin);
    const expiresAt = fromNow(2500);
    const { key, as } = await makeKey(admin, ["orders:read"], { expires_at: expiresAt });
    // A second admin key expiring at the same instant.
    const { key: shortKey, as: shortAdmin } = await makeKey(admin, ["api_keys:write", "orders:read"], {
      expires_at: expiresAt,
    });
    expect(key.expires_at).toBe(expiresAt);
    expect((await as.get("/orders")).status).toBe(200);
    expect((await shortAdmin.get("/api_keys")).status).toBe(200);
    await sleep(Date.parse(expiresAt) - Date.now() + 500);
    const refused = expectExpired(await as.get("/orders"), key.id);
    expect(refused.expired_at).toBe(expiresAt);
    expect(refused.detail).toContain(key.id);
    expectExpired(await shortAdmin.get("/api_keys"), shortKey.id);
    expect((await admin.get(`/api_keys/${key.id}`)).body).toMatchObject({
      status: "expired",
      revoked_at: null,
    });
    const rotate = await admin.post(`/api_keys/${key.id}/rotate`, {});
    expect(expectProblem(rotate, 409, "api_key_inactive").api_key_id).toBe(key.id);
    // Revoking it is allowed (once): it is then revoked for good, whatever its expiry.
    const revoked = await admin.request("DELETE", `/api_keys/${key.id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
    expectProblem(await admin.request("DELETE", `/api_keys/${key.id}`), 409, "api_key_inactive");
    // The expired admin key no longer counts: the first one is the last active admin again.
    expectProblem(await admin.request("DELETE", `/api_keys/${adminId}`), 409, "last_admin_key");
  });
});
