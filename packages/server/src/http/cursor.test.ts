import { describe, expect, it } from "vitest";
import { createCursors } from "./cursor.ts";
import { HttpProblem } from "./problem.ts";

const cursors = createCursors("test-secret");

function expectInvalid(fn: () => unknown) {
  try {
    fn();
    expect.unreachable();
  } catch (err) {
    expect(err).toBeInstanceOf(HttpProblem);
    expect((err as HttpProblem).status).toBe(400);
    expect((err as HttpProblem).code).toBe("invalid_cursor");
  }
}

describe("signed cursors", () => {
  const cursor = cursors.encode("acc_A", 42, { status: "open", source: "shopify" });

  it("round-trips a position with the same filters, whatever their order", () => {
    expect(cursors.decode("acc_A", cursor, { source: "shopify", status: "open" })).toEqual({
      position: 42,
      filters: { source: "shopify", status: "open" },
    });
  });

  it("keeps the filters it carries when sent without any", () => {
    expect(cursors.decode("acc_A", cursor, {}).filters).toEqual({ source: "shopify", status: "open" });
  });

  it("treats an absent cursor as the start, with the filters sent", () => {
    expect(cursors.decode("acc_A", undefined, { status: "open" })).toEqual({
      position: null,
      filters: { status: "open" },
    });
  });

  it("refuses a cursor sent with other filters", () => {
    expectInvalid(() => cursors.decode("acc_A", cursor, { status: "shipped" }));
  });

  it("refuses another account's cursor", () => {
    expectInvalid(() => cursors.decode("acc_B", cursor, {}));
  });

  it("refuses a cursor signed with another key", () => {
    expectInvalid(() => createCursors("other-secret").decode("acc_A", cursor, {}));
  });

  it("refuses every single-character change", () => {
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
    for (let i = 0; i < cursor.length; i++) {
      const next = alphabet[(alphabet.indexOf(cursor[i] as string) + 1) % alphabet.length];
      expectInvalid(() => cursors.decode("acc_A", cursor.slice(0, i) + next + cursor.slice(i + 1), {}));
    }
  });

  it.each(["x", "%%%", "a.b", `${cursor}.x`, cursor.slice(0, -2)])("refuses the garbage %j", (garbage) => {
    expectInvalid(() => cursors.decode("acc_A", garbage, {}));
  });
});
