import { describe, expect, it } from "vitest";
import { createCursorCodec } from "./cursor.ts";
import { eventFeedFilters, eventNotFound, eventTypesOf } from "./event-feed.ts";

describe("GET /events filters", () => {
  it("holds a set of types: order and repeats do not make other filters", () => {
    const a = eventFeedFilters({ type: ["return.updated", "return.created", "return.updated"] });
    const b = eventFeedFilters({ type: ["return.created", "return.updated"] });
    expect(a).toEqual(b);
    expect(eventTypesOf(a)).toEqual(["return.created", "return.updated"]);
  });

  it("takes one type as a plain string, and no type as every type", () => {
    expect(eventTypesOf(eventFeedFilters({ type: "return.completed" }))).toEqual(["return.completed"]);
    expect(eventTypesOf(eventFeedFilters({}))).toBeUndefined();
    expect(eventFeedFilters({ created_since: "2025-01-01T00:00:00Z" })).toEqual({
      type: undefined,
      created_since: "2025-01-01T00:00:00Z",
    });
  });

  it("a cursor made for a set of types is accepted with the set in another order, refused with another set", async () => {
    const cursors = createCursorCodec("k").forAccount("acc_1");
    const made = eventFeedFilters({ type: ["return.created", "return.completed"] });
    const cursor = await cursors.encode(7, made);
    const same = await cursors.decode<number>(
      cursor,
      eventFeedFilters({ type: ["return.completed", "return.created"] }),
    );
    expect(same).toEqual({ position: 7, filters: { type: "return.completed,return.created" } });
    await expect(
      cursors.decode(cursor, eventFeedFilters({ type: ["return.created"] })),
    ).rejects.toMatchObject({ status: 400, code: "invalid_cursor" });
  });

  it("answers an unknown event with a 404 problem naming it", () => {
    const problem = eventNotFound("evt_1");
    expect(problem).toMatchObject({ status: 404, code: "not_found" });
    expect(problem.message).toBe('No event with id "evt_1".');
  });
});
