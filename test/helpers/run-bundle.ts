// Runs a committed bundle (a hook or the CLI) as a real process with stdin,
// the way Claude Code and the Bash tool do.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { echoPaths } from '../../src/store/fs/echo-paths.ts';
import { liveWorkers } from '../../src/store/hook-workers.ts';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = join(REPO, 'dist');

export interface BundleResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function baseEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
  return env;
}

/**
 * Runs a hook bundle as Claude Code does, then waits for the background worker
 * it may have left (SessionEnd, PreCompact, a busy Stop), so the test sees the
 * work done. `background: false` skips the wait (a test of the hook alone).
 */
export function runHookSync(
  hook: string,
  input: unknown,
  opts: { cwd: string; env?: Record<string, string>; background?: boolean },
): BundleResult {
  const r = spawnSync(process.execPath, [join(DIST, `${hook}.cjs`)], {
    cwd: opts.cwd,
    input: typeof input === 'string' ? input : JSON.stringify(input),
    env: baseEnv(opts.env),
    encoding: 'utf8',
    // Only a hang trips this: a loaded machine may take long, and a hook's own watchdog ends it well before.
    timeout: 300_000,
  });
  if (opts.background !== false) waitForWorkers(projectOf(input, opts));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The project a hook run works on, as the runner finds it. */
function projectOf(input: unknown, opts: { cwd: string; env?: Record<string, string> }): string {
  if (opts.env?.CLAUDE_PROJECT_DIR) return opts.env.CLAUDE_PROJECT_DIR;
  const cwd = input !== null && typeof input === 'object' ? (input as { cwd?: unknown }).cwd : undefined;
  return typeof cwd === 'string' && isAbsolute(cwd) && existsSync(cwd) ? cwd : opts.cwd;
}

/**
 * How long a test waits for background workers: past a worker's own budget (120 s), so only a worker
 * that hangs trips it, never a slow machine.
 */
const WORKERS_MAX_MS = 300_000;

/** Blocks until no background worker of the project's store is running (at most `maxMs`). */
export function waitForWorkers(project: string, maxMs = WORKERS_MAX_MS): void {
  const paths = echoPaths(project, defaultConfig());
  const until = Date.now() + maxMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (liveWorkers(paths).length > 0) {
    if (Date.now() > until) throw new Error(`background workers of ${project} still running after ${maxMs} ms`);
    Atomics.wait(pause, 0, 0, 10);
  }
}

export function runCliSync(args: string[], opts: { cwd: string; input?: string; env?: Record<string, string> }): BundleResult {
  const r = spawnSync(process.execPath, [join(DIST, 'cli.mjs'), ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    env: baseEnv(opts.env),
    encoding: 'utf8',
    timeout: 300_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts a bundle asynchronously; resolves when it exits. */
export function runBundle(
  file: string,
  args: string[],
  opts: { cwd: string; input?: string; env?: Record<string, string> },
): { done: Promise<BundleResult>; kill: (signal?: NodeJS.Signals) => void } {
  const child = spawn(process.execPath, [join(DIST, file), ...args], {
    cwd: opts.cwd,
    env: baseEnv(opts.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(opts.input ?? '');
  // A hook may leave a background worker: `done` waits for it too, so the test sees the work done.
  const hook = file.endsWith('.cjs');
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(opts.input ?? 'null');
  } catch {
    /* not JSON */
  }
  const done = new Promise<BundleResult>((resolve) =>
    child.on('close', async (code) => {
      if (hook) await waitForWorkersAsync(projectOf(parsed, opts));
      resolve({ code, stdout, stderr });
    }),
  );
  return { done, kill: (signal = 'SIGKILL') => child.kill(signal) };
}

/** Waits until no background worker of the project's store is running (at most `maxMs`). */
export async function waitForWorkersAsync(project: string, maxMs = WORKERS_MAX_MS): Promise<void> {
  const paths = echoPaths(project, defaultConfig());
  const until = Date.now() + maxMs;
  while (liveWorkers(paths).length > 0) {
    if (Date.now() > until) throw new Error(`background workers of ${project} still running after ${maxMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
