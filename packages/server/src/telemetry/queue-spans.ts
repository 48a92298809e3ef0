// Spans of the request queue, after the messaging semantic conventions: each ingest call publishes
// one message (PRODUCER `publish <kind>`, child of the HTTP span); a worker processes a stage of up
// to 1,000 of them in one transaction (CONSUMER `process <kind>`), linked to each one's publish span
// and parented to the first one's, so a lone request's trace runs on unbroken from the call to its
// webhooks. Each request's wait in the queue is a span in its own trace (`wait <kind>`), linked to
// the stage that took it up: a request applied behind others is found from its own trace too.
import {
  type Attributes,
  context,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import {
  MESSAGING_BATCH_MESSAGE_COUNT,
  MESSAGING_DESTINATION_NAME,
  MESSAGING_MESSAGE_BODY_SIZE,
  MESSAGING_MESSAGE_ID,
  MESSAGING_OPERATION_NAME,
  MESSAGING_OPERATION_TYPE,
  MESSAGING_SYSTEM,
  OISR_ACCOUNT_ID,
  OISR_ATTEMPT,
  OISR_FAILED,
  OISR_OUTCOME,
  OISR_QUEUE_WAIT_MS,
  OISR_REPLAYED,
  OISR_SUCCEEDED,
  SYSTEM,
} from "./attributes.ts";
import { contextFrom, formatTraceparent, remoteSpanContext } from "./traceparent.ts";
import { activeTracer } from "./tracing.ts";

export function failSpan(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

export interface PublishSpan {
  /** Stored with the request: the worker links its stage to it. */
  traceparent: string;
  end(result: { requestId?: string; replayed?: boolean }): void;
  fail(err: unknown): void;
}

/** The PRODUCER span of one accept call, child of the active (HTTP) span; undefined when tracing is off. */
export function startPublishSpan(kind: string, bodyBytes: number): PublishSpan | undefined {
  const tracer = activeTracer();
  if (!tracer) return undefined;
  const span = tracer.startSpan(
    `publish ${kind}`,
    {
      kind: SpanKind.PRODUCER,
      attributes: {
        [MESSAGING_SYSTEM]: SYSTEM,
        [MESSAGING_OPERATION_NAME]: "publish",
        [MESSAGING_OPERATION_TYPE]: "send",
        [MESSAGING_DESTINATION_NAME]: kind,
        [MESSAGING_MESSAGE_BODY_SIZE]: bodyBytes,
      },
    },
    context.active(),
  );
  return {
    traceparent: formatTraceparent(span.spanContext()),
    end({ requestId, replayed }) {
      if (requestId) span.setAttribute(MESSAGING_MESSAGE_ID, requestId);
      if (replayed) span.setAttribute(OISR_REPLAYED, true);
      span.end();
    },
    fail(err) {
      failSpan(span, err);
      span.end();
    },
  };
}

/** What a stage span needs to know of each request it applies. */
export interface StageMember {
  id: string;
  kind: string;
  /** Including the attempt being made. */
  attempts: number;
  /** The request's publish span, stored when it was accepted; null when tracing was off then. */
  traceparent?: string | null;
  /** Acceptance to first start. */
  queueWaitMs?: number | null;
}

export interface StageSpan {
  /** Stored with the events the stage writes: their deliveries continue this trace. */
  traceparent: string;
  applied(counts: { succeeded: number; failed: number }): void;
  /** Nothing applied, nothing wrong: the lease went to another worker, or the stage before rolled back. */
  gaveUp(outcome: "lease_lost" | "abandoned"): void;
  fail(err: unknown): void;
}

function destinationOf(members: StageMember[]): string {
  const kind = (members[0] as StageMember).kind;
  return members.every((m) => m.kind === kind) ? kind : "requests";
}

function recordWaits(tracer: Tracer, members: StageMember[], stage: Span, now: number): void {
  const link: Link = { context: stage.spanContext() };
  for (const m of members) {
    // The wait before a retry is the backoff, not the queue: only a first attempt waited in line.
    if (m.attempts !== 1 || m.queueWaitMs == null) continue;
    // A request whose call was not sampled gets no wait span (parent-based sampling would drop it).
    const parent = remoteSpanContext(m.traceparent);
    if (!parent || (parent.traceFlags & 1) === 0) continue;
    const waitMs = Math.max(0, m.queueWaitMs);
    const span = tracer.startSpan(
      `wait ${m.kind}`,
      {
        kind: SpanKind.INTERNAL,
        startTime: now - waitMs,
        links: [link],
        attributes: {
          [MESSAGING_SYSTEM]: SYSTEM,
          [MESSAGING_DESTINATION_NAME]: m.kind,
          [MESSAGING_MESSAGE_ID]: m.id,
          [OISR_QUEUE_WAIT_MS]: waitMs,
        },
      },
      trace.setSpanContext(ROOT_CONTEXT, parent),
    );
    span.end(now);
  }
}

/** The CONSUMER span of one apply attempt of a stage; undefined when tracing is off. */
export function startStageSpan(accountId: string, members: StageMember[]): StageSpan | undefined {
  const tracer = activeTracer();
  if (!tracer || members.length === 0) return undefined;
  const head = members[0] as StageMember;
  const links: Link[] = [];
  for (const m of members) {
    const linked = remoteSpanContext(m.traceparent);
    // Past OTEL_SPAN_LINK_COUNT_LIMIT (128 by default) the SDK drops links; the wait spans still point here.
    if (linked) links.push({ context: linked, attributes: { [MESSAGING_MESSAGE_ID]: m.id } });
  }
  const destination = destinationOf(members);
  const attributes: Attributes = {
    [MESSAGING_SYSTEM]: SYSTEM,
    [MESSAGING_OPERATION_NAME]: "process",
    [MESSAGING_OPERATION_TYPE]: "process",
    [MESSAGING_DESTINATION_NAME]: destination,
    [OISR_ACCOUNT_ID]: accountId,
    [OISR_ATTEMPT]: head.attempts,
  };
  if (members.length > 1) attributes[MESSAGING_BATCH_MESSAGE_COUNT] = members.length;
  else attributes[MESSAGING_MESSAGE_ID] = head.id;
  if (head.attempts === 1 && head.queueWaitMs != null) attributes[OISR_QUEUE_WAIT_MS] = head.queueWaitMs;
  const span = tracer.startSpan(
    `process ${destination}`,
    { kind: SpanKind.CONSUMER, links, attributes },
    contextFrom(head.traceparent),
  );
  recordWaits(tracer, members, span, Date.now());
  return {
    traceparent: formatTraceparent(span.spanContext()),
    applied({ succeeded, failed }) {
      span.setAttributes({ [OISR_SUCCEEDED]: succeeded, [OISR_FAILED]: failed });
      span.end();
    },
    gaveUp(outcome) {
      span.setAttribute(OISR_OUTCOME, outcome);
      span.end();
    },
    fail(err) {
      failSpan(span, err);
      span.end();
    },
  };
}
