// Array types for a postgres.js client opened with `fetch_types: false` (behind a transaction
// pooler, db/postgres.ts). postgres.js learns the array types from the server on each new
// connection; without that it hands an array column over as its literal: a `text[]` of `a` and
// `b` comes back as the string "{a,b}" (request events reached no subscriber that way, 7539a60).
//
// The OIDs are read from the server rather than written here: those of built-in types are fixed
// (text[] is 1009 everywhere), but an enum's or a composite type's array gets its OID when the
// type is created, so differs between databases. The query and the registration are postgres.js's
// own (`fetchArrayTypes` and `addArrayType` in src/connection.js), run once when the database is
// opened, where a failure fails the open as the migration would, instead of as an unhandled
// rejection on some later connection. Types created after that are not known until a restart.
import type postgresType from "postgres";

type Sql = ReturnType<typeof postgresType>;
type Convert = (value: unknown) => unknown;

/** postgres.js's src/types.js, which parses and writes arrays for `fetch_types` (never public). */
interface PostgresTypesModule {
  arrayParser(text: string, parser: Convert | undefined, typarray: number): unknown[];
  arraySerializer(
    value: unknown,
    serializer: Convert | undefined,
    options: unknown,
    typarray: number,
  ): unknown;
}

/** What `addArrayType` touches on a client's options, beside the typed `parsers` and `serializers`. */
type ArrayOptions = Sql["options"] & {
  parsers: Record<number, Convert & { array?: boolean }>;
  shared: { typeArrayMap: Record<number, number> };
};

/**
 * The exports map of `postgres` lists only its entry point, so the module beside it is loaded by
 * its address. Reusing it keeps every array (quotes, backslashes, nesting, box's `;`) as a direct
 * connection reads it, bugs included (a NULL element of a text[] reads as "NULL",
 * porsager/postgres#1124), and a release that moves it fails the open, not a query.
 */
async function postgresTypes(): Promise<PostgresTypesModule> {
  const loaded = (await import(
    new URL("types.js", import.meta.resolve("postgres")).href
  )) as PostgresTypesModule;
  if (typeof loaded.arrayParser !== "function" || typeof loaded.arraySerializer !== "function") {
    throw new Error("postgres.js no longer has src/types.js's arrayParser and arraySerializer");
  }
  return loaded;
}

/**
 * Gives `client` the array parsers and serializers postgres.js sets up itself when it fetches
 * types. Run it after drizzle has wrapped the client: postgres.js keeps the parsers drizzle set
 * (timestamp and numeric arrays stay text), and so does this.
 */
export async function addArrayTypes(client: Sql): Promise<void> {
  const { arrayParser, arraySerializer } = await postgresTypes();
  const types = await client.unsafe<{ oid: number; typarray: number }[]>(`
      select b.oid, b.typarray
      from pg_catalog.pg_type a
      left join pg_catalog.pg_type b on b.oid = a.typelem
      where a.typcategory = 'A'
      group by b.oid, b.typarray
      order by b.oid
    `);
  const options = client.options as ArrayOptions;
  for (const { oid, typarray } of types) {
    if (options.parsers[typarray] && options.serializers[typarray]) continue;
    const parser = options.parsers[oid];
    options.shared.typeArrayMap[oid] = typarray;
    // `array`: postgres.js then passes the text without its opening brace, as arrayParser expects.
    options.parsers[typarray] = Object.assign(
      (text: unknown) => arrayParser(text as string, parser, typarray),
      {
        array: true,
      },
    );
    options.serializers[typarray] = (value: unknown) =>
      arraySerializer(value, options.serializers[oid], options, typarray);
  }
}
