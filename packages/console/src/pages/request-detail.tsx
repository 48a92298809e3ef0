// One request: its record, the outcome of each item on `succeeded`, each rejected field drawn on
// the submitted body on `failed`, the last attempt's error on `dead`.
import type { RequestRecord } from "@oisr/sdk";
import { useEffect } from "preact/hooks";
import { BodyErrors } from "../components/body-errors.tsx";
import { ErrorOutline } from "../components/error-outline.tsx";
import { RetryOne } from "../components/retry.tsx";
import { Badge, JsonBlock, Loading, Problem } from "../components/status.tsx";
import { when } from "../format.ts";
import { href } from "../router.ts";
import { useLoad } from "../use-load.ts";

/** How often an open request is read again. */
const FOLLOW_MS = 1_000;

/**
 * The rejected fields on the body the request was submitted with; on the pointers' outline alone
 * while the body loads, or when it cannot be read (the record passed its retention meanwhile).
 */
function RejectedFields(props: { record: RequestRecord }) {
  const { request_id: id, errors } = props.record;
  const { data: body, error } = useLoad((client) => client.requests.body(id), [id]);
  return body === undefined ? (
    <>
      <Problem text={error} />
      <ErrorOutline errors={errors} />
    </>
  ) : (
    <BodyErrors body={body} errors={errors} />
  );
}

export function RequestDetailPage(props: { requestId: string }) {
  const {
    data: record,
    error,
    loading,
    reload,
  } = useLoad((client) => client.requests.get(props.requestId), [props.requestId]);
  // An open request is followed until it ends (a retry just sent, a request still queued).
  const open = record?.status === "pending" || record?.status === "processing";
  useEffect(() => {
    if (!open || loading) return;
    const timer = setTimeout(reload, FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [open, loading, reload]);
  return (
    <section aria-labelledby="request-title">
      <p>
        <a href={href("requests")}>← All requests</a>
      </p>
      <h1 id="request-title">
        Request <code>{props.requestId}</code>
      </h1>
      <Problem text={error} />
      <Loading loading={loading && !record} />
      {record && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={record.status} />
            </dd>
            <dt>Kind</dt>
            <dd>{record.kind}</dd>
            <dt>Items</dt>
            <dd>{record.item_count}</dd>
            <dt>Attempts</dt>
            <dd>{record.attempts}</dd>
            <dt>Accepted</dt>
            <dd>{when(record.accepted_at)}</dd>
            <dt>Started</dt>
            <dd>{when(record.started_at)}</dd>
            <dt>Completed</dt>
            <dd>{when(record.completed_at)}</dd>
            <dt>Trace id</dt>
            <dd>
              <code>{record.trace_id}</code>
            </dd>
            <dt>Idempotency key</dt>
            <dd>{record.idempotency_key ?? "—"}</dd>
            <dt>API key</dt>
            <dd>
              <code>{record.api_key_id ?? "—"}</code>
            </dd>
          </dl>
          <RetryOne record={record} onSent={reload} />
          {record.status === "failed" && record.errors.length > 0 && (
            <section aria-labelledby="errors-title">
              <h2 id="errors-title">Rejected fields</h2>
              <RejectedFields record={record} />
            </section>
          )}
          {record.status === "dead" && record.error && (
            <section aria-labelledby="dead-title">
              <h2 id="dead-title">Last attempt</h2>
              <p class="problem">
                <code>{record.error.code}</code> {record.error.message}
              </p>
            </section>
          )}
          {record.result && (
            <section aria-labelledby="result-title">
              <h2 id="result-title">Result</h2>
              <p>
                created {record.result.created}, updated {record.result.updated}, unchanged{" "}
                {record.result.unchanged}, stale {record.result.stale}
              </p>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Type</th>
                    <th scope="col">Id</th>
                    <th scope="col">Outcome</th>
                  </tr>
                </thead>
                <tbody>
                  {record.result.items.map((item) => (
                    <tr key={item.index}>
                      <td>{item.index}</td>
                      <td>{item.type}</td>
                      <td>
                        <code>{item.id}</code>
                      </td>
                      <td>{item.outcome}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          <details>
            <summary>The record as JSON</summary>
            <JsonBlock value={record} label="Request record JSON" />
          </details>
        </>
      )}
    </section>
  );
}
