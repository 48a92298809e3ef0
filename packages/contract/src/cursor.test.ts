import { describe, expect, it } from "vitest";
import { base64url } from "./base64.ts";
import { createCursorCodec, type Filters } from "./cursor.ts";
import { HttpProblem } from "./problems.ts";

const codec = createCursorCodec("test-secret");
const accountA = codec.forAccount("acc_A");

async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "accepted";
  } catch (err) {
    return err instanceof HttpProblem ? `${err.status} ${err.code}` : String(err);
  }
}

describe("page cursors", () => {
  it.each<[string, unknown, Filters, Filters, Filters]>([
    [
      "a number, filters in another order",
      42,
      { status: "open", source: "shopify" },
      { source: "shopify", status: "open" },
      { source: "shopify", status: "open" },
    ],
    ["a key pair, no filters", ["W1", "SKU"], {}, {}, {}],
    [
      "a string, sent without its filters",
      "whs_1",
      { status: "on_hold", source: undefined },
      { status: undefined },
      { status: "on_hold" },
    ],
    ["empty filters dropped", 7, { status: "", sku: "A" }, { sku: "A", status: "" }, { sku: "A" }],
  ])("round-trip %s", async (_case, position, made, sent, listed) => {
    const cursor = await accountA.encode(position, made);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await accountA.decode(cursor, sent)).toEqual({ position, filters: listed });
  });

  it.each<[string, unknown, Filters, Filters]>([
    ["undefined", undefined, { status: "open", kind: undefined }, { status: "open" }],
    ["an empty string", "", {}, {}],
    ["not a string", ["a", "b"], { kind: "orders" }, { kind: "orders" }],
  ])(
    "start from the beginning, with the filters sent, for a cursor that is %s",
    async (_case, cursor, sent, listed) => {
      expect(await accountA.decode(cursor, sent)).toEqual({ position: null, filters: listed });
    },
  );

  it("are good for another codec with the same key (every server process shares it)", async () => {
    const cursor = await accountA.encode(3, { status: "open" });
    expect(await createCursorCodec("test-secret").forAccount("acc_A").decode(cursor, {})).toEqual({
      position: 3,
      filters: { status: "open" },
    });
  });

  it.each<[string, () => Promise<unknown>]>([
    [
      "other filters",
      async () => accountA.decode(await accountA.encode(1, { status: "open" }), { status: "shipped" }),
    ],
    [
      "an extra filter",
      async () =>
        accountA.decode(await accountA.encode(1, { status: "open" }), { status: "open", source: "pos" }),
    ],
    [
      "a filter where it had none",
      async () => accountA.decode(await accountA.encode(1, {}), { source: "pos" }),
    ],
    ["another account", async () => codec.forAccount("acc_B").decode(await accountA.encode(1, {}), {})],
    [
      "another key",
      async () =>
        createCursorCodec("other-secret")
          .forAccount("acc_A")
          .decode(await accountA.encode(1, {}), {}),
    ],
    [
      "another key given as bytes",
      async () =>
        createCursorCodec(new Uint8Array(32))
          .forAccount("acc_A")
          .decode(await accountA.encode(1, {}), {}),
    ],
  ])("refuse %s with 400 invalid_cursor", async (_case, attempt) => {
    expect(await outcome(attempt())).toBe("400 invalid_cursor");
  });

  it("say why when the filters differ", async () => {
    const cursor = await accountA.encode(1, { status: "open" });
    await expect(accountA.decode(cursor, { status: "shipped" })).rejects.toThrow(/other filters/);
  });

  it("refuse garbage and every single-character change", async () => {
    const cursor = await accountA.encode(42, { status: "open" });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const changed = Array.from(cursor, (char, i) => {
      const next = alphabet[(alphabet.indexOf(char) + 1) % alphabet.length] as string;
      return cursor.slice(0, i) + next + cursor.slice(i + 1);
    });
    const garbage = ["x", "%%%", "null", "a.b", cursor.slice(0, -4), `${cursor}AAAA`, `${cursor}=`];
    const accepted: string[] = [];
    for (const bad of [...garbage, ...changed]) {
      const result = await outcome(accountA.decode(bad, {}));
      if (result !== "400 invalid_cursor") accepted.push(`${bad}: ${result}`);
    }
    expect(accepted).toEqual([]);
  });

  it("refuse a correctly signed payload that is not a cursor", async () => {
    // The tag is checked before the JSON is read, so only a key holder could make one of these;
    // still, what it decodes to must be a position and filters.
    const forge = async (json: string) => {
      const payload = new TextEncoder().encode(json);
      const key = await globalThis.crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode("test-secret"),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const signed = new Uint8Array([...new TextEncoder().encode("acc_A"), 0, ...payload]);
      const tag = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, signed), 0, 16);
      return base64url(new Uint8Array([...payload, ...tag]));
    };
    expect(await outcome(accountA.decode(await forge(JSON.stringify({ p: 1, f: {} })), {}))).toBe("accepted");
    for (const json of ["null", "[]", '{"f":{}}', '{"p":1}', '{"p":1,"f":null}', "{"]) {
      expect(await outcome(accountA.decode(await forge(json), {})), json).toBe("400 invalid_cursor");
    }
  });
});
