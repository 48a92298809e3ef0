// What a command may touch of the process, injected so that tests run commands in-process.
export interface Io {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  /** Aborted on the first Ctrl-C (SIGINT) or SIGTERM: commands stop cleanly and keep their state. */
  signal: AbortSignal;
  /** Replaces the global fetch (tests count calls with it). */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

export const EXIT = {
  ok: 0,
  /** Some items failed (see the report), or a command other than ingest failed. */
  itemsFailed: 1,
  error: 1,
  usage: 2,
  /** The run did not finish (error or interruption); when it saved its state, running it again resumes. */
  incomplete: 3,
  /** A command other than ingest was stopped by Ctrl-C (128 + SIGINT). */
  interrupted: 130,
} as const;

export function writeLine(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${text}\n`);
}
