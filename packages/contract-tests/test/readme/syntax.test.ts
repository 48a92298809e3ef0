// The READMEs' shell and JSON blocks are at least well-formed: shell blocks pass `bash -n` (an
// unclosed quote in a pasted curl command fails here), JSON blocks parse as one document or as
// JSON Lines. Running the commands that can run offline is run.test.ts's job.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import type { ReadmeBlock } from "../../src/readme.ts";
import { isShell, loadReadme, type Readme, readmeLine, readmePaths } from "./readmes.ts";

for (const path of readmePaths()) {
  const readme = loadReadme(path);
  const blocks = readme.blocks.filter((b) => isShell(b) || b.lang === "json");
  if (blocks.length === 0) continue;

  describe(readme.path, () => {
    for (const block of blocks) {
      const note = block.mode.kind === "skip" ? ` (not run: ${block.mode.reason})` : "";
      if (isShell(block)) {
        it(`:${block.line} is valid shell${note}`, () => {
          expect(shellSyntaxErrors(readme, block)).toEqual([]);
        });
      } else {
        it(`:${block.line} is valid JSON${note}`, () => {
          expect(jsonErrors(readme, block)).toEqual([]);
        });
      }
    }
  });
}

function shellSyntaxErrors(readme: Readme, block: ReadmeBlock): string[] {
  const result = spawnSync("bash", ["-n"], { input: block.code, encoding: "utf8" });
  if (result.status === 0) return [];
  // bash says `bash: line 3: …`: line 3 of the block.
  return (result.stderr || `bash -n exited ${result.status}`)
    .trim()
    .split("\n")
    .map((message) =>
      message.replace(
        /^bash: line (\d+):/,
        (_, line: string) => `${readmeLine(readme, block, Number(line))}:`,
      ),
    );
}

/** One JSON document, or else JSON Lines (one document per non-blank line). */
function jsonErrors(readme: Readme, block: ReadmeBlock): string[] {
  try {
    JSON.parse(block.code);
    return [];
  } catch {
    return block.code.split("\n").flatMap((text, i) => {
      if (text.trim() === "") return [];
      try {
        JSON.parse(text);
        return [];
      } catch (error) {
        return [`${readmeLine(readme, block, i + 1)}: ${(error as Error).message}`];
      }
    });
  }
}
