// src/readme.ts: which blocks the README tests see, at which README line, with which marker.
import { describe, expect, it } from "vitest";
import { readmeBlocks } from "../../src/readme.ts";

describe("readmeBlocks", () => {
  it("gives each fenced block its language, code and the README line of its first code line", () => {
    const markdown = ["# Title", "", "```ts", "const a = 1;", "```", "", "```sh", "echo hi", "```", ""].join(
      "\n",
    );
    expect(readmeBlocks(markdown)).toEqual([
      { lang: "ts", code: "const a = 1;", line: 4, mode: { kind: "check" }, name: undefined },
      { lang: "sh", code: "echo hi", line: 8, mode: { kind: "check" }, name: undefined },
    ]);
  });

  it("applies the marker right before a block, with or without a blank line between", () => {
    const markdown = [
      "<!-- readme-test: run -->",
      "```ts",
      "run();",
      "```",
      "",
      "<!-- readme-test: skip: needs a database -->",
      "",
      "```sh",
      "psql",
      "```",
      "",
      "```ts",
      "checked();",
      "```",
    ].join("\n");
    expect(readmeBlocks(markdown).map((b) => [b.line, b.mode])).toEqual([
      [3, { kind: "run" }],
      [9, { kind: "skip", reason: "needs a database" }],
      [13, { kind: "check" }],
    ]);
  });

  it("names a block by a first line `// name.ts`", () => {
    const markdown = [
      "```ts",
      "// sync-orders.ts",
      "export {};",
      "```",
      "```ts",
      "// not a name",
      "```",
    ].join("\n");
    expect(readmeBlocks(markdown).map((b) => b.name)).toEqual(["sync-orders.ts", undefined]);
  });

  it("finds blocks inside lists, and keeps an indented block's own first line", () => {
    const markdown = [
      "- item:",
      "",
      "  ```ts",
      "  nested();",
      "  ```",
      "",
      "text",
      "",
      "    indented();",
    ].join("\n");
    expect(readmeBlocks(markdown).map((b) => [b.lang, b.code, b.line])).toEqual([
      ["ts", "nested();", 4],
      ["", "indented();", 9],
    ]);
  });

  it("ignores other HTML comments", () => {
    expect(readmeBlocks("<!-- a note -->\n```ts\nx();\n```\n")[0]?.mode).toEqual({ kind: "check" });
  });

  it("refuses a skip without a reason, an unknown marker, and a marker before no block", () => {
    expect(() => readmeBlocks("<!-- readme-test: skip: -->\n```ts\nx();\n```\n")).toThrow(
      'line 1: unknown readme-test marker "skip:"',
    );
    expect(() => readmeBlocks("<!-- readme-test: typecheck -->\n```ts\nx();\n```\n")).toThrow(
      'line 1: unknown readme-test marker "typecheck"',
    );
    expect(() => readmeBlocks("text\n\n<!-- readme-test: run -->\n\nmore text\n")).toThrow(
      "line 3: a readme-test marker must precede a code block",
    );
  });
});
