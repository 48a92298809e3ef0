import { createMock, MOCK_TOKEN } from "../dist/index.js";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const cjs = require("../dist/index.cjs");
for (const m of [createMock(), cjs.createMock()]) {
  const res = await m.handle(new Request(m.baseUrl + "/orders", { headers: { authorization: `Bearer ${MOCK_TOKEN}` } }));
  console.log(res.status, await res.text());
  const bad = await m.handle(new Request(m.baseUrl + "/orders?limit=0", { headers: { authorization: `Bearer ${MOCK_TOKEN}` } }));
  console.log(bad.status, (await bad.json()).errors);
}
const node = require("../dist/node.cjs");
console.log(typeof node.setupMockServer, typeof node.startMockServer);
