// Spans of webhook delivery: the dispatcher's fan-out of outbox events into deliveries (PRODUCER,
// linked to each event's apply span, parented to the first's), and each delivery attempt (CLIENT
// `POST`, child of the apply span that wrote the event), whose context goes to the receiver as
// `traceparent`. Deliveries are the at-least-once messages of decision 004, hence the messaging
// attributes beside the HTTP ones.
import { type Link, SpanKind, SpanStatusCode } from "@opentelemetry/api";
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_RESEND_COUNT,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
  ATTR_URL_SCHEME,
} from "@opentelemetry/semantic-conventions";
import {
  MESSAGING_BATCH_MESSAGE_COUNT,
  MESSAGING_DESTINATION_NAME,
  MESSAGING_MESSAGE_ID,
  MESSAGING_OPERATION_NAME,
  MESSAGING_OPERATION_TYPE,
  MESSAGING_SYSTEM,
  SYSTEM,
} from "./attributes.ts";
import { failSpan } from "./queue-spans.ts";
import { contextFrom, formatTraceparent, remoteSpanContext } from "./traceparent.ts";
import { activeTracer } from "./tracing.ts";

const DESTINATION = "webhook_deliveries";

export interface FanOutSpan {
  end(deliveries: number): void;
  fail(err: unknown): void;
}

/** The span of one fan-out of `events` (each with the traceparent its apply stored); undefined when off. */
export function startFanOutSpan(
  events: { id: string; traceparent?: string | null }[],
): FanOutSpan | undefined {
  const tracer = activeTracer();
  if (!tracer || events.length === 0) return undefined;
  const links: Link[] = [];
  for (const e of events) {
    const linked = remoteSpanContext(e.traceparent);
    if (linked) links.push({ context: linked, attributes: { [MESSAGING_MESSAGE_ID]: e.id } });
  }
  const span = tracer.startSpan(
    `fan_out ${DESTINATION}`,
    {
      kind: SpanKind.PRODUCER,
      links,
      attributes: {
        [MESSAGING_SYSTEM]: SYSTEM,
        [MESSAGING_OPERATION_NAME]: "fan_out",
        [MESSAGING_OPERATION_TYPE]: "create",
        [MESSAGING_DESTINATION_NAME]: DESTINATION,
        "messaging.oisr.event_count": events.length,
      },
    },
    contextFrom(events[0]?.traceparent),
  );
  return {
    end(deliveries) {
      span.setAttribute(MESSAGING_BATCH_MESSAGE_COUNT, deliveries);
      span.end();
    },
    fail(err) {
      failSpan(span, err);
      span.end();
    },
  };
}

export interface DeliverySpan {
  /** The W3C headers to send with the attempt. */
  headers: { traceparent: string };
  end(result: { ok: boolean; status?: number; error?: string }): void;
}

export interface TracedDelivery {
  url: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  subscriptionId: string;
  attempt: number;
  /** The apply span that wrote the event; null when tracing was off then. */
  traceparent?: string | null;
}

/** The CLIENT span of one delivery attempt; undefined when tracing is off. */
export function startDeliverySpan(delivery: TracedDelivery): DeliverySpan | undefined {
  const tracer = activeTracer();
  if (!tracer) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(delivery.url);
  } catch {
    // Subscriptions hold checked URLs; the sender refuses anything else and the span says so.
  }
  const span = tracer.startSpan(
    "POST",
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: "POST",
        ...(url
          ? {
              // The receiver's path and query often carry its own secret token: only the origin is kept.
              [ATTR_URL_FULL]: url.origin,
              [ATTR_URL_SCHEME]: url.protocol.slice(0, -1),
              [ATTR_SERVER_ADDRESS]: url.hostname,
              [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === "https:" ? 443 : 80),
            }
          : {}),
        ...(delivery.attempt > 1 ? { [ATTR_HTTP_REQUEST_RESEND_COUNT]: delivery.attempt - 1 } : {}),
        [MESSAGING_SYSTEM]: SYSTEM,
        [MESSAGING_MESSAGE_ID]: delivery.deliveryId,
        "oisr.webhook.event_id": delivery.eventId,
        "oisr.webhook.event_type": delivery.eventType,
        "oisr.webhook.subscription_id": delivery.subscriptionId,
      },
    },
    contextFrom(delivery.traceparent),
  );
  return {
    headers: { traceparent: formatTraceparent(span.spanContext()) },
    end({ ok, status, error }) {
      if (status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
      if (!ok) {
        span.setAttribute(ATTR_ERROR_TYPE, status !== undefined ? String(status) : (error ?? "error"));
        span.setStatus({ code: SpanStatusCode.ERROR, ...(error ? { message: error } : {}) });
      }
      span.end();
    },
  };
}
