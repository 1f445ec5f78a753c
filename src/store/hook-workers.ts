// Background workers: a hook whose work need not block Claude Code (the end
// of a session, a checkpoint, merging findings) answers at once and leaves the
// work to a detached copy of itself. Each worker notes itself here while it
// runs, so the next SessionStart can wait for a hand-off still being written
// instead of taking that session for a crashed one. A worker that is killed
// leaves its work exactly where a crash would; the existing recovery, and the
// idempotent writes under locks, pick it up. No two workers duplicate work:
// everything they do runs under the role and session locks.
import { mkdirSync, readdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertWritable, type EchoPaths } from './fs/echo-paths.ts';

export const workersDir = (paths: EchoPaths): string => join(paths.stateDir, 'workers');
const workerFile = (paths: EchoPaths, hook: string, pid: number) => join(workersDir(paths), `${hook}-${pid}`);

/** A worker older than this is not waited for, whatever its pid says (a recycled pid, a hung process). */
export const WORKER_STALE_MS = 3 * 60 * 1000;

/** Notes a running worker (its session in the file, for the curious). */
export function noteWorker(paths: EchoPaths, hook: string, pid: number, sessionId: string): void {
  const file = workerFile(paths, hook, pid);
  assertWritable(paths, file);
  mkdirSync(workersDir(paths), { recursive: true });
  writeFileSync(file, `${sessionId}\n`);
}

export function workerDone(paths: EchoPaths, hook: string, pid: number): void {
  try {
    unlinkSync(workerFile(paths, hook, pid));
  } catch {
    /* never noted, or already gone */
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Workers still running; notes of dead or stale ones are removed. */
export function liveWorkers(paths: EchoPaths, now = Date.now()): Array<{ hook: string; pid: number }> {
  let names: string[] = [];
  try {
    names = readdirSync(workersDir(paths));
  } catch {
    return [];
  }
  const live: Array<{ hook: string; pid: number }> = [];
  for (const name of names) {
    const m = /^([a-z-]+)-(\d+)$/.exec(name);
    const file = join(workersDir(paths), name);
    let fresh = false;
    try {
      fresh = now - statSync(file).mtimeMs < WORKER_STALE_MS;
    } catch {
      continue;
    }
    if (m && fresh && alive(Number(m[2]))) live.push({ hook: m[1]!, pid: Number(m[2]) });
    else {
      try {
        unlinkSync(file);
      } catch {
        /* raced away */
      }
    }
  }
  return live;
}

/** Waits (up to `maxMs`) until no worker of the given hooks runs; true when none is left. */
export async function awaitWorkers(paths: EchoPaths, hooks: readonly string[], maxMs: number): Promise<boolean> {
  const until = Date.now() + maxMs;
  for (;;) {
    if (!liveWorkers(paths).some((w) => hooks.includes(w.hook))) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 15));
  }
}
