// Requests: the account's ingest requests, newest first, filtered by status, kind and a time
// window on `accepted_at` — all three the API's own filters (GET /requests), carried by its cursors.
import { Pager, useCursors } from "../components/pager.tsx";
import { RetryMany } from "../components/retry.tsx";
import { Badge, Loading, Problem } from "../components/status.tsx";
import { isOneOf, REQUEST_KINDS, REQUEST_STATUSES } from "../constants.ts";
import { localInputToIso, when } from "../format.ts";
import { href, navigate, type Route } from "../router.ts";
import { useLoad } from "../use-load.ts";

export interface Filters {
  status: string | undefined;
  kind: string | undefined;
  since: string | undefined;
  until: string | undefined;
}

function filtersOf(route: Route): Filters {
  const q = route.query;
  return {
    status: q.get("status") ?? undefined,
    kind: q.get("kind") ?? undefined,
    since: q.get("since") ?? undefined,
    until: q.get("until") ?? undefined,
  };
}

function FilterForm(props: { filters: Filters }) {
  const { filters } = props;
  const onSubmit = (event: Event) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => {
      const v = data.get(name);
      return typeof v === "string" && v ? v : undefined;
    };
    navigate("requests", {
      status: text("status"),
      kind: text("kind"),
      since: localInputToIso(text("since") ?? ""),
      until: localInputToIso(text("until") ?? ""),
    });
  };
  const local = (iso: string | undefined) => {
    if (!iso) return "";
    const d = new Date(iso);
    return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  };
  return (
    <form class="filters" onSubmit={onSubmit} aria-label="Filter requests">
      <label>
        Status
        <select name="status" value={filters.status ?? ""}>
          <option value="">any</option>
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select name="kind" value={filters.kind ?? ""}>
          <option value="">any</option>
          {REQUEST_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </label>
      <label>
        Accepted from
        <input type="datetime-local" name="since" value={local(filters.since)} />
      </label>
      <label>
        until
        <input type="datetime-local" name="until" value={local(filters.until)} />
      </label>
      <button type="submit">Apply</button>
    </form>
  );
}

export function RequestsPage(props: { route: Route }) {
  const filters = filtersOf(props.route);
  const status = filters.status ?? null;
  const kind = filters.kind ?? null;
  const statusFilter = isOneOf(REQUEST_STATUSES, status) ? status : undefined;
  const kindFilter = isOneOf(REQUEST_KINDS, kind) ? kind : undefined;
  const cursors = useCursors([statusFilter, kindFilter, filters.since, filters.until]);
  const { data, error, loading, reload } = useLoad(
    (client) =>
      client.requests.list({
        ...(statusFilter ? { status: statusFilter } : {}),
        ...(kindFilter ? { kind: kindFilter } : {}),
        ...(filters.since ? { accepted_since: filters.since } : {}),
        ...(filters.until ? { accepted_until: filters.until } : {}),
        ...(cursors.cursor ? { cursor: cursors.cursor } : {}),
        limit: 50,
      }),
    [statusFilter, kindFilter, filters.since, filters.until, cursors.cursor],
  );
  const rows = data?.data ?? [];
  const page = data ? { next_cursor: data.next_cursor, has_more: data.has_more } : undefined;
  return (
    <section aria-labelledby="requests-title">
      <h1 id="requests-title">Requests</h1>
      <FilterForm filters={filters} />
      {(statusFilter === "failed" || statusFilter === "dead") && (
        <RetryMany
          status={statusFilter}
          kind={kindFilter}
          since={filters.since}
          until={filters.until}
          onSent={reload}
        />
      )}
      <Problem text={error} />
      <Loading loading={loading} />
      <table>
        <caption class="visually-hidden">Requests, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Request</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Items</th>
            <th scope="col">Attempts</th>
            <th scope="col">Accepted</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.request_id}>
              <td>
                <a href={href(`requests/${r.request_id}`)}>
                  <code>{r.request_id}</code>
                </a>
              </td>
              <td>{r.kind}</td>
              <td>
                <Badge value={r.status} />
              </td>
              <td>{r.item_count}</td>
              <td>{r.attempts}</td>
              <td>{when(r.accepted_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && rows.length === 0 && <p>No requests match.</p>}
      <Pager cursors={cursors} page={page} label="Requests" />
    </section>
  );
}
