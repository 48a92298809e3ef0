// The console's shell: the sign-in form until a key is given, then the navigation, the outage
// banner and the page the hash route names.
import type { ComponentChildren } from "preact";
import { useEffect } from "preact/hooks";
import { notice, online, session, signOut } from "./api.ts";
import { Banner } from "./components/banner.tsx";
import { SignIn } from "./components/sign-in.tsx";
import { EventsPage } from "./pages/events.tsx";
import { FeedPage } from "./pages/feed.tsx";
import { QueuePage } from "./pages/queue.tsx";
import { RequestDetailPage } from "./pages/request-detail.tsx";
import { RequestsPage } from "./pages/requests.tsx";
import { WebhookDetailPage } from "./pages/webhook-detail.tsx";
import { WebhooksPage } from "./pages/webhooks.tsx";
import { href, type Route, useRoute } from "./router.ts";
import { useStore } from "./store.ts";

const NAV = [
  ["requests", "Requests"],
  ["orders", "Orders"],
  ["returns", "Returns"],
  ["events", "Events"],
  ["webhooks", "Webhooks"],
  ["queue", "Queue health"],
] as const;

function Page(props: { route: Route }): ComponentChildren {
  const [section = "requests", id] = props.route.segments;
  switch (section) {
    case "requests":
      return id ? <RequestDetailPage requestId={id} /> : <RequestsPage route={props.route} />;
    case "orders":
      return <FeedPage key="orders" kind="orders" />;
    case "returns":
      return <FeedPage key="returns" kind="returns" />;
    case "events":
      return <EventsPage route={props.route} />;
    case "webhooks":
      return id ? <WebhookDetailPage subscriptionId={id} /> : <WebhooksPage />;
    case "queue":
      return <QueuePage />;
    default:
      return (
        <section>
          <h1>Not found</h1>
          <p>
            No page here. <a href={href("requests")}>Requests</a>
          </p>
        </section>
      );
  }
}

export interface AppProps {
  /** Shown in the header (e.g. that the page runs on the mock). */
  note?: string | undefined;
  /** Pre-filled key on the sign-in form (the mock accepts any `oisr_` key). */
  keyHint?: string | undefined;
}

export function App(props: AppProps) {
  const current = useStore(session);
  const isOnline = useStore(online);
  const retrying = useStore(notice);
  const route = useRoute();
  const path = route.segments.join("/");
  // A new page (not new filters) moves the focus to its content, as a page load would start there
  // for a screen reader; the header stays one Shift+Tab away.
  useEffect(() => {
    if (current) document.getElementById("main")?.focus({ preventScroll: true });
  }, [path, current]);
  if (!current) return <SignIn hint={props.keyHint} />;
  const section = route.segments[0] ?? "requests";
  return (
    <>
      {/* A button, not a #main link: the hash is the console's route. */}
      <button type="button" class="skip" onClick={() => document.getElementById("main")?.focus()}>
        Skip to content
      </button>
      <header>
        <span class="brand">OISR console</span>
        {props.note && <span class="note">{props.note}</span>}
        <nav aria-label="Pages">
          <ul>
            {NAV.map(([path, label]) => (
              <li key={path}>
                <a href={href(path)} aria-current={section === path ? "page" : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" class="sign-out" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      {!isOnline && <Banner />}
      {isOnline && retrying && (
        <div class="notice" role="status">
          {retrying}
        </div>
      )}
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
}
