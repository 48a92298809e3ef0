// The secret's format, checked when the receiver starts rather than at the first delivery: a
// mistyped secret would otherwise start the receiver ("Listening") and fail every delivery.

const PREFIX = "whsec_";
/** Standard base64 or base64url, padding optional: what OISR's secrets are (`whsec_` + 32 bytes). */
const BASE64 = /^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/;

/** Where a subscription's secret comes from, for messages. */
export const SECRET_SOURCE =
  "the `secret` field of the answer to POST /v2/webhook_subscriptions (shown once), or of " +
  "POST /v2/webhook_subscriptions/{id}/rotate_secret after a rotation";

/**
 * What is wrong with a secret's format, in a sentence naming `name` (the variable it came from),
 * or undefined when it looks like an OISR secret. Never repeats the secret itself.
 */
export function secretProblem(secret: string | undefined, name = "OISR_WEBHOOK_SECRET"): string | undefined {
  const where = `Set ${name} to the subscription's signing secret: ${SECRET_SOURCE}.`;
  if (secret === undefined || secret === "") return `${name} is not set. ${where}`;
  if (secret.trim() !== secret) {
    return `${name} has spaces or a line break around it; remove them. ${where}`;
  }
  if (/^["']|["']$/.test(secret)) return `${name} is wrapped in quotes; remove them. ${where}`;
  if (!secret.startsWith(PREFIX)) {
    return `${name} does not start with "${PREFIX}" (an OISR signing secret looks like whsec_ followed by base64). ${where}`;
  }
  const key = secret.slice(PREFIX.length);
  if (key === "") return `${name} has nothing after "${PREFIX}". ${where}`;
  if (!BASE64.test(key) || key.replace(/=+$/, "").length % 4 === 1) {
    return `${name}: the part after "${PREFIX}" is not valid base64 (letters, digits, + and /, = at the end); was it cut short or copied with extra characters? ${where}`;
  }
  return undefined;
}

/** Throws an Error with secretProblem's message when any of the secrets is malformed. */
export function assertSecrets(secret: string | readonly string[], name = "OISR_WEBHOOK_SECRET"): void {
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0) throw new Error(secretProblem(undefined, name));
  for (const s of secrets) {
    const problem = secretProblem(s, name);
    if (problem) throw new Error(problem);
  }
}
