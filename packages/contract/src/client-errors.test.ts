import { describe, expect, it } from "vitest";
import { answerClientError, clientErrorResponse, requestHeaderFieldsTooLarge } from "./client-errors.ts";
import { problemBody } from "./problems.ts";

const TRACE = "0af7651916cd43dd8448eb211c80319c";

function parse(raw: string) {
  const [head = "", body = ""] = raw.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 2)]),
  );
  return { statusLine, headers, body };
}

describe("client errors", () => {
  it("a header overflow is a 431 problem+json with its trace id, and the connection closes", () => {
    const { statusLine, headers, body } = parse(clientErrorResponse("HPE_HEADER_OVERFLOW", TRACE));
    expect(statusLine).toBe("HTTP/1.1 431 Request Header Fields Too Large");
    expect(headers).toMatchObject({
      "content-type": "application/problem+json; charset=utf-8",
      "x-trace-id": TRACE,
      connection: "close",
      "access-control-allow-origin": "*",
      "access-control-expose-headers": expect.stringContaining("X-Trace-Id"),
      "content-length": String(new TextEncoder().encode(body).byteLength),
    });
    expect(JSON.parse(body)).toEqual({
      type: "https://oisr.dev/problems/request_header_fields_too_large",
      title: "Request header fields too large",
      status: 431,
      detail: expect.any(String),
      trace_id: TRACE,
      code: "request_header_fields_too_large",
    });
    expect(JSON.parse(body)).toEqual(problemBody(requestHeaderFieldsTooLarge(), TRACE));
  });

  it("a new trace id each time when none is given", () => {
    const a = parse(clientErrorResponse("HPE_HEADER_OVERFLOW")).headers["x-trace-id"];
    const b = parse(clientErrorResponse("HPE_HEADER_OVERFLOW")).headers["x-trace-id"];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });

  it.each([
    ["ERR_HTTP_REQUEST_TIMEOUT", "HTTP/1.1 408 Request Timeout"],
    ["HPE_CHUNK_EXTENSIONS_OVERFLOW", "HTTP/1.1 413 Payload Too Large"],
    ["HPE_INVALID_METHOD", "HTTP/1.1 400 Bad Request"],
    [undefined, "HTTP/1.1 400 Bad Request"],
  ])("%s is answered as Node answers it", (code, statusLine) => {
    expect(clientErrorResponse(code)).toBe(`${statusLine}\r\nConnection: close\r\n\r\n`);
  });

  function socket(options: { writable?: boolean; headersSent?: boolean } = {}) {
    const written: string[] = [];
    let destroyed: Error | undefined;
    return {
      writable: options.writable ?? true,
      ...(options.headersSent === undefined ? {} : { _httpMessage: { headersSent: options.headersSent } }),
      write: (data: string) => written.push(data),
      destroy: (error?: Error) => {
        destroyed = error;
      },
      written,
      destroyed: () => destroyed,
    };
  }
  const overflow = Object.assign(new Error("Header overflow"), { code: "HPE_HEADER_OVERFLOW" });

  it("answers and closes a connection with nothing written yet", () => {
    const s = socket({ headersSent: false });
    answerClientError(overflow, s);
    expect(s.written).toHaveLength(1);
    expect(s.written[0]).toMatch(/^HTTP\/1\.1 431 /);
    expect(s.destroyed()).toBe(overflow);
  });

  it.each([{ writable: false }, { headersSent: true }])("only closes the connection when %j", (options) => {
    const s = socket(options);
    answerClientError(overflow, s);
    expect(s.written).toEqual([]);
    expect(s.destroyed()).toBe(overflow);
  });
});
