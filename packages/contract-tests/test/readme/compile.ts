// Typechecks a README's snippets with the TypeScript compiler API, as a user's strict project
// would: one program per README (its blocks and its prelude of free variables), sharing parsed
// library files between programs so that each README costs only its own snippets.
import { existsSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { packageRoot, type Readme, readmeLine, type Snippet } from "./readmes.ts";

// What a careful user's tsconfig says: strict, ESM on Node, DOM for fetch-style code. Not
// noUncheckedIndexedAccess: few projects set it, and `received[0]!` in a snippet reads as noise.
const { options: compilerOptions, errors: optionErrors } = ts.convertCompilerOptionsFromJson(
  {
    strict: true,
    target: "ES2022",
    lib: ["ES2023", "DOM", "DOM.Iterable"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    // Every block is a module of its own, so blocks may reuse names (`const record`, `const page`).
    moduleDetection: "force",
    verbatimModuleSyntax: true,
    esModuleInterop: true,
    allowImportingTsExtensions: true,
    // Not skipped: the prelude is a declaration file, and a type it names wrong must fail. Only
    // the snippets and the prelude are checked (below), not every library declaration.
    skipLibCheck: false,
    noEmit: true,
    types: ["node"],
  },
  packageRoot,
);
if (optionErrors.length > 0) throw new Error(ts.formatDiagnostics(optionErrors, formatHost()));

const libraryFiles = new Map<string, ts.SourceFile | undefined>();
const baseHost = ts.createCompilerHost(compilerOptions);
const host: ts.CompilerHost = {
  ...baseHost,
  getCurrentDirectory: () => packageRoot,
  getSourceFile(fileName, languageVersion, onError, shouldCreateNewSourceFile) {
    // Snippets and preludes change between runs of a watch; declaration files of packages do not.
    if (!fileName.includes("/node_modules/") && !fileName.includes("/dist/")) {
      return baseHost.getSourceFile(fileName, languageVersion, onError, shouldCreateNewSourceFile);
    }
    const format = typeof languageVersion === "object" ? languageVersion.impliedNodeFormat : undefined;
    const key = `${format ?? ""}|${fileName}`;
    if (!libraryFiles.has(key)) {
      libraryFiles.set(
        key,
        baseHost.getSourceFile(fileName, languageVersion, onError, shouldCreateNewSourceFile),
      );
    }
    return libraryFiles.get(key);
  },
};

export function preludeOf(readme: Readme): string | undefined {
  const file = join(packageRoot, "test/readme/preludes", `${readme.slug}.d.ts`);
  return existsSync(file) ? file : undefined;
}

export interface TypecheckResult {
  /** Messages per snippet file, as `README.md:81: error TS2304: …`. */
  bySnippet: Map<string, string[]>;
  /** Messages about the prelude, the libraries, the options: no block to blame. */
  elsewhere: string[];
  /** Names the prelude declares that no block uses (a prelude must not outlive its snippets). */
  unusedPrelude: string[];
}

export function typecheck(readme: Readme, snippets: Snippet[]): TypecheckResult {
  const prelude = preludeOf(readme);
  const rootNames = [...snippets.map((s) => s.file), ...(prelude ? [prelude] : [])];
  const program = ts.createProgram({ rootNames, options: compilerOptions, host });
  const bySnippet = new Map<string, string[]>(snippets.map((s) => [s.file, []]));
  const elsewhere: string[] = [];
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...rootNames.flatMap((name) => {
      const source = program.getSourceFile(name);
      return source
        ? [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
        : [];
    }),
  ];
  for (const diagnostic of diagnostics) {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
    const code = `${ts.DiagnosticCategory[diagnostic.category].toLowerCase()} TS${diagnostic.code}`;
    const file = diagnostic.file;
    const snippet = snippets.find((s) => s.file === file?.fileName);
    if (file && snippet && diagnostic.start !== undefined) {
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start);
      bySnippet.get(snippet.file)?.push(`${readmeLine(readme, snippet.block, line + 1)}: ${code}: ${text}`);
    } else if (file && diagnostic.start !== undefined) {
      const { line } = file.getLineAndCharacterOfPosition(diagnostic.start);
      elsewhere.push(`${file.fileName}:${line + 1}: ${code}: ${text}`);
    } else {
      elsewhere.push(`${code}: ${text}`);
    }
  }
  return {
    bySnippet,
    elsewhere,
    unusedPrelude: prelude ? unusedDeclarations(program, prelude, snippets) : [],
  };
}

function unusedDeclarations(program: ts.Program, prelude: string, snippets: Snippet[]): string[] {
  const checker = program.getTypeChecker();
  const preludeFile = program.getSourceFile(prelude);
  if (!preludeFile) return [];
  const declared = new Set<string>();
  for (const statement of preludeFile.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        declared.add(declaration.name.getText());
    } else if (ts.isFunctionDeclaration(statement) && statement.name) {
      declared.add(statement.name.text);
    }
  }
  const used = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && declared.has(node.text)) {
      // In `{ orders }` the name is a property; the variable is the shorthand's value.
      const symbol = ts.isShorthandPropertyAssignment(node.parent)
        ? checker.getShorthandAssignmentValueSymbol(node.parent)
        : checker.getSymbolAtLocation(node);
      if (symbol?.declarations?.some((d) => d.getSourceFile() === preludeFile)) used.add(node.text);
    }
    ts.forEachChild(node, visit);
  };
  for (const { file } of snippets) {
    const source = program.getSourceFile(file);
    if (source) visit(source);
  }
  return [...declared].filter((name) => !used.has(name));
}

/** Syntax errors only: for blocks the README marks `skip`, which are not typechecked. */
export function syntaxErrors(readme: Readme, snippet: Pick<Snippet, "block">): string[] {
  const { diagnostics = [] } = ts.transpileModule(snippet.block.code, {
    reportDiagnostics: true,
    fileName: "snippet.ts",
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  });
  return diagnostics.map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 1;
    return `${readmeLine(readme, snippet.block, line)}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });
}

function formatHost(): ts.FormatDiagnosticsHost {
  return { getCanonicalFileName: (f) => f, getCurrentDirectory: () => packageRoot, getNewLine: () => "\n" };
}
