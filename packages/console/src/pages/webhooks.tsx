// Webhook subscriptions: the list (by cursor) and a form to subscribe a URL. The signing secret is
// shown once, right after creation, as the API returns it only then (and on rotation).
import type { WebhookEventType, WebhookSubscriptionWithSecret } from "@oisr/sdk";
import { useState } from "preact/hooks";
import { Pager, useCursors } from "../components/pager.tsx";
import { Badge, Loading, Problem } from "../components/status.tsx";
import { EVENT_TYPES } from "../constants.ts";
import { href } from "../router.ts";
import { useAction, useLoad } from "../use-load.ts";

export function SecretOnce(props: { secret: string; what: string }) {
  return (
    <div class="secret" role="status">
      <p>{props.what} Copy the signing secret now: it is not shown again.</p>
      <code class="secret-value">{props.secret}</code>
    </div>
  );
}

function CreateForm(props: { onCreated: (sub: WebhookSubscriptionWithSecret) => void }) {
  const create = useAction((client, url: string, events: WebhookEventType[], description?: string) =>
    client.webhooks.create({ url, events, ...(description ? { description } : {}) }),
  );
  return (
    <form
      class="stacked"
      aria-labelledby="create-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const data = new FormData(form);
        const events = data
          .getAll("events")
          .filter((v): v is WebhookEventType => EVENT_TYPES.some((t) => t === v));
        const url = String(data.get("url") ?? "");
        const description = String(data.get("description") ?? "");
        const sub = await create.run(url, events, description || undefined);
        if (sub) {
          form.reset();
          props.onCreated(sub);
        }
      }}
    >
      <h2 id="create-title">Subscribe a URL</h2>
      <label>
        URL
        <input name="url" type="url" required placeholder="https://example.com/webhooks/oisr" />
      </label>
      <fieldset>
        <legend>Events</legend>
        {EVENT_TYPES.map((t) => (
          <label key={t} class="check">
            <input type="checkbox" name="events" value={t} /> {t}
          </label>
        ))}
      </fieldset>
      <label>
        Description
        <input name="description" maxLength={500} />
      </label>
      <button type="submit" disabled={create.pending}>
        Create subscription
      </button>
      <Problem text={create.error} />
    </form>
  );
}

export function WebhooksPage() {
  const cursors = useCursors([]);
  const [created, setCreated] = useState<WebhookSubscriptionWithSecret | null>(null);
  const { data, error, loading, reload } = useLoad(
    (client) => client.webhooks.list({ limit: 50, ...(cursors.cursor ? { cursor: cursors.cursor } : {}) }),
    [cursors.cursor],
  );
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <Problem text={error} />
      <Loading loading={loading} />
      <table>
        <caption class="visually-hidden">Webhook subscriptions</caption>
        <thead>
          <tr>
            <th scope="col">Subscription</th>
            <th scope="col">URL</th>
            <th scope="col">Events</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {data?.data.map((sub) => (
            <tr key={sub.id}>
              <td>
                <a href={href(`webhooks/${sub.id}`)}>
                  <code>{sub.id}</code>
                </a>
                {sub.description ? <div class="muted">{sub.description}</div> : null}
              </td>
              <td>{sub.url}</td>
              <td>{sub.events.join(", ")}</td>
              <td>
                <Badge value={sub.status} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && data.data.length === 0 && <p>No subscriptions yet.</p>}
      <Pager cursors={cursors} page={data} label="Subscriptions" />
      {created && <SecretOnce secret={created.secret} what={`Subscription ${created.id} created.`} />}
      <CreateForm
        onCreated={(sub) => {
          setCreated(sub);
          reload();
        }}
      />
    </section>
  );
}
