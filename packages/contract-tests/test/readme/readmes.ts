// The READMEs whose code the readme tests check, and where their snippets are written: one
// folder per README inside the package (git-ignored), so that `@oisr/sdk`, `@oisr/mock-server`
// and `vitest` resolve from the workspace as they would from a user's project.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type ReadmeBlock, readmeBlocks } from "../../src/readme.ts";

export const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));
export const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
const snippetRoot = join(packageRoot, ".readme");

export interface Readme {
  /** Relative to the repository root, as test names and messages show it. */
  path: string;
  /** File-name-safe: `root`, `sdk`, `mock-server`, `examples-mock-testing`. */
  slug: string;
  blocks: ReadmeBlock[];
}

export interface Snippet {
  block: ReadmeBlock;
  file: string;
}

/** The root's, every package's with code users copy, and every example's. */
export function readmePaths(): string[] {
  const examples = readdirSync(join(repoRoot, "examples"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(repoRoot, "examples", entry.name, "README.md")))
    .map((entry) => `examples/${entry.name}/README.md`);
  return [
    "README.md",
    "packages/sdk/README.md",
    "packages/mock-server/README.md",
    "packages/cli/README.md",
    "examples/README.md",
    ...examples.sort(),
  ];
}

export function loadReadme(path: string): Readme {
  const slug =
    path === "README.md"
      ? "root"
      : path
          .replace(/^packages\//, "")
          .replace(/\/README\.md$/, "")
          .replaceAll("/", "-");
  return { path, slug, blocks: readmeBlocks(readFileSync(join(repoRoot, path), "utf8")) };
}

export const isTypeScript = (block: ReadmeBlock) => block.lang === "ts" || block.lang === "typescript";
export const isShell = (block: ReadmeBlock) => ["sh", "bash", "shell"].includes(block.lang);

/** `README.md:81` for line `snippetLine` (1-based) of a snippet. */
export function readmeLine(readme: Readme, block: ReadmeBlock, snippetLine: number): string {
  return `${readme.path}:${block.line + snippetLine - 1}`;
}

/**
 * Writes `blocks` as modules into a fresh `.readme/<purpose>/<slug>/`: a block named by its first
 * line (`// sync-orders.ts`) under that name, so other blocks can import it, the others as
 * `line-<README line>.ts`. The code is written unchanged, so snippet lines map to README lines.
 */
export function writeSnippets(
  readme: Readme,
  purpose: string,
  blocks: ReadmeBlock[],
): { dir: string; snippets: Snippet[] } {
  const dir = join(snippetRoot, purpose, readme.slug);
  linkPeerDependencies();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const snippets: Snippet[] = [];
  for (const block of blocks) {
    const file = join(dir, block.name ?? `line-${block.line}.ts`);
    if (existsSync(file)) throw new Error(`${readme.path}:${block.line}: a second block named ${block.name}`);
    writeFileSync(file, `${block.code}\n`);
    snippets.push({ block, file });
  }
  return { dir, snippets };
}

/**
 * `msw` is the mock's peer dependency: a user installs it beside `@oisr/mock-server` (the mock
 * README's install line), and snippets import it. In this workspace only the mock has it, so the
 * snippets get a link to that copy.
 */
function linkPeerDependencies(): void {
  const link = join(snippetRoot, "node_modules/msw");
  if (existsSync(link)) return;
  const fromMock = createRequire(join(repoRoot, "packages/mock-server/package.json"));
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(dirname(fromMock.resolve("msw/package.json")), link, "dir");
}

/** Rewrites `<snippet file>:<line>` in a tool's output as the README location it came from. */
export function toReadmeLocations(text: string, readme: Readme, snippets: Snippet[]): string {
  let out = text;
  for (const { block, file } of snippets) {
    const names = [file, relative(packageRoot, file), relative(join(file, ".."), file)];
    for (const name of names) {
      out = out.replace(
        // Not inside a longer name: `orders.test.ts` must not match in `sync-orders.test.ts`.
        new RegExp(`(?<![\\w./-])${escapeRegExp(name)}:(\\d+)(?::\\d+)?`, "g"),
        (_, line: string) => readmeLine(readme, block, Number(line)),
      );
    }
  }
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
