import { describe, expect, it } from "vitest";
import { describeJsonError, jsonErrorOffset } from "./json-error.ts";

describe("jsonErrorOffset", () => {
  it.each([
    "{}",
    "[]",
    " null ",
    "1",
    "-0.5e+10",
    '"a\\u00e9\\n"',
    '{"a": [1, true, false, null, {"b": "c"}], "d": {}}',
    "\r\n\t[ ]\n",
  ])("is -1 for valid JSON %j", (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(jsonErrorOffset(text)).toBe(-1);
  });

  it.each([
    ['{"a": }', 6],
    ["[1,]", 3],
    ['{"a" 1}', 5],
    ['{"a": 1,}', 8],
    ["{'a': 1}", 1],
    ['{"a":', 5],
    ["", 0],
    ["nul", 3],
    ["nulx", 3],
    ['"abc', 4],
    ['"a\nb"', 2],
    ['"\\x"', 2],
    ['"\\u12g4"', 3],
    ["01", 1],
    ["1.", 1],
    ["-", 0],
    ["{} {}", 3],
    ["[1 2]", 3],
    ["\uFEFF{}", 0],
  ])("finds where %j breaks (%i), which JSON.parse refuses", (text, offset) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(jsonErrorOffset(text)).toBe(offset);
  });
});

describe("describeJsonError", () => {
  it("names the token, line and column (1-based)", () => {
    expect(describeJsonError('{\n  "orders": [\n    }\n')).toBe("Unexpected token } at line 3, column 5");
    expect(describeJsonError('{"a": }')).toBe("Unexpected token } at line 1, column 7");
  });

  it("says where the text ended too early", () => {
    expect(describeJsonError('{\n  "a":')).toBe("Unexpected end of input at line 2, column 7");
    expect(describeJsonError("")).toBe("Unexpected end of input at line 1, column 1");
  });

  it("names anything but printable ASCII by code point, not raw", () => {
    expect(describeJsonError('"a\nb"')).toBe("Unexpected character U+000A at line 1, column 3");
    expect(describeJsonError("\uFEFF{}")).toBe("Unexpected character U+FEFF at line 1, column 1");
    expect(describeJsonError("[é]")).toBe("Unexpected character U+00E9 at line 1, column 2");
  });

  it("is undefined for valid JSON", () => {
    expect(describeJsonError('{"a": [1]}')).toBeUndefined();
  });
});
