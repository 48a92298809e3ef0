// The fenced code blocks of a README, with the README line of each, so the tests that typecheck
// and run them can name the line a reader would fix. An HTML comment right before a block says
// what the tests do with it; markers stay rare because a snippet that typechecks as written (with
// its README's prelude of free variables) needs none.
import type { Code, Html, Nodes, Parents } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";

/**
 * - `check` (no marker): TypeScript blocks are typechecked, shell blocks syntax-checked (`bash -n`),
 *   JSON blocks parsed;
 * - `run` (`<!-- readme-test: run -->`): also executed by test/readme/run.test.ts;
 * - `skip` (`<!-- readme-test: skip: <reason> -->`): only parsed, with the reason in the test name.
 */
export type BlockMode = { kind: "check" } | { kind: "run" } | { kind: "skip"; reason: string };

export interface ReadmeBlock {
  /** The info string's first word, lower-cased: `ts`, `sh`, `json`… (`""` without one). */
  lang: string;
  code: string;
  /** README line (1-based) of the block's first code line: snippet line n is README line `line + n - 1`. */
  line: number;
  mode: BlockMode;
  /** From a first line `// name.ts`: the module name other blocks import it by (`./name.ts`). */
  name: string | undefined;
}

const MARKER = /^<!--\s*readme-test:\s*([\s\S]*?)\s*-->$/;
const NAME = /^\/\/\s*([\w.-]+\.[cm]?tsx?)\s*$/;

/** Every code block of `markdown`, in order, with its marker applied. Throws on a malformed marker. */
export function readmeBlocks(markdown: string): ReadmeBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: ReadmeBlock[] = [];
  const visit = (parent: Parents) => {
    parent.children.forEach((node, i) => {
      if (node.type === "code") {
        const previous = parent.children[i - 1];
        const mode = previous?.type === "html" ? markerMode(previous) : undefined;
        blocks.push(block(node, mode ?? { kind: "check" }, lines));
        return;
      }
      if (node.type === "html" && markerMode(node)) {
        const next = parent.children[i + 1];
        if (next?.type !== "code")
          throw new Error(`line ${lineOf(node)}: a readme-test marker must precede a code block`);
      }
      if ("children" in node) visit(node);
    });
  };
  visit(fromMarkdown(markdown));
  return blocks;
}

function markerMode(node: Html): BlockMode | undefined {
  const match = MARKER.exec(node.value.trim());
  if (!match) return undefined;
  const directive = match[1] ?? "";
  if (directive === "run") return { kind: "run" };
  const skip = /^skip:\s*(\S[\s\S]*)$/.exec(directive);
  if (skip?.[1]) return { kind: "skip", reason: skip[1].replace(/\s+/g, " ") };
  throw new Error(
    `line ${lineOf(node)}: unknown readme-test marker "${directive}" (use "run" or "skip: <reason>")`,
  );
}

function block(node: Code, mode: BlockMode, lines: string[]): ReadmeBlock {
  const start = lineOf(node);
  // A fenced block's code starts on the line after its fence; an indented block's on its first line.
  const fenced = /^\s*(```|~~~)/.test(lines[start - 1] ?? "");
  const firstLine = node.value.split("\n", 1)[0] ?? "";
  return {
    lang: (node.lang ?? "").toLowerCase(),
    code: node.value,
    line: fenced ? start + 1 : start,
    mode,
    name: NAME.exec(firstLine)?.[1],
  };
}

function lineOf(node: Nodes): number {
  const line = node.position?.start.line;
  if (line === undefined) throw new Error("mdast node without a position");
  return line;
}
