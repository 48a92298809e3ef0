// The free variables of the root README's code blocks: what the reader's own code holds. A
// global script on purpose (no import/export), so blocks see these without importing them.
declare const order: import("@oisr/sdk").OrderInput;
declare const saved: string | null;
