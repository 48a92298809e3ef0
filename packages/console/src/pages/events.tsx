// Events: the account's event feed (oldest first, by cursor), filtered by type and creation time,
// each event's JSON on demand.

import { Pager, useCursors } from "../components/pager.tsx";
import { JsonBlock, Loading, Problem } from "../components/status.tsx";
import { EVENT_TYPES, isOneOf } from "../constants.ts";
import { localInputToIso, when } from "../format.ts";
import { navigate, type Route } from "../router.ts";
import { useLoad } from "../use-load.ts";

export function EventsPage(props: { route: Route }) {
  const typeParam = props.route.query.get("type");
  const type = isOneOf(EVENT_TYPES, typeParam) ? typeParam : undefined;
  const since = props.route.query.get("since") ?? undefined;
  const cursors = useCursors([type, since]);
  const { data, error, loading } = useLoad(
    (client) =>
      client.events.list({
        limit: 50,
        ...(type ? { type: [type] } : {}),
        ...(since ? { created_since: since } : {}),
        ...(cursors.cursor ? { cursor: cursors.cursor } : {}),
      }),
    [type, since, cursors.cursor],
  );
  return (
    <section aria-labelledby="events-title">
      <h1 id="events-title">Events</h1>
      <form
        class="filters"
        aria-label="Filter events"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const value = (name: string) => {
            const v = form.get(name);
            return typeof v === "string" && v ? v : undefined;
          };
          navigate("events", { type: value("type"), since: localInputToIso(value("since") ?? "") });
        }}
      >
        <label>
          Type
          <select name="type" value={type ?? ""}>
            <option value="">any</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Created from
          <input type="datetime-local" name="since" />
        </label>
        <button type="submit">Apply</button>
      </form>
      <Problem text={error} />
      <Loading loading={loading} />
      <ol class="events">
        {data?.data.map((event) => (
          <li key={event.id}>
            <details>
              <summary>
                <code>{event.type}</code> <span>{when(event.created_at)}</span> <code>{event.id}</code>
              </summary>
              <JsonBlock value={event} label={`Event ${event.id} JSON`} />
            </details>
          </li>
        ))}
      </ol>
      {data && data.data.length === 0 && <p>No events match.</p>}
      <Pager cursors={cursors} page={data} label="Events" />
    </section>
  );
}
