import { afterEach, describe, expect, it, vi } from "vitest";
import type { Logger } from "../hooks.ts";
import { levelledLogger } from "./log.ts";

function recordingLogger() {
  const lines: string[] = [];
  // A class whose methods need `this`, as pino's and winston's do.
  class Recorder implements Logger {
    readonly prefix = "rec";
    error(message: string) {
      lines.push(`${this.prefix} error ${message}`);
    }
    warn(message: string) {
      lines.push(`${this.prefix} warn ${message}`);
    }
    info(message: string) {
      lines.push(`${this.prefix} info ${message}`);
    }
    debug(message: string) {
      lines.push(`${this.prefix} debug ${message}`);
    }
  }
  return { logger: new Recorder(), lines };
}

const enabled = (log: object) => Object.keys(log).sort();

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("levelledLogger", () => {
  it("defaults to warn: error and warn only", () => {
    vi.stubEnv("OISR_LOG", "");
    expect(enabled(levelledLogger(recordingLogger().logger))).toEqual(["error", "warn"]);
  });

  it.each([
    ["off", []],
    ["error", ["error"]],
    ["warn", ["error", "warn"]],
    ["info", ["error", "info", "warn"]],
    ["debug", ["debug", "error", "info", "warn"]],
  ] as const)("enables the levels up to %s", (level, names) => {
    expect(enabled(levelledLogger(recordingLogger().logger, level))).toEqual(names);
  });

  it("takes the level from OISR_LOG when the option is absent; the option wins", () => {
    vi.stubEnv("OISR_LOG", "debug");
    expect(enabled(levelledLogger(recordingLogger().logger))).toContain("debug");
    expect(enabled(levelledLogger(recordingLogger().logger, "off"))).toEqual([]);
  });

  it("warns about an unknown OISR_LOG and keeps the default", () => {
    vi.stubEnv("OISR_LOG", "verbose");
    const { logger, lines } = recordingLogger();
    expect(enabled(levelledLogger(logger))).toEqual(["error", "warn"]);
    expect(lines).toEqual(["rec warn OISR_LOG=verbose ignored: not one of off,error,warn,info,debug"]);
  });

  it("calls the logger's own methods with their `this`", () => {
    const { logger, lines } = recordingLogger();
    levelledLogger(logger, "debug").debug?.("hello");
    expect(lines).toEqual(["rec debug hello"]);
  });

  it("uses console when no logger is given", () => {
    const spy = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      levelledLogger(undefined, "info").info?.("to the console");
      expect(spy).toHaveBeenCalledWith("to the console");
    } finally {
      spy.mockRestore();
    }
  });
});
