// Secrets every process on the database must share: created once, by whichever process starts
// first, then read by all.
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { serverSecrets } from "../db/schema.ts";

export async function sharedSecret(database: Database, name: string): Promise<string> {
  await database.db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString("base64url") })
    .onConflictDoNothing();
  const [row] = await database.db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  if (!row) throw new Error(`secret ${name} missing`);
  return row.value;
}
