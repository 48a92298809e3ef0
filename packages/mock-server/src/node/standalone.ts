// A real HTTP server in front of the mock's msw handlers (via msw's `getResponse`), for
// non-JavaScript consumers and end-to-end tests. Requests are answered whatever Host they name.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { answerClientError } from "@oisr/contract";
import { getResponse } from "msw";
import { createMock } from "../mock.ts";
import type { MockOptions } from "../options.ts";
import type { Mock } from "../public-types.ts";
import { ADMIN_PREFIX, handleAdmin } from "./admin.ts";
import { consoleResponse } from "./console-files.ts";

export interface StandaloneOptions extends Omit<MockOptions, "baseUrl"> {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The API's path prefix (default `/v2`). */
  basePath?: string;
  /** Serve the control API under `/__mock/` (default true). */
  admin?: boolean;
  /**
   * A build of the OISR console (`findConsoleBuild()`, the CLI's `--console`), served under
   * `/console/`; the page runs the mock in the browser.
   */
  consoleDir?: string;
}

export interface StandaloneServer {
  /** The API base URL, e.g. `http://127.0.0.1:4010/v2`. */
  url: string;
  origin: string;
  port: number;
  mock: Mock;
  close(): Promise<void>;
}

/** The mock's own origin: incoming requests are mapped onto it, whatever Host they carry. */
const INTERNAL_ORIGIN = "http://oisr-mock.internal";

async function readBody(req: IncomingMessage): Promise<Uint8Array | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of req) chunks.push(chunk as Uint8Array);
  const total = chunks.reduce((n, c) => n + c.byteLength, 0);
  const body = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    body.set(c, offset);
    offset += c.byteLength;
  }
  return body;
}

function notFound(): Response {
  const traceId = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
  return new Response(
    JSON.stringify({
      type: "https://oisr.dev/problems/not_found",
      title: "Not found",
      status: 404,
      detail: "No such resource or path.",
      trace_id: traceId,
      code: "not_found",
    }),
    {
      status: 404,
      headers: { "content-type": "application/problem+json; charset=utf-8", "x-trace-id": traceId },
    },
  );
}

async function send(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = head ? undefined : new Uint8Array(await response.arrayBuffer());
  if (body) headers["content-length"] = String(body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body);
}

/**
 * Starts the mock as an HTTP server.
 *
 * @example
 * const { url, mock, close } = await startMockServer({ port: 0 });
 */
export async function startMockServer(options: StandaloneOptions = {}): Promise<StandaloneServer> {
  const {
    port = 4010,
    host = "127.0.0.1",
    basePath = "/v2",
    admin = true,
    consoleDir,
    ...mockOptions
  } = options;
  const mock = createMock({ ...mockOptions, baseUrl: `${INTERNAL_ORIGIN}${basePath}` });
  const server = createServer(async (req, res) => {
    try {
      const target = new URL(req.url ?? "/", INTERNAL_ORIGIN);
      const body = await readBody(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value === undefined) continue;
        for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
      }
      const request = new Request(target, {
        method: req.method,
        headers,
        body: body as BodyInit | undefined,
      });
      const head = req.method === "HEAD";
      if (admin && (target.pathname === ADMIN_PREFIX || target.pathname.startsWith(`${ADMIN_PREFIX}/`))) {
        return await send(
          res,
          await handleAdmin(mock, request, target.pathname.slice(ADMIN_PREFIX.length + 1)),
          head,
        );
      }
      if (consoleDir && (req.method === "GET" || head)) {
        const page = await consoleResponse(consoleDir, target.pathname);
        if (page) return await send(res, page, head);
      }
      const response = await getResponse(mock.handlers, request);
      await send(res, response ?? notFound(), head);
    } catch {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("mock server error");
    }
  });
  // A request line and headers longer than Node reads is a 431 problem+json, as on the server.
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const origin = `http://${shownHost}:${address.port}`;
  return {
    url: `${origin}${basePath}`,
    origin,
    port: address.port,
    mock,
    close: () =>
      new Promise<void>((resolve) => {
        mock.controls.reset();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
