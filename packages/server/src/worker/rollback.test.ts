import { describe, expect, it } from "vitest";
import { describeRollback, ROLLBACK_REASONS } from "./rollback.ts";

/** The shape drizzle throws: its own error with the statement, the driver's (with the SQLSTATE) as cause. */
const drizzleError = (code: string, query = "update requests  set status = $1\n where id = $2") =>
  Object.assign(new Error(`Failed query: ${query}`), {
    query,
    params: [],
    cause: Object.assign(new Error("deadlock detected"), { code }),
  });

describe("describeRollback", () => {
  it.each([
    ["40P01", "deadlock_detected"],
    ["55P03", "lock_not_available"],
    ["40001", "serialization_failure"],
    ["22P02", "sqlstate_22p02"],
    ["57P01", "database_unavailable"],
  ])(
    "reads SQLSTATE %s from the driver's error under drizzle's as %s, with the statement",
    (code, reason) => {
      const rollback = describeRollback(drizzleError(code));
      expect(rollback).toEqual({
        reason,
        sqlstate: code,
        statement: "update requests set status = $1 where id = $2",
        message: "deadlock detected",
      });
    },
  );

  it("an error that is not the database's is `error`, without SQLSTATE or statement", () => {
    expect(describeRollback(new TypeError("x is undefined"))).toEqual({
      reason: "error",
      sqlstate: null,
      statement: null,
      message: "x is undefined",
    });
  });

  it.each(["ECONNRESET", "EPIPE"])("a connection error code (%s) is not taken for a SQLSTATE", (code) => {
    const err = Object.assign(new Error(`write ${code}`), { code });
    expect(describeRollback(err)).toMatchObject({ reason: "database_unavailable", sqlstate: null });
  });

  it("folds and bounds a long statement", () => {
    const { statement } = describeRollback(drizzleError("40P01", `select ${"x, ".repeat(500)}1`));
    expect(statement?.length).toBe(600);
  });

  it("every named reason is counted from zero", () => {
    expect(ROLLBACK_REASONS).toEqual(
      expect.arrayContaining(["deadlock_detected", "lock_not_available", "lease_lost", "abandoned", "error"]),
    );
  });
});
