// Mounts the console in #app. Both entries call it: the server's (main.ts) and the mock's
// (mock/main.ts, after its service worker is up).
import { render } from "preact";
import { resumeSession } from "./api.ts";
import { App, type AppProps } from "./app.tsx";
import "./styles.css";

export function startConsole(props: AppProps = {}): void {
  const root = document.getElementById("app");
  if (!root) throw new Error("the page has no #app element");
  // Preact renders beside what is there: drop the page's "Starting…" placeholder first.
  root.replaceChildren();
  resumeSession();
  render(<App {...props} />, root);
}
