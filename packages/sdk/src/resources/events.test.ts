import { describe, expect, it } from "vitest";
import { NotFoundError } from "../errors.ts";
import { client } from "../internal/client-fixtures.ts";
import { json } from "../internal/test-utils.ts";

const event = (id: string, type = "return.created") => ({
  id,
  type,
  created_at: "2025-03-20T10:04:12.330Z",
  data: { object: { id: "ret_1" } },
});

const queryOf = (url: string) => [...new URL(url).searchParams];

describe("events", () => {
  it("list sends several types as repeated `type` parameters, with created_since and limit", async () => {
    const { client: c, calls } = client({
      "GET /events": json({ data: [event("evt_1")], next_cursor: "e1", has_more: false }),
    });
    const page = await c.events.list({
      type: ["return.created", "return.completed"],
      created_since: "2025-03-01T00:00:00Z",
      limit: 10,
    });
    expect(page).toEqual({ data: [event("evt_1")], next_cursor: "e1", has_more: false });
    expect(queryOf(calls[0]?.url ?? "")).toEqual([
      ["type", "return.created"],
      ["type", "return.completed"],
      ["created_since", "2025-03-01T00:00:00Z"],
      ["limit", "10"],
    ]);
  });

  it("iterate follows next_cursor with the same filters and yields every event", async () => {
    const { client: c, calls } = client({
      "GET /events": (req: Request) =>
        new URL(req.url).searchParams.get("cursor")
          ? json({ data: [event("evt_3")], next_cursor: "e2", has_more: false })
          : json({ data: [event("evt_1"), event("evt_2")], next_cursor: "e1", has_more: true }),
    });
    const ids: string[] = [];
    for await (const e of c.events.iterate({ type: ["return.updated"] })) ids.push(e.id);
    expect(ids).toEqual(["evt_1", "evt_2", "evt_3"]);
    expect(calls.map((x) => queryOf(x.url))).toEqual([
      [["type", "return.updated"]],
      [
        ["type", "return.updated"],
        ["cursor", "e1"],
      ],
    ]);
  });

  it("get fetches one event by id, with its response; an unknown id is NotFoundError", async () => {
    const { client: c, calls } = client({
      "GET /events/evt_1": json(event("evt_1"), 200, { "x-ratelimit-remaining": "119" }),
    });
    const { data, response } = await c.events.get("evt_1").withResponse();
    expect(data).toEqual(event("evt_1"));
    expect(response.headers.get("x-ratelimit-remaining")).toBe("119");
    expect(new URL(calls[0]?.url ?? "").pathname).toBe("/v2/events/evt_1");
    await expect(c.events.get("evt_2")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("changes yields {event, cursor}, resuming from the given cursor with the filters", async () => {
    const { client: c, calls } = client({
      "GET /events": json({ data: [event("evt_1"), event("evt_2")], next_cursor: "e2", has_more: false }),
    });
    const controller = new AbortController();
    const seen: unknown[] = [];
    for await (const change of c.events.changes({
      cursor: "e0",
      type: ["return.completed"],
      signal: controller.signal,
    })) {
      seen.push(change);
      if (seen.length === 2) controller.abort();
    }
    expect(seen).toEqual([
      { event: event("evt_1"), cursor: "e0" },
      { event: event("evt_2"), cursor: "e2" },
    ]);
    expect(queryOf(calls[0]?.url ?? "")).toEqual([
      ["type", "return.completed"],
      ["cursor", "e0"],
    ]);
  });
});
