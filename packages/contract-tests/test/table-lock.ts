// A table held locked on PostgreSQL while a test runs: every attempt to apply a request that
// writes the table waits for the lock until its statement times out, so the request goes dead
// after its attempts (the server's only honest way to show `dead` from outside).
import postgres from "postgres";

/**
 * Runs `during` while a transaction of its own holds `table` in ACCESS EXCLUSIVE mode; the lock
 * is released (and the connection closed) before the result is returned, whatever `during` does.
 */
export async function whileTableLocked<T>(
  databaseUrl: string,
  table: string,
  during: () => Promise<T>,
): Promise<T> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = sql.begin(async (tx) => {
      await tx.unsafe(`lock table ${table} in access exclusive mode`);
      locked();
      await released;
    });
    await Promise.race([isLocked, holder]);
    try {
      return await during();
    } finally {
      release();
      await holder;
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}
