// A lock file per role (and one for the archive sequence). Consolidation and
// `record` hold it while they read-modify-write, so concurrent sessions and
// agents never lose each other's findings. A holder that was killed leaves a
// lock naming a dead pid; the next taker recovers it.
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { EchoesError } from '../../core/errors.ts';
import { oneLine } from '../../core/text.ts';
import { assertWritable, type EchoPaths } from './echo-paths.ts';
import { uniqueSuffix } from './unique-suffix.ts';

export interface LockOptions {
  /** Give up after this long (ms). Hooks keep this short; without it, the process's bound (setLockTaker). */
  waitMs?: number;
  /** A lock older than this is taken over even if its pid looks alive (pid reuse). */
  staleMs?: number;
  /** Where the lock file lives (default: the project's .claude/echoes/.locks/). */
  dir?: string;
  /** Epoch ms no wait may go past: a hook's deadline (see HookContext). */
  deadline?: Deadline;
}

/**
 * When the caller must have finished (epoch ms; Infinity for none). A hook must
 * answer inside its time limit, and a synchronous lock wait blocks its
 * watchdog timer, so the runner puts the hook's deadline on its context and
 * every lock wait on its path respects it.
 */
export type Deadline = number;

export const NO_DEADLINE: Deadline = Number.POSITIVE_INFINITY;

/** True once the deadline has passed: work that can wait should be left for later. */
export function pastDeadline(deadline: Deadline = NO_DEADLINE): boolean {
  return Date.now() > deadline;
}

/** Who takes locks in this process, for the holder named in a lock file, and how long a taker without its own bound waits. */
export interface LockTaker {
  /** What holds a lock this process takes, as a person reads it: `the rune-echoes search command`, `the stop hook`. */
  holder: string;
  waitMs: number;
  /** Told once when a wait goes on (the CLI says on stderr what it waits for). */
  onWait?: (message: string) => void;
}

const DEFAULT_TAKER: LockTaker = { holder: '', waitMs: 10_000 };
let taker: LockTaker = DEFAULT_TAKER;

/** Set by the CLI for each command (a person waits: a longer bound, and a word while waiting) and by the hook runner; null resets. */
export function setLockTaker(next: Partial<LockTaker> | null): void {
  taker = next === null ? DEFAULT_TAKER : { ...DEFAULT_TAKER, ...next };
}

/** A wait longer than this is announced through `onWait`. */
const ANNOUNCE_AFTER_MS = 2000;

/** What a lock file says of its holder: `the stop hook (pid 123, holding it since 10:02:03 UTC)`. */
function describeHolder(lockPath: string): string {
  let content: string;
  try {
    content = readFileSync(lockPath, 'utf8');
  } catch {
    return 'another process, which has just let it go';
  }
  const [pid = '', , at = '', ...label] = content.split(' ');
  const since = /^\d{4}-\d{2}-\d{2}T(\d{2}:\d{2}:\d{2})/.exec(at)?.[1];
  const details = [/^\d+$/.test(pid) ? `pid ${pid}` : '', since ? `holding it since ${since} UTC` : ''].filter(Boolean).join(', ');
  const who = label.join(' ').trim();
  return `${who ? oneLine(who).slice(0, 80) : 'another process'}${details ? ` (${details})` : ''}`;
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
    try {
      writeSync(fd, token);
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Removes a dead holder's lock, but only if it is still the very lock we judged dead.
 * Recoverers take turns through a guard file: renaming the lock aside and back (the
 * obvious alternative) leaves a moment with no lock file, in which a third process can
 * take the lock, only to have the rename back replace its lock with someone else's.
 */
function recoverIfStale(lockPath: string, staleMs: number): void {
  let content: string;
  let judged: { ino: number; mtimeMs: number };
  try {
    content = readFileSync(lockPath, 'utf8');
    judged = statSync(lockPath);
  } catch {
    return; // released meanwhile
  }
  const pid = Number(content.split(' ')[0]);
  // An empty file is a taker killed between create and write: stale only once it has aged.
  const dead = content === '' ? Date.now() - judged.mtimeMs > 2000 : !pidAlive(pid);
  if (!dead && Date.now() - judged.mtimeMs < staleMs) return;
  const guard = `${lockPath}.recover`;
  if (!tryCreate(guard, `${process.pid}`)) {
    // A recoverer needs the guard for a few system calls; one left for long was killed.
    try {
      if (Date.now() - statSync(guard).mtimeMs > 2000) unlinkSync(guard);
    } catch {
      /* gone */
    }
    return;
  }
  try {
    // Nobody else removes a stale lock while we hold the guard, so if it is unchanged now it is still the dead one.
    const now = statSync(lockPath);
    if (now.ino === judged.ino && now.mtimeMs === judged.mtimeMs && readFileSync(lockPath, 'utf8') === content) unlinkSync(lockPath);
  } catch {
    /* released meanwhile */
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      /* gone */
    }
  }
}

function acquire(paths: EchoPaths, name: string, opts: LockOptions): { lockPath: string; token: string } {
  const waitMs = Math.max(0, Math.min(opts.waitMs ?? taker.waitMs, (opts.deadline ?? NO_DEADLINE) - Date.now()));
  const staleMs = opts.staleMs ?? 120_000;
  const dir = opts.dir ?? paths.locksDir;
  mkdirSync(assertWritable(paths, dir), { recursive: true });
  const lockPath = join(dir, `${name}.lock`);
  // The holder's name goes last: the pid first is what recovery reads.
  const token = `${process.pid} ${uniqueSuffix()} ${new Date().toISOString()}${taker.holder ? ` ${oneLine(taker.holder)}` : ''}`;
  const started = Date.now();
  const deadline = started + waitMs;
  let announced = false;
  let delay = 5;
  while (!tryCreate(lockPath, token)) {
    recoverIfStale(lockPath, staleMs);
    // A dead holder's lock just removed is ours to take, even with no time left to wait.
    if (tryCreate(lockPath, token)) break;
    if (Date.now() > deadline) {
      const waited = Math.round((Date.now() - started) / 100) / 10;
      throw new EchoesError(
        'locked',
        `${name} is locked by ${describeHolder(lockPath)}; gave up after waiting ${waited} s — try again once it has finished (lock file ${lockPath})`,
      );
    }
    if (!announced && taker.onWait && Date.now() - started > ANNOUNCE_AFTER_MS) {
      announced = true;
      taker.onWait(`waiting for ${name}, locked by ${describeHolder(lockPath)} (at most ${Math.round(waitMs / 1000)} s)…`);
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
  } catch {
    /* already gone */
  }
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
