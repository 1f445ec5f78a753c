// The background worker a SessionEnd leaves behind is killed at random
// instants (issue 14): whatever the instant, the next session's start and end
// leave every finding in MEMORY.md exactly once and every span of the killed
// session in exactly one archive log. KILL_TRIALS sets the count (default 200).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { echoPaths } from '../../src/store/fs/echo-paths.ts';
import { liveWorkers } from '../../src/store/hook-workers.ts';
import { baseEnv, DIST, waitForWorkersAsync } from '../helpers/run-bundle.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const TRIALS = Number(process.env.KILL_TRIALS ?? 200);
const PARALLEL = 8;

/** Runs a hook bundle; resolves when the hook process (not its worker) exits. */
function hook(name: string, input: object, cwd: string, env: Record<string, string>): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(DIST, `${name}.cjs`)], { cwd, env: baseEnv(env), stdio: ['pipe', 'ignore', 'ignore'] });
    child.stdin.end(JSON.stringify(input));
    child.on('close', (code) => resolve(code));
  });
}

const finding = (title: string) =>
  `### [2026-11-20] Pattern: ${title}\n- **layer**: inscribed\n- **evidence**: \`src/${title.replace(/\W+/g, '-')}.ts:1\`\n- A learning about ${title}.\n`;

async function trial(i: number, root: string): Promise<{ killedAfterMs: number | null }> {
  const dir = join(root, `t${i}`);
  mkdirSync(join(dir, '.git'), { recursive: true });
  const env = { HOME: join(dir, 'home') };
  const paths = echoPaths(dir, defaultConfig(), env.HOME);
  const request = `Refactor module alpha${i}x for the release`;
  const t1 = join(dir, 'one.jsonl');
  new TranscriptBuilder(t1, `one-${i}`, dir)
    .user(request)
    .tool('Edit', { file_path: join(dir, `src/alpha${i}.ts`), old_string: 'a', new_string: 'b' })
    .assistant(`Done with alpha${i}x.`);
  mkdirSync(join(dir, '.claude/echoes/reviewer'), { recursive: true });
  const titles = [`Finding one of trial ${i}`, `Finding two of trial ${i}`, `Finding three of trial ${i}`];
  writeFileSync(join(dir, '.claude/echoes/reviewer/scout-findings.md'), titles.map(finding).join('\n'));
  await hook('session-start', { session_id: `one-${i}`, transcript_path: t1, cwd: dir, source: 'startup' }, dir, env);
  await waitForWorkersAsync(dir);

  // The session ends; its worker is killed after a random delay (or finishes first).
  await hook('session-end', { session_id: `one-${i}`, transcript_path: t1, cwd: dir, reason: 'other' }, dir, env);
  const delay = (i * 7919) % 150;
  await new Promise((r) => setTimeout(r, delay));
  let killedAfterMs: number | null = null;
  for (const w of liveWorkers(paths)) {
    try {
      process.kill(w.pid, 'SIGKILL');
      killedAfterMs = delay;
    } catch {
      /* finished meanwhile */
    }
  }
  await waitForWorkersAsync(dir);

  // The next session starts (recovering what the kill left) and ends; its own end flushes final logs.
  const t2 = join(dir, 'two.jsonl');
  new TranscriptBuilder(t2, `two-${i}`, dir).user(`Second session of trial ${i}`).assistant('ok');
  await hook('session-start', { session_id: `two-${i}`, transcript_path: t2, cwd: dir, source: 'startup' }, dir, env);
  await waitForWorkersAsync(dir);
  await hook('session-end', { session_id: `two-${i}`, transcript_path: t2, cwd: dir, reason: 'other' }, dir, env);
  await waitForWorkersAsync(dir);

  const memory = readFileSync(join(dir, '.claude/echoes/reviewer/MEMORY.md'), 'utf8');
  for (const title of titles) assert.equal(memory.split(`Pattern: ${title}\n`).length - 1, 1, `trial ${i}: "${title}" exactly once`);
  const logs = readdirSync(join(dir, '.claude/echoes/memories')).filter((f) => f.startsWith('archive-log-'));
  const holding = logs.filter((f) => readFileSync(join(dir, '.claude/echoes/memories', f), 'utf8').includes(request));
  assert.equal(
    holding.length,
    1,
    `trial ${i} (killed after ${killedAfterMs} ms): the first session's span in exactly one archive log, found in ${holding.join(', ') || 'none'}`,
  );
  return { killedAfterMs };
}

// No time limit of its own: every wait in a trial is bounded (workers by their budget), and a loaded machine is slow, not wrong.
test(`a SessionEnd worker killed at random instants in ${TRIALS} trials loses and doubles nothing`, async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rune-worker-kill-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  let killed = 0;
  for (let start = 0; start < TRIALS; start += PARALLEL) {
    const batch = Array.from({ length: Math.min(PARALLEL, TRIALS - start) }, (_, k) => trial(start + k, root));
    for (const r of await Promise.all(batch)) if (r.killedAfterMs !== null) killed++;
    for (let k = start; k < start + PARALLEL && k < TRIALS; k++) rmSync(join(root, `t${k}`), { recursive: true, force: true });
  }
  t.diagnostic(`${killed} of ${TRIALS} workers were killed while running`);
  // Trial 0 kills its worker at once (no process finishes within no time), so a kill is certain however fast
  // the machine; how many more are caught running depends on its speed, and is only reported.
  assert.ok(killed > 0, `a worker was caught running (${killed})`);
});
