// Orders and Returns: look one up by server id or external id, page through the change feed (least
// recently changed first, by cursor), and follow the changes made since the page was opened.
// Everything from the API is rendered as text (a return reason with markup shows as that markup).
import type { OisrClient, Order, Return } from "@oisr/sdk";
import { useMemo, useState } from "preact/hooks";
import { Pager, useCursors } from "../components/pager.tsx";
import { Badge, JsonBlock, Loading, Problem } from "../components/status.tsx";
import { when } from "../format.ts";
import { useFollow } from "../use-follow.ts";
import { useAction, useLoad } from "../use-load.ts";

type Kind = "orders" | "returns";
type Resource = Order | Return;

const TITLE: Record<Kind, string> = { orders: "Orders", returns: "Returns" };
/** Changes are polled this often once the feed is caught up. */
const FOLLOW_MS = 3_000;

function get(client: OisrClient, kind: Kind, id: string): Promise<Resource> {
  return kind === "orders" ? client.orders.get(id) : client.returns.get(id);
}

function Summary(props: { resource: Resource }) {
  const r = props.resource;
  return (
    <dl class="facts">
      <dt>Id</dt>
      <dd>
        <code>{r.id}</code>
      </dd>
      <dt>External id</dt>
      <dd>{r.external_id}</dd>
      <dt>Status</dt>
      <dd>
        <Badge value={r.status} />
      </dd>
      <dt>Version</dt>
      <dd>{r.version}</dd>
      <dt>Updated</dt>
      <dd>{when(r.updated_at)}</dd>
      {"reason" in r && (
        <>
          <dt>Reason</dt>
          <dd class="reason">{r.reason ?? "—"}</dd>
          <dt>Customer note</dt>
          <dd>{r.customer_note ?? "—"}</dd>
          <dt>Order</dt>
          <dd>
            <code>{r.order_id}</code> ({r.order_external_id})
          </dd>
        </>
      )}
    </dl>
  );
}

function Lookup(props: { kind: Kind }) {
  const [found, setFound] = useState<Resource | null>(null);
  const lookup = useAction((client, id: string) => get(client, props.kind, id));
  const label = props.kind === "orders" ? "Order id or external id" : "Return id or external id (RMA)";
  return (
    <section aria-labelledby={`${props.kind}-lookup`}>
      <h2 id={`${props.kind}-lookup`}>Look up</h2>
      <form
        class="inline"
        onSubmit={async (event) => {
          event.preventDefault();
          const id = new FormData(event.currentTarget).get("identifier");
          if (typeof id !== "string" || !id.trim()) return;
          setFound(null);
          const resource = await lookup.run(id.trim());
          if (resource) setFound(resource);
        }}
      >
        <label>
          {label}
          <input name="identifier" required autocomplete="off" />
        </label>
        <button type="submit" disabled={lookup.pending}>
          Look up
        </button>
      </form>
      <Problem text={lookup.error} />
      {found && (
        <div class="found">
          <Summary resource={found} />
          <JsonBlock value={found} label={`${props.kind === "orders" ? "Order" : "Return"} JSON`} />
        </div>
      )}
    </section>
  );
}

function Row(props: { resource: Resource }) {
  const r = props.resource;
  return (
    <tr>
      <td>
        <code>{r.id}</code>
      </td>
      <td>{r.external_id}</td>
      <td>
        <Badge value={r.status} />
      </td>
      <td>{r.version}</td>
      <td>{when(r.updated_at)}</td>
    </tr>
  );
}

function Table(props: { rows: Resource[]; caption: string }) {
  return (
    <table>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Id</th>
          <th scope="col">External id</th>
          <th scope="col">Status</th>
          <th scope="col">Version</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((r) => (
          <Row key={`${r.id}@${r.version}`} resource={r} />
        ))}
      </tbody>
    </table>
  );
}

export function FeedPage(props: { kind: Kind }) {
  const { kind } = props;
  const cursors = useCursors([kind]);
  const page = useLoad<{ data: Resource[]; next_cursor: string; has_more: boolean }>(
    async (client) => {
      const params = { limit: 50, ...(cursors.cursor ? { cursor: cursors.cursor } : {}) };
      return kind === "orders" ? await client.orders.list(params) : await client.returns.list(params);
    },
    [kind, cursors.cursor],
  );
  // Follows what changes from now on: `updated_since` the moment the page opened (minus a
  // minute of clock skew between this browser and the server), not the whole feed from its start.
  const since = useMemo(() => new Date(Date.now() - 60_000).toISOString(), [kind]);
  const live = useFollow<Resource>(
    async function* (client, cursor, signal) {
      const options = { cursor, updated_since: since, intervalMs: FOLLOW_MS, signal };
      if (kind === "orders") {
        for await (const c of client.orders.changes(options)) yield { item: c.order, cursor: c.cursor };
      } else {
        for await (const c of client.returns.changes(options)) yield { item: c.return, cursor: c.cursor };
      }
    },
    [kind, since],
  );
  return (
    <section aria-labelledby={`${kind}-title`}>
      <h1 id={`${kind}-title`}>{TITLE[kind]}</h1>
      <Lookup kind={kind} />
      <section aria-labelledby={`${kind}-live`}>
        <h2 id={`${kind}-live`}>Changes since you opened this page</h2>
        <p class="muted" aria-live="polite">
          Following the change feed (checked every {FOLLOW_MS / 1000} s): {live.items.length} changed.
        </p>
        <Problem text={live.error} />
        {live.items.length > 0 && <Table rows={live.items} caption={`Recently changed ${kind}`} />}
      </section>
      <section aria-labelledby={`${kind}-feed`}>
        <h2 id={`${kind}-feed`}>Change feed</h2>
        <p class="muted">Least recently changed first; each resource at its latest change.</p>
        <Problem text={page.error} />
        <Loading loading={page.loading} />
        {page.data && <Table rows={page.data.data} caption={`${TITLE[kind]} change feed`} />}
        {page.data && page.data.data.length === 0 && <p>No {kind} yet.</p>}
        <Pager cursors={cursors} page={page.data} label={TITLE[kind]} />
      </section>
    </section>
  );
}
