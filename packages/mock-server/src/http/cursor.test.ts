import { describe, expect, it } from "vitest";
import { CursorCodec } from "./cursor.ts";
import { HttpProblem } from "./problem.ts";

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return "accepted";
  } catch (err) {
    return err instanceof HttpProblem ? err.code : String(err);
  }
};

describe("cursors", () => {
  const codec = new CursorCodec();

  it("round-trip a position with the same filters, whatever their order", async () => {
    const cursor = await codec.encode(["W1", "SKU"], { b: "2", a: "1" });
    expect(await codec.decode(cursor, { a: "1", b: "2" })).toEqual({
      position: ["W1", "SKU"],
      filters: { a: "1", b: "2" },
    });
    expect(await codec.decode(undefined, {})).toEqual({ position: null, filters: {} });
  });

  it("list with the filters they carry when sent without any", async () => {
    const cursor = await codec.encode(7, { status: "on_hold", source: undefined });
    expect(await codec.decode(cursor, { status: undefined, source: undefined })).toEqual({
      position: 7,
      filters: { status: "on_hold" },
    });
  });

  it("refuse other filters, garbage, and every single-character change", async () => {
    const cursor = await codec.encode(42, { status: "open" });
    expect(await codeOf(codec.decode(cursor, { status: "shipped" }))).toBe("invalid_cursor");
    for (const garbage of ["x", "%%%", "null", cursor.slice(0, -4), `${cursor}AAAA`]) {
      expect(await codeOf(codec.decode(garbage, {}))).toBe("invalid_cursor");
    }
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      const replaced = alphabet[(alphabet.indexOf(cursor[i] as string) + 1) % alphabet.length];
      expect(await codeOf(codec.decode(cursor.slice(0, i) + replaced + cursor.slice(i + 1), {}))).toBe(
        "invalid_cursor",
      );
    }
  });

  it("are not valid for another mock", async () => {
    const cursor = await codec.encode(1, {});
    expect(await codeOf(new CursorCodec().decode(cursor, {}))).toBe("invalid_cursor");
  });
});
