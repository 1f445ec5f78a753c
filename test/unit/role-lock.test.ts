import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs, { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { EchoesError } from '../../src/core/errors.ts';
import { setLockTaker, withLock, withLockAsync } from '../../src/store/fs/role-lock.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const ROLE_LOCK = join(REPO, 'src/store/fs/role-lock.ts');
const PATHS = join(REPO, 'src/store/fs/echo-paths.ts');

/** Starts ESM code in a node process with tsx; the project dir and extra args come last in argv. */
function startNode(
  code: string,
  args: string[],
): ChildProcess & { output: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> } {
  const prelude = `
    import { echoPaths } from ${JSON.stringify(PATHS)};
    import { withLock } from ${JSON.stringify(ROLE_LOCK)};
    import { join } from 'node:path';
    import { readFileSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
    const args = process.argv.slice(1);
    const paths = echoPaths(args[0], { sessionScope: 'project' }, join(args[0], 'home'));
    const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', prelude + code, '--', ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const output = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return Object.assign(child, { output });
}

/** Resolves once the child has printed `word` on stdout. */
async function waitForOutput(child: ChildProcess, word: string): Promise<void> {
  let seen = '';
  for await (const chunk of child.stdout!) {
    seen += chunk;
    if (seen.includes(word)) return;
  }
  throw new Error(`child exited before printing ${word}`);
}

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

const lockFile = (tp: TempProject, name: string) => join(tp.paths.locksDir, `${name}.lock`);
/** A recovery takes no waiting: the bound only ends a hang, never a slow machine's run. */
const RECOVERY_BOUND_MS = 60_000;
const isLocked = (err: unknown) => err instanceof EchoesError && err.code === 'locked' && !err.message.includes('\n');

test('withLock runs the function, returns its value and removes the lock afterwards', (t) => {
  const tp = makeTempProject(t);
  const value = withLock(tp.paths, 'role-reviewer', () => {
    assert.ok(existsSync(lockFile(tp, 'role-reviewer')), 'the lock file exists while held');
    assert.match(readFileSync(lockFile(tp, 'role-reviewer'), 'utf8'), new RegExp(`^${process.pid} `), "it names the holder's pid");
    return 42;
  });
  assert.equal(value, 42);
  assert.deepEqual(readdirSync(tp.paths.locksDir), []);
});

test('withLock releases the lock when the function throws, and the error passes through', (t) => {
  const tp = makeTempProject(t);
  assert.throws(
    () =>
      withLock(tp.paths, 'role-reviewer', () => {
        throw new Error('boom');
      }),
    /boom/,
  );
  assert.deepEqual(readdirSync(tp.paths.locksDir), []);
  assert.equal(
    withLock(tp.paths, 'role-reviewer', () => 'again', { waitMs: 0 }),
    'again',
  );
});

test('withLockAsync holds the lock across awaits and releases it after a rejection', async (t) => {
  const tp = makeTempProject(t);
  const result = await withLockAsync(tp.paths, 'usage', async () => {
    await new Promise((r) => setTimeout(r, 5));
    assert.throws(() => withLock(tp.paths, 'usage', () => 0, { waitMs: 50 }), isLocked);
    return 'done';
  });
  assert.equal(result, 'done');
  await assert.rejects(
    withLockAsync(tp.paths, 'usage', async () => {
      throw new Error('nope');
    }),
    /nope/,
  );
  assert.deepEqual(readdirSync(tp.paths.locksDir), []);
});

test('different lock names do not block each other', (t) => {
  const tp = makeTempProject(t);
  const inner = withLock(tp.paths, 'role-a', () => withLock(tp.paths, 'role-b', () => 'both', { waitMs: 0 }));
  assert.equal(inner, 'both');
});

test('a lock held by a live process makes a second taker give up after waitMs with code locked', (t) => {
  const tp = makeTempProject(t);
  mkdirSync(tp.paths.locksDir, { recursive: true });
  // This very process is alive; its lock is fresh.
  writeFileSync(lockFile(tp, 'role-reviewer'), `${process.pid} feedbeef ${new Date().toISOString()}`);
  let ran = false;
  assert.throws(() => withLock(tp.paths, 'role-reviewer', () => (ran = true), { waitMs: 200 }), isLocked);
  assert.equal(ran, false);
  assert.ok(existsSync(lockFile(tp, 'role-reviewer')), 'the live holder keeps its lock');
});

test('a refusal says what holds the lock: the holder named in its lock file, its pid and since when', async (t) => {
  const tp = makeTempProject(t);
  const release = join(tp.dir, 'release');
  const holder = startNode(
    `
    import { setLockTaker } from ${JSON.stringify(ROLE_LOCK)};
    setLockTaker({ holder: "the session-end hook's background worker" });
    withLock(paths, 'role-team', () => {
      process.stdout.write('held\\n');
      while (!existsSync(args[1])) sleep(10);
    });
  `,
    [tp.dir, release],
  );
  t.after(() => holder.kill('SIGKILL'));
  await waitForOutput(holder, 'held');
  assert.throws(
    () => withLock(tp.paths, 'role-team', () => 0, { waitMs: 0 }),
    (err: unknown) => {
      assert.ok(isLocked(err));
      assert.match(
        (err as Error).message,
        new RegExp(
          `^role-team is locked by the session-end hook's background worker \\(pid ${holder.pid}, holding it since \\d\\d:\\d\\d:\\d\\d UTC\\); gave up after waiting [\\d.]+ s — try again once it has finished`,
        ),
      );
      return true;
    },
  );
  writeFileSync(release, '');
  assert.equal((await holder.output).code, 0);
});

