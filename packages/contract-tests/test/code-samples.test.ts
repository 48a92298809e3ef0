// The spec's `x-codeSamples` (scripts/code-samples.mjs, issue 27 item 6), as /docs shows them: every
// operation that authenticates has an @oisr/sdk sample that compiles against the built SDK in a
// strict project, as the README blocks do (test/readme), and each `oisr` command is one the built
// CLI has, with options its help lists. Needs the packages built (turbo builds them first).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openapiDocument } from "@oisr/contract";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { packageRoot, repoRoot } from "./readme/readmes.ts";
import { cleanEnv, runProcess } from "./readme/spawn.ts";

interface Sample {
  lang: string;
  label: string;
  source: string;
}

const METHODS = ["get", "put", "post", "delete", "patch"];
const operations = Object.values(openapiDocument.paths).flatMap((item) =>
  METHODS.flatMap((method) => {
    const op = (item as Record<string, Record<string, unknown> | undefined>)[method];
    return op ? [op] : [];
  }),
);
const samplesOf = (op: Record<string, unknown>) => (op["x-codeSamples"] ?? []) as Sample[];

/** The names the samples use as the reader's own (data to send, ids, a secret store). */
const PRELUDE = `
declare const orders: import("@oisr/sdk").OrderInput[];
declare const snapshots: import("@oisr/sdk").InventorySnapshotInput[];
declare const shipments: import("@oisr/sdk").ShipmentInput[];
declare const returns: import("@oisr/sdk").ReturnInput[];
declare const dispositions: import("@oisr/sdk").DispositionInput[];
declare const requestId: string;
declare const subscriptionId: string;
declare const deliveryId: string;
declare const recoveryId: string;
declare const eventId: string;
declare const apiKeyId: string;
declare const secrets: { put(name: string, value: string): Promise<void> };
`;

describe("x-codeSamples", () => {
  it("every operation that authenticates shows its @oisr/sdk call; the open ones none", () => {
    for (const op of operations) {
      const open = Array.isArray(op.security) && op.security.length === 0;
      const labels = samplesOf(op).map((s) => s.label);
      expect(labels.includes("@oisr/sdk"), String(op.operationId)).toBe(!open);
    }
  });

  it("every @oisr/sdk sample compiles in a strict project against the built SDK", () => {
    const dir = join(packageRoot, ".readme", "code-samples");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files: string[] = [join(dir, "prelude.d.ts")];
    writeFileSync(files[0] as string, PRELUDE);
    for (const op of operations) {
      for (const sample of samplesOf(op).filter((s) => s.label === "@oisr/sdk")) {
        const file = join(dir, `${String(op.operationId)}.ts`);
        writeFileSync(file, sample.source);
        files.push(file);
      }
    }
    expect(files.length).toBeGreaterThan(30);
    const program = ts.createProgram({
      rootNames: files,
      options: {
        strict: true,
        target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        moduleDetection: ts.ModuleDetectionKind.Force,
        types: ["node"],
        noEmit: true,
        skipLibCheck: true,
      },
    });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file === undefined || files.includes(d.file.fileName))
      .map((d) => {
        const where = d.file ? `${d.file.fileName.slice(dir.length + 1)}: ` : "";
        return where + ts.flattenDiagnosticMessageText(d.messageText, "\n");
      });
    expect(errors).toEqual([]);
  });

  const commands = operations.flatMap((op) =>
    samplesOf(op)
      .filter((s) => s.label.startsWith("oisr"))
      .map((s) => [String(op.operationId), s.source.trim()] as const),
  );

  it.each(commands)(
    "%s: `%s` is a command of the built CLI, with options its help lists",
    async (_id, line) => {
      const words = line.match(/"[^"]*"|\S+/g) ?? [];
      expect(words[0]).toBe("oisr");
      const command = words[1] as string;
      const help = await runProcess(
        process.execPath,
        [join(repoRoot, "packages/cli/bin/oisr.js"), command, "--help"],
        {
          cwd: packageRoot,
          env: cleanEnv({}),
        },
      );
      expect(help.status, help.stderr).toBe(0);
      // A usage line names the action (`oisr requests retry …`, `oisr ingest orders|inventory|… FILE`).
      expect(help.stdout).toMatch(new RegExp(`oisr ${command} ([a-z]+\\|)*${words[2]}\\b`));
      for (const option of words.filter((w) => w.startsWith("--"))) expect(help.stdout).toContain(option);
    },
  );
});
