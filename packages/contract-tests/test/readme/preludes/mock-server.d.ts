// The free variables of @oisr/mock-server's README: the `api` and `client` of the worked example,
// which the webhook fragments continue (its fixtures are a block of their own, fixtures.ts). A
// global script on purpose (no import/export), so blocks see these without importing them.
declare const api: import("@oisr/mock-server/node").MockServer;
declare const client: import("@oisr/sdk").OisrClient;
// What `vite/client` declares for the browser page's `import.meta.env.DEV` (a Vite project has it).
interface ImportMetaEnv {
  readonly DEV: boolean;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
