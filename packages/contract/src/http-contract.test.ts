import { describe, expect, it } from "vitest";
import { jsonTextMayHoldUnstorable, unstorableStringPointer } from "./http-contract.ts";

describe("strings PostgreSQL cannot store", () => {
  it.each([
    [{ orders: [{ note: "ok" }] }, null],
    [{ orders: [{ note: "a\u0000b" }] }, "/orders/0/note"],
    [{ orders: [{ lines: [{ sku: "\uD800" }] }] }, "/orders/0/lines/0/sku"],
    [{ orders: [{ metadata: { "k/\u0000": "v" } }] }, "/orders/0/metadata/k~1\u0000"],
    [{ x: "\uDC00 lone low" }, "/x"],
    [{ x: "😀 a proper pair" }, null],
    [{ x: "\\u0000 is six printable characters" }, null],
    [{ x: "\\ud800 too" }, null],
    [{ x: "\uDBFF\uDFFF the last pair" }, null],
    [{ x: "\uDBFF" }, "/x"],
  ])("%j → %s", (body, pointer) => {
    expect(unstorableStringPointer(body)).toBe(pointer);
    // The same answer when the JSON text is scanned first: the scan never clears an unstorable body.
    const cleared = !jsonTextMayHoldUnstorable(JSON.stringify(body));
    expect(cleared ? null : unstorableStringPointer(body)).toBe(pointer);
  });
});
