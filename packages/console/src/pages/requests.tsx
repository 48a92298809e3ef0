// Requests: the account's ingest requests, newest first, filtered by status and kind (the API's
// filters) and by a time window on `accepted_at`. The API has no time filter on GET /requests, so
// the window is applied to each page as it comes: rows outside it are hidden (the page says how
// many), and paging stops once a page reaches past the window's start (the list is newest first).
import type { RequestRecord } from "@oisr/sdk";
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

export function inWindow(
  record: RequestRecord,
  since: string | undefined,
  until: string | undefined,
): boolean {
  const at = Date.parse(record.accepted_at);
  const from = since ? Date.parse(since) : Number.NEGATIVE_INFINITY;
  const to = until ? Date.parse(until) : Number.POSITIVE_INFINITY;
  return at >= from && at < to;
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
  const cursors = useCursors([statusFilter, kindFilter]);
  const { data, error, loading, reload } = useLoad(
    (client) =>
      client.requests.list({
        ...(statusFilter ? { status: statusFilter } : {}),
        ...(kindFilter ? { kind: kindFilter } : {}),
        ...(cursors.cursor ? { cursor: cursors.cursor } : {}),
        limit: 50,
      }),
    [statusFilter, kindFilter, cursors.cursor],
  );
  const rows = data?.data.filter((r) => inWindow(r, filters.since, filters.until)) ?? [];
  const hidden = (data?.data.length ?? 0) - rows.length;
  const oldest = data?.data[data.data.length - 1];
  // Newest first: once a page reaches before the window's start, later pages are all outside it.
  const pastWindow = Boolean(
    filters.since && oldest && Date.parse(oldest.accepted_at) < Date.parse(filters.since),
  );
  const page = data ? { next_cursor: data.next_cursor, has_more: data.has_more && !pastWindow } : undefined;
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
      {hidden > 0 && (
        <p class="muted">
          {hidden} request{hidden === 1 ? "" : "s"} of this page outside the time window hidden.
        </p>
      )}
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
