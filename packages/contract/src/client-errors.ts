// What a Node HTTP server (the server's and the standalone mock's) answers to a request it could
// not parse, its 'clientError' event: a request line and headers longer than Node reads
// (HPE_HEADER_OVERFLOW, e.g. a 100 kB query string) is a 431 problem+json like every other error,
// with a trace id, where Node alone sends a bare `431` with no body (issue 25). Any other client
// error is answered as Node answers it without a listener (408 for a timeout, 413 for chunk
// extensions too long, 400 otherwise), since the contract has no code for them. The connection is
// closed after the answer either way. Runtime-neutral: only strings and a structural socket type.
import { EXPOSED_HEADERS } from "./http-contract.ts";
import { HTTP_STATUS_TEXT } from "./http-status-text.ts";
import { HttpProblem, problemBody } from "./problems.ts";
import { newTraceId } from "./trace-context.ts";

export const requestHeaderFieldsTooLarge = () =>
  new HttpProblem(
    431,
    "request_header_fields_too_large",
    "The request line and headers, the query string included, are longer than the server reads.",
  );

/**
 * The raw HTTP/1.1 response for a problem on a connection about to close, answered before any
 * middleware: with the CORS headers the API's answers carry (any origin), so browser code reads it.
 */
export function rawProblemResponse(problem: HttpProblem, traceId: string): string {
  const body = JSON.stringify(problemBody(problem, traceId));
  const headers = {
    ...problem.headers,
    "Content-Type": "application/problem+json; charset=utf-8",
    "Content-Length": String(new TextEncoder().encode(body).byteLength),
    "X-Trace-Id": traceId,
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Expose-Headers": EXPOSED_HEADERS.join(","),
    Connection: "close",
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${problem.status} ${HTTP_STATUS_TEXT[problem.status] ?? ""}\r\n${head.join("")}\r\n${body}`;
}

/** Node's own answers to the other client errors (lib/_http_server.js), unchanged. */
const NODE_ANSWERS: Readonly<Record<string, string>> = {
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n",
  ERR_HTTP_REQUEST_TIMEOUT: "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n",
};
const NODE_BAD_REQUEST = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n";

/** The raw answer to a client error of this code (`Error.code` of Node's 'clientError'). */
export function clientErrorResponse(code: string | undefined, traceId = newTraceId()): string {
  if (code === "HPE_HEADER_OVERFLOW") return rawProblemResponse(requestHeaderFieldsTooLarge(), traceId);
  return (code !== undefined ? NODE_ANSWERS[code] : undefined) ?? NODE_BAD_REQUEST;
}

/** What answerClientError uses of a net.Socket. */
export interface ClientErrorSocket {
  readonly writable: boolean;
  write(data: string): unknown;
  destroy(error?: Error): unknown;
}

/**
 * A 'clientError' listener: `server.on("clientError", answerClientError)`. As Node's default, it
 * answers only when nothing of a response was written on the connection yet, then closes it.
 */
export function answerClientError(error: Error & { code?: string }, socket: ClientErrorSocket): void {
  // The response in flight on this connection, if any (Node's own check, on its private field).
  const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) socket.write(clientErrorResponse(error.code));
  socket.destroy(error);
}