test('a taker without its own bound waits as long as its process allows, and says once what it waits for', async (t) => {
  const tp = makeTempProject(t);
  const release = join(tp.dir, 'release');
  const holder = startNode(
    `
    import { setLockTaker } from ${JSON.stringify(ROLE_LOCK)};
    setLockTaker({ holder: 'the stop hook' });
    withLock(paths, 'role-team', () => {
      process.stdout.write('held\\n');
      while (!existsSync(args[1])) sleep(10);
    });
  `,
    [tp.dir, release],
  );
  t.after(() => holder.kill('SIGKILL'));
  await waitForOutput(holder, 'held');
  const said: string[] = [];
  // The holder lets go only once the taker has said it waits: the taker must wait past that, however slow the machine.
  setLockTaker({
    holder: 'the rune-echoes consolidate command',
    waitMs: 10 * 60_000,
    onWait: (m) => {
      said.push(m);
      writeFileSync(release, '');
    },
  });
  try {
    assert.equal(
      withLock(tp.paths, 'role-team', () => 'mine'),
      'mine',
    );
  } finally {
    setLockTaker(null);
  }
  assert.equal(said.length, 1);
  assert.match(
    said[0]!,
    new RegExp(`^waiting for role-team, locked by the stop hook \\(pid ${holder.pid}, holding it since .* UTC\\) \\(at most 600 s\\)…$`),
  );
  assert.equal((await holder.output).code, 0);
});

test('a lock file naming a dead pid is recovered', async (t) => {
  const tp = makeTempProject(t);
  mkdirSync(tp.paths.locksDir, { recursive: true });
  const pid = await deadPid();
  writeFileSync(lockFile(tp, 'role-reviewer'), `${pid} 0123456789ab ${new Date().toISOString()}`);
  assert.equal(
    withLock(tp.paths, 'role-reviewer', () => 'recovered', { waitMs: RECOVERY_BOUND_MS }),
    'recovered',
  );
  assert.deepEqual(readdirSync(tp.paths.locksDir), [], 'no stale or recovery files left');
});

test('recovery left half-done by a killed recoverer does not block the lock for good', async (t) => {
  const tp = makeTempProject(t);
  mkdirSync(tp.paths.locksDir, { recursive: true });
  writeFileSync(lockFile(tp, 'role-reviewer'), `${await deadPid()} 0123456789ab ${new Date().toISOString()}`);
  // Whatever helper files a recoverer may leave, aged as if it died a minute ago.
  const old = new Date(Date.now() - 60_000);
  for (const extra of ['role-reviewer.lock.recover', 'role-reviewer.lock.stale-1-abc']) {
    writeFileSync(join(tp.paths.locksDir, extra), '1');
    utimesSync(join(tp.paths.locksDir, extra), old, old);
  }
  assert.equal(
    withLock(tp.paths, 'role-reviewer', () => 'ok', { waitMs: RECOVERY_BOUND_MS }),
    'ok',
  );
});

test('a lock file with junk instead of a pid is recovered', (t) => {
  const tp = makeTempProject(t);
  mkdirSync(tp.paths.locksDir, { recursive: true });
  writeFileSync(lockFile(tp, 'role-reviewer'), 'not-a-pid at all');
  assert.equal(
    withLock(tp.paths, 'role-reviewer', () => 'ok', { waitMs: RECOVERY_BOUND_MS }),
    'ok',
  );
});

