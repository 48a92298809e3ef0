// Child processes for the README blocks that run: their exit status and output, never a throw,
// so a test can show what a failing command printed; a deadline so a hung one cannot hang CI.
import { spawn } from "node:child_process";

export interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${options.timeoutMs} ms)`;
      child.kill("SIGKILL");
    }, options.timeoutMs ?? 30_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** The parent's environment without what would change a child's behaviour: vitest's own markers, OISR_*. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|OISR_)/.test(key) && key !== "NODE_OPTIONS") env[key] = value;
  }
  return { ...env, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
}
