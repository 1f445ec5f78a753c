// A lock file per role (and one for the archive sequence). Consolidation and
// `record` hold it while they read-modify-write, so concurrent sessions and
// agents never lose each other's findings. A holder that was killed leaves a
// lock naming a dead pid; the next taker recovers it.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { EchoesError } from '../core/errors.ts';
import { assertWritable, type EchoPaths } from './echo-paths.ts';

export interface LockOptions {
  /** Give up after this long (ms). Hooks keep this short. */
  waitMs?: number;
  /** A lock older than this is taken over even if its pid looks alive (pid reuse). */
  staleMs?: number;
}

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
function sleep(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(lockPath: string, token: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx', 0o644);
    try { writeSync(fd, token); } finally { closeSync(fd); }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Moves a dead holder's lock aside, but only if it is still the same lock we judged dead. */
function recoverIfStale(lockPath: string, staleMs: number): void {
  let content: string;
  let mtime: number;
  try {
    content = readFileSync(lockPath, 'utf8');
    mtime = statSync(lockPath).mtimeMs;
  } catch {
    return; // released meanwhile
  }
  const pid = Number(content.split(' ')[0]);
  // An empty file is a taker killed between create and write: stale only once it has aged.
  const dead = content === '' ? Date.now() - mtime > 2000 : !pidAlive(pid);
  if (!dead && Date.now() - mtime < staleMs) return;
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(3).toString('hex')}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // another taker recovered it first
  }
  // Between our read and the rename, someone else may have recovered and re-taken the lock.
  // If what we moved is not the stale lock we read, put it back.
  let moved = '';
  try { moved = readFileSync(aside, 'utf8'); } catch { /* gone */ }
  if (moved !== content) {
    try { renameSync(aside, lockPath); } catch { /* best effort */ }
    return;
  }
  try { unlinkSync(aside); } catch { /* gone */ }
}

function acquire(paths: EchoPaths, name: string, opts: LockOptions): { lockPath: string; token: string } {
  const waitMs = opts.waitMs ?? 10_000;
  const staleMs = opts.staleMs ?? 120_000;
  mkdirSync(assertWritable(paths, paths.locksDir), { recursive: true });
  const lockPath = join(paths.locksDir, `${name}.lock`);
  const token = `${process.pid} ${randomBytes(6).toString('hex')} ${new Date().toISOString()}`;
  const deadline = Date.now() + waitMs;
  let delay = 5;
  while (!tryCreate(lockPath, token)) {
    recoverIfStale(lockPath, staleMs);
    if (Date.now() > deadline) {
      throw new EchoesError('locked', `${name} is locked by another process (${lockPath}); try again in a moment`);
    }
    sleep(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 100);
  }
  return { lockPath, token };
}

function release(lockPath: string, token: string): void {
  // Release only our own lock; if it was (wrongly) recovered from us, leave the new holder's.
  try {
    if (readFileSync(lockPath, 'utf8') === token) unlinkSync(lockPath);
  } catch { /* already gone */ }
}

export function withLock<T>(paths: EchoPaths, name: string, fn: () => T, opts: LockOptions = {}): T {
  const { lockPath, token } = acquire(paths, name, opts);
  try {
    return fn();
  } finally {
    release(lockPath, token);
  }
}

export async function withLockAsync<T>(paths: EchoPaths, name: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const { lockPath, token } = acquire(paths, name, opts);
  try {
    return await fn();
  } finally {
    release(lockPath, token);
  }
}