test('an empty lock file (a taker killed before writing its pid) is recovered once it has aged, not before', (t) => {
  const tp = makeTempProject(t);
  mkdirSync(tp.paths.locksDir, { recursive: true });
  const f = lockFile(tp, 'role-reviewer');
  writeFileSync(f, '');
  // Dated an hour ahead: it cannot age while this taker waits, however slow the machine.
  const ahead = new Date(Date.now() + 3_600_000);
  utimesSync(f, ahead, ahead);
  assert.throws(
    () => withLock(tp.paths, 'role-reviewer', () => 0, { waitMs: 100 }),
    isLocked,
    'a fresh empty lock may be a taker about to write',
  );
  const old = new Date(Date.now() - 60_000);
  utimesSync(f, old, old);
  assert.equal(
    withLock(tp.paths, 'role-reviewer', () => 'ok', { waitMs: RECOVERY_BOUND_MS }),
    'ok',
  );
});

test('a lock older than staleMs is taken over even if its pid looks alive (pid reuse)', (t) => {
  const tp = makeTempProject(t);
  mkdirSync(tp.paths.locksDir, { recursive: true });
  const f = lockFile(tp, 'role-reviewer');
  writeFileSync(f, `${process.pid} cafe ${new Date(0).toISOString()}`);
  const old = new Date(Date.now() - 10 * 60_000);
  utimesSync(f, old, old);
  assert.equal(
    withLock(tp.paths, 'role-reviewer', () => 'ok', { waitMs: RECOVERY_BOUND_MS, staleMs: 60_000 }),
    'ok',
  );
});

test('releasing never removes a lock that is no longer ours', (t) => {
  const tp = makeTempProject(t);
  const f = lockFile(tp, 'role-reviewer');
  withLock(tp.paths, 'role-reviewer', () => {
    // Someone wrongly judged us stale and took over: their lock must survive our release.
    writeFileSync(f, `${process.pid} other-token now`);
  });
  assert.equal(readFileSync(f, 'utf8'), `${process.pid} other-token now`);
});

test('the locks folder is refused when it is a symlink out of the store', (t) => {
  const tp = makeTempProject(t);
  const out = makeTempProject(t, 'rune-echoes-outside-');
  mkdirSync(tp.paths.echoes, { recursive: true });
  symlinkSync(out.dir, tp.paths.locksDir);
  assert.throws(
    () => withLock(tp.paths, 'role-reviewer', () => 0),
    (e: unknown) => e instanceof EchoesError && e.code === 'unsafe-path',
  );
  assert.deepEqual(readdirSync(out.dir), []);
});

test('a live holder in another process blocks until timeout; once it releases, the lock is free', async (t) => {
  const tp = makeTempProject(t);
  const release = join(tp.dir, 'release');
  const holder = startNode(
    `
    withLock(paths, 'role-reviewer', () => {
      process.stdout.write('held\\n');
      while (!existsSync(args[1])) sleep(10);
    });
  `,
    [tp.dir, release],
  );
  t.after(() => holder.kill('SIGKILL'));
  await waitForOutput(holder, 'held');
  assert.throws(
    () => withLock(tp.paths, 'role-reviewer', () => 0, { waitMs: 300 }),
    (err: unknown) => {
      assert.ok(isLocked(err));
      assert.match((err as Error).message, /role-reviewer is locked by another process/);
      return true;
    },
  );
  writeFileSync(release, '');
  const r = await holder.output;
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    withLock(tp.paths, 'role-reviewer', () => 'mine', { waitMs: 0 }),
    'mine',
  );
});

test('a holder killed with SIGKILL leaves its lock behind, and the next taker recovers it', async (t) => {
  const tp = makeTempProject(t);
  const holder = startNode(
    `
    withLock(paths, 'role-team', () => {
      process.stdout.write('held\\n');
      for (;;) sleep(1000);
    });
  `,
    [tp.dir],
  );
  t.after(() => holder.kill('SIGKILL'));
  await waitForOutput(holder, 'held');
  holder.kill('SIGKILL');
  const r = await holder.output;
  assert.equal(r.signal, 'SIGKILL');
  assert.match(readFileSync(lockFile(tp, 'role-team'), 'utf8'), new RegExp(`^${holder.pid} `), "the dead holder's lock is still there");
  assert.equal(
    withLock(tp.paths, 'role-team', () => 'recovered', { waitMs: RECOVERY_BOUND_MS }),
    'recovered',
  );
});

