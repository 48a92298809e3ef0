// Base64 with btoa/atob only (no Buffer), so it runs in browsers and Node alike.

export function base64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Decodes base64 or base64url (padding optional); throws on characters outside the alphabet. */
export function fromBase64(text: string): Uint8Array {
  const normal = text.replaceAll("-", "+").replaceAll("_", "/");
  const padded = normal + "=".repeat((4 - (normal.length % 4)) % 4);
  const binary = atob(padded);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
