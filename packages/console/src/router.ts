// Hash routes (#/requests/…): the server serves one page at /console and never needs to know the
// console's routes, and links and the back button work without a router library.
import { useEffect, useState } from "preact/hooks";

export interface Route {
  /** Path segments after "#/", e.g. ["requests", "3f2c…"]. */
  segments: string[];
  query: URLSearchParams;
}

export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#\/?/, "");
  const [path = "", search = ""] = raw.split("?", 2);
  return {
    segments: path.split("/").filter(Boolean).map(decodeURIComponent),
    query: new URLSearchParams(search),
  };
}

export function href(path: string, query?: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v) params.set(k, v);
  const search = params.toString();
  return `#/${path}${search ? `?${search}` : ""}`;
}

export function navigate(path: string, query?: Record<string, string | undefined>): void {
  location.hash = href(path, query);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
