// A migrated, empty PGlite database as a tarball. initdb plus migrations take seconds in
// WebAssembly; loading the tarball takes a fraction of that. Built once per set of migrations and
// cached in memory and in the OS temp directory, so tests and restarts share it.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrationsFolder } from "./database.ts";

let cached: Promise<Blob> | undefined;

function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of readdirSync(migrationsFolder)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  // The journal too: drizzle applies a migration by its journal time, so a template made under
  // another journal would have a migration re-applied on top of it.
  hash.update(readFileSync(join(migrationsFolder, "meta", "_journal.json")));
  return hash.digest("hex").slice(0, 16);
}

async function build(): Promise<Blob> {
  const file = join(tmpdir(), `oisr-pglite-template-${migrationsHash()}.tar`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const client = await PGlite.create("memory://");
  await migrate(drizzle({ client }), { migrationsFolder });
  const tar = await client.dumpDataDir("none");
  await client.close();
  // Write then rename, so a concurrent reader never sees half a file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await tar.arrayBuffer()));
  renameSync(partial, file);
  return tar;
}

export function pgliteTemplate(): Promise<Blob> {
  cached ??= build().catch((err) => {
    cached = undefined;
    throw err;
  });
  return cached;
}