test("mutual exclusion across processes: no two are ever inside at once and no increment is lost, starting from a dead holder's lock", async (t) => {
  const tp = makeTempProject(t);
  const counter = join(tp.dir, 'counter');
  const trace = join(tp.dir, 'trace');
  writeFileSync(counter, '0');
  writeFileSync(trace, '');
  mkdirSync(tp.paths.locksDir, { recursive: true });
  writeFileSync(lockFile(tp, 'role-team'), `${await deadPid()} deadbeef ${new Date().toISOString()}`);
  const processes = 4;
  const rounds = 25;
  const workers = Array.from({ length: processes }, () =>
    startNode(
      `
    const [, counter, trace, rounds] = args;
    for (let i = 0; i < Number(rounds); i++) {
      withLock(paths, 'role-team', () => {
        appendFileSync(trace, 'in ' + process.pid + '\\n');
        const n = Number(readFileSync(counter, 'utf8'));
        sleep(1); // widen the read-modify-write window
        writeFileSync(counter, String(n + 1));
        appendFileSync(trace, 'out ' + process.pid + '\\n');
      }, { waitMs: 120000 });
    }
  `,
      [tp.dir, counter, trace, String(rounds)],
    ),
  );
  t.after(() => {
    for (const w of workers) w.kill('SIGKILL');
  });
  const results = await Promise.all(workers.map((w) => w.output));
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(counter, 'utf8'), String(processes * rounds));
  const lines = readFileSync(trace, 'utf8').trim().split('\n');
  assert.equal(lines.length, processes * rounds * 2);
  for (let i = 0; i < lines.length; i += 2) {
    const [inWord, inPid] = lines[i]!.split(' ');
    const [outWord, outPid] = lines[i + 1]!.split(' ');
    assert.equal(inWord, 'in', `line ${i}`);
    assert.equal(outWord, 'out', `line ${i + 1}: someone entered while ${inPid} was inside`);
    assert.equal(outPid, inPid);
  }
  assert.deepEqual(readdirSync(tp.paths.locksDir), []);
});

/**
 * Replays one interleaving step by step: this process judges a dead holder's
 * lock stale; meanwhile another process recovers it and takes the lock for
 * itself; a third keeps trying to create the lock file whenever it is absent.
 * Recovery must never remove the new holder's lock, or two processes would be
 * inside at once.
 */
test('recovering a stale lock never removes a lock another process took meanwhile', async (t) => {
  const tp = makeTempProject(t);
  mkdirSync(tp.paths.locksDir, { recursive: true });
  const f = lockFile(tp, 'role-reviewer');
  const stale = `${await deadPid()} 5ta1e ${new Date(0).toISOString()}`;
  const newHolder = `${process.pid} b0b0b0 ${new Date().toISOString()}`;
  writeFileSync(f, stale);

  const original = {
    readFileSync: fs.readFileSync,
    openSync: fs.openSync,
    unlinkSync: fs.unlinkSync,
    writeFileSync: fs.writeFileSync,
    closeSync: fs.closeSync,
  };
  let tookOver = false;
  const intruders: string[] = [];
  // The third process: after every file operation, it tries to create the lock file.
  const intrude = () => {
    if (!tookOver) return;
    try {
      const fd = original.openSync(f, 'wx');
      original.closeSync(fd);
      intruders.push('created the lock while the new holder was inside');
    } catch {
      /* the lock file is there: correctly kept out */
    }
  };
  const wrap =
    <A extends unknown[], R>(fn: (...a: A) => R) =>
    (...a: A): R => {
      try {
        return fn(...a);
      } finally {
        intrude();
      }
    };
  const patched = {
    readFileSync: wrap(((path: fs.PathOrFileDescriptor, opts?: unknown) => {
      const out = (original.readFileSync as (p: unknown, o?: unknown) => string | Buffer)(path, opts);
      if (!tookOver && path === f && String(out) === stale) {
        // Right after we read the stale lock, another process recovers it and takes the lock.
        original.unlinkSync(f);
        original.writeFileSync(f, newHolder);
        tookOver = true;
      }
      return out;
    }) as typeof fs.readFileSync),
    statSync: wrap(fs.statSync),
    renameSync: wrap(fs.renameSync),
    unlinkSync: wrap(fs.unlinkSync),
    openSync: wrap(fs.openSync),
    writeSync: wrap(fs.writeSync),
    closeSync: wrap(fs.closeSync),
  };
  const saved = Object.fromEntries(Object.keys(patched).map((k) => [k, (fs as unknown as Record<string, unknown>)[k]]));
  Object.assign(fs, patched);
  syncBuiltinESMExports();
  let error: unknown;
  try {
    withLock(tp.paths, 'role-reviewer', () => intruders.push('this process got in while the new holder was inside'), { waitMs: 200 });
  } catch (err) {
    error = err;
  } finally {
    Object.assign(fs, saved);
    syncBuiltinESMExports();
  }
  assert.equal(tookOver, true, 'the interleaving was replayed');
  assert.deepEqual(intruders, []);
  assert.ok(isLocked(error), `this process waited for the live holder: ${String(error)}`);
  assert.equal(readFileSync(f, 'utf8'), newHolder, 'the new holder still holds its lock');
});
