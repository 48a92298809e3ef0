// Every TypeScript block of the READMEs compiles as a user would paste it: imports resolve to the
// workspace's built packages (`@oisr/sdk`, `@oisr/mock-server`), free variables of fragments come
// from the README's prelude (test/readme/preludes/<readme>.d.ts), and a failure names the README
// line. Blocks marked `skip` are only parsed. Needs the packages built (turbo builds them first).
import { beforeAll, describe, expect, it } from "vitest";
import { preludeOf, syntaxErrors, type TypecheckResult, typecheck } from "./compile.ts";
import { isTypeScript, loadReadme, readmePaths, type Snippet, writeSnippets } from "./readmes.ts";

for (const path of readmePaths()) {
  const readme = loadReadme(path);
  const blocks = readme.blocks.filter(isTypeScript);
  if (blocks.length === 0) continue;
  const checked = blocks.filter((b) => b.mode.kind !== "skip");

  describe(readme.path, () => {
    let snippets: Snippet[];
    let result: TypecheckResult;
    beforeAll(() => {
      snippets = writeSnippets(readme, "typecheck", checked).snippets;
      result = typecheck(readme, snippets);
    });

    for (const block of blocks) {
      const { mode } = block;
      if (mode.kind === "skip") {
        it(`:${block.line} parses (not typechecked: ${mode.reason})`, () => {
          expect(syntaxErrors(readme, { block })).toEqual([]);
        });
        continue;
      }
      it(`:${block.line} typechecks`, () => {
        const snippet = snippets.find((s) => s.block === block);
        expect(snippet && result.bySnippet.get(snippet.file)).toEqual([]);
      });
    }

    const prelude = preludeOf(readme);
    it(`${prelude ? "its prelude and " : ""}the packages it imports typecheck`, () => {
      expect(result.elsewhere).toEqual([]);
    });
    if (prelude) {
      it("its prelude declares only what its blocks use", () => {
        expect(result.unusedPrelude).toEqual([]);
      });
    }
  });
}
