// The API key, typed in once per tab and kept in sessionStorage only: it is gone when the tab
// closes, is never written to localStorage or a cookie, and never leaves the page except as the
// SDK's Authorization header to this origin.
const KEY = "oisr.console.key";

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function storeKey(key: string): void {
  sessionStorage.setItem(KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(KEY);
}
