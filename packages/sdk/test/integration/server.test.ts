// The SDK against the real server, in-process: one server per database backend, shared by the
// suites (each test uses accounts of its own, so they do not see each other's data or limits).
// Rate limits need a server of their own: rate-limits.test.ts.
import { afterAll, beforeAll, describe } from "vitest";
import { backends, startTestServer, type TestServer } from "./harness.ts";
import { keysTests } from "./suites/keys.ts";
import { observabilityTests } from "./suites/observability.ts";
import { readsTests } from "./suites/reads.ts";
import { walkTests } from "./suites/walk.ts";
import { webhookTests } from "./suites/webhooks.ts";

describe.each(backends)("SDK against the server ($name)", (backend) => {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(backend, { OISR_WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" });
  });
  afterAll(() => server?.close());

  const getServer = () => {
    if (!server) throw new Error("the server did not start");
    return server;
  };
  walkTests(getServer);
  readsTests(getServer);
  webhookTests(getServer);
  observabilityTests(getServer);
  keysTests(getServer);
});
