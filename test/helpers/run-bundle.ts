// Runs a committed bundle (a hook or the CLI) as a real process with stdin,
// the way Claude Code and the Bash tool do.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

export function runHookSync(hook: string, input: unknown, opts: { cwd: string; env?: Record<string, string> }): BundleResult {
  const r = spawnSync(process.execPath, [join(DIST, `${hook}.cjs`)], {
    cwd: opts.cwd,
    input: typeof input === 'string' ? input : JSON.stringify(input),
    env: baseEnv(opts.env),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function runCliSync(args: string[], opts: { cwd: string; input?: string; env?: Record<string, string> }): BundleResult {
  const r = spawnSync(process.execPath, [join(DIST, 'cli.mjs'), ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    env: baseEnv(opts.env),
    encoding: 'utf8',
    timeout: 60_000,
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
  const done = new Promise<BundleResult>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { done, kill: (signal = 'SIGKILL') => child.kill(signal) };
}
