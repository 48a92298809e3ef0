// Every document a source file or a doc sends its reader to is in this repository. The product
// rules live in docs/product.md (cited as `docs/product.md §N`), the wire format in
// spec/openapi.yaml, the reasons in docs/decisions/. This fails on a citation of a document that
// is not here (the product document the project started from, or a `shared/` folder beside the
// repository), on a relative Markdown link that leaves the repository or names a missing file, and
// on a `docs/product.md §N` or link that names a section docs/product.md does not have.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./readme/readmes.ts";

/** Where sources and docs live; every package is scanned whole (README, src, test, bin, scripts…). */
const ROOTS = ["packages", "examples", "bench", "scripts", "docs", "spec", "README.md"];
/** Build output, installed packages and generated code: not written by anyone here. */
const SKIPPED_DIRECTORIES = new Set(["node_modules", "dist", "generated"]);
const TEXT_FILE = /\.(?:[cm]?[jt]sx?|md|sql|ya?ml|json|sh)$/;
const THIS_FILE = "packages/contract-tests/test/repository-references.test.ts";

/** Citations of documents that are not in the repository, each with what to write instead. */
const OUTSIDE_REFERENCES: { pattern: RegExp; instead: string }[] = [
  // `CONTRACT.md`, `shared/CONTRACT.md`, in any case.
  { pattern: /\bCONTRACT\.md\b/gi, instead: "docs/product.md" },
  // `CONTRACT section 6`, `CONTRACT §10`, `contract sections 3–5`, also broken across comment lines.
  {
    pattern: /\bCONTRACT(?:[\s*#]|\/\/)+(?:sections?\s+\d+(?:\s*[–-]\s*\d+)?|§\s*\d*)/gi,
    instead: "docs/product.md §N",
  },
  // A `shared/` folder (`shared/…`, `../shared/…`, `../shared`): beside the repository, not in it.
  {
    pattern: /(?<![\w@.-])(?:\.\.\/)*shared\/[\w.-][\w./-]*|\.\.\/shared\b/g,
    instead: "a path inside the repository",
  },
];

interface Finding {
  file: string;
  line: number;
  text: string;
  problem: string;
}

function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (path: string) => {
    const stats = statSync(path);
    if (stats.isFile()) {
      if (TEXT_FILE.test(path)) files.push(relative(repoRoot, path).split(sep).join("/"));
      return;
    }
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.name.startsWith(".") || SKIPPED_DIRECTORIES.has(entry.name)) continue;
      walk(join(path, entry.name));
    }
  };
  for (const root of ROOTS) if (existsSync(join(repoRoot, root))) walk(join(repoRoot, root));
  return files.filter((file) => file !== THIS_FILE).sort();
}

const lineAt = (text: string, index: number) => text.slice(0, index).split("\n").length;
const lineText = (text: string, line: number) => (text.split("\n")[line - 1] ?? "").trim();

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");

const PRODUCT = "docs/product.md";
const productText = readFileSync(join(repoRoot, PRODUCT), "utf8");
/** `## 4. Requests` and `### 5.2 Orders, …`: the sections a citation may name, and their anchors. */
const productHeadings = [...productText.matchAll(/^#{2,3} ((\d+(?:\.\d+)?)\.? .*)$/gm)].map((m) => ({
  section: m[2] as string,
  anchor: slug(m[1] as string),
}));
const productSections = new Set(productHeadings.map((h) => h.section));
const productAnchors = new Set(productHeadings.map((h) => h.anchor));

function findings(file: string): Finding[] {
  const text = readFileSync(join(repoRoot, file), "utf8");
  const found: Finding[] = [];
  const add = (index: number, problem: string) => {
    const line = lineAt(text, index);
    found.push({ file, line, text: lineText(text, line), problem });
  };

  for (const { pattern, instead } of OUTSIDE_REFERENCES) {
    for (const match of text.matchAll(pattern)) {
      const cited = match[0].replace(/(?:\s|\/\/|\*)+/g, " ").trim();
      add(match.index, `cites "${cited}", which is not in the repository; cite ${instead}`);
    }
  }

  // `docs/product.md §4`, `docs/product.md §3, §4 and §10`, `[product rules §8](…)`, and any `§N`
  // in docs/product.md itself: each section must exist.
  text.split("\n").forEach((line, i) => {
    if (file !== PRODUCT && !/product\.md|product rules/i.test(line)) return;
    const cited = /product\.md|product rules/i.exec(line);
    for (const match of line.slice(cited?.index ?? 0).matchAll(/§(\d+(?:\.\d+)?)/g)) {
      if (!productSections.has(match[1] as string)) {
        found.push({
          file,
          line: i + 1,
          text: line.trim(),
          problem: `cites ${match[0]}, not a section of ${PRODUCT}`,
        });
      }
    }
  });

  if (file.endsWith(".md")) {
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] as string;
      if (/^[a-z][a-z+.-]*:/i.test(target) || target.startsWith("#")) {
        if (file === PRODUCT && target.startsWith("#") && !productAnchors.has(target.slice(1))) {
          add(match.index, `links to ${target}, not a heading of ${PRODUCT}`);
        }
        continue;
      }
      const [path = "", anchor] = target.split("#");
      const absolute = resolve(repoRoot, dirname(file), path);
      const inRepo = relative(repoRoot, absolute);
      if (inRepo.startsWith("..")) add(match.index, `links to ${target}, outside the repository`);
      else if (!existsSync(absolute)) add(match.index, `links to ${target}, which does not exist`);
      else if (inRepo.split(sep).join("/") === PRODUCT && anchor && !productAnchors.has(anchor)) {
        add(match.index, `links to ${target}, not a heading of ${PRODUCT}`);
      }
    }
  }
  return found;
}

describe("references to documents", () => {
  it(`${PRODUCT} has numbered sections 1 to 10`, () => {
    for (let n = 1; n <= 10; n++) expect(productSections.has(String(n)), `§${n}`).toBe(true);
  });

  it("every document a source file or a doc cites is in the repository", () => {
    const files = sourceFiles();
    // The scan must see the trees it is meant to, or it passes by reading nothing.
    expect(files).toContain("README.md");
    expect(files).toContain(PRODUCT);
    expect(files).toContain("spec/openapi.yaml");
    expect(files.some((f) => f.startsWith("packages/server/src/"))).toBe(true);
    expect(files.some((f) => f.startsWith("packages/contract-tests/test/"))).toBe(true);

    const problems = files.flatMap(findings).map((f) => `${f.file}:${f.line}: ${f.problem}\n    ${f.text}`);
    expect(problems, `\n${problems.join("\n")}\n`).toEqual([]);
  });
});
