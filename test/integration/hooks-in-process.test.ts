// Hooks run in-process through the runner's executeHook: the same path the
// bundles take (input checking, bookkeeping, the deadline on the context),
// without a process per case.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { executeHook, type HookContext, type HookHandler } from '../../src/hooks/run-hook.ts';
import { sessionEnd } from '../../src/hooks/session-end-handler.ts';
import { sessionStart } from '../../src/hooks/session-start-handler.ts';
import { turnEnd } from '../../src/hooks/turn-end.ts';
import { lastRunFile } from '../../src/store/hook-runs.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

// SessionEnd's budget as Claude Code's setting raises it: its steps finish however busy the machine is.
const env = (tp: TempProject): NodeJS.ProcessEnv => ({ HOME: join(tp.dir, 'home'), CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' });
const finding =
  '### [2026-11-20] Pattern: Unused imports\n- **layer**: inscribed\n- **confidence**: 0.8\n- **evidence**: `src/a.ts:1`\n- Flag unused imports.\n';

async function run(
  tp: TempProject,
  name: string,
  handler: HookHandler,
  input: unknown,
  opts: { startedAt?: number } = {},
): Promise<Record<string, any>> {
  const out = await executeHook(hookSpec(name), handler, input, env(tp), tp.dir, opts);
  return JSON.parse(out);
}

test('Stop in-process: findings are consolidated, the run is noted, the answer is protocol JSON', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/reviewer/scout-findings.md', finding);
  const out = await run(tp, 'stop', (ctx) => turnEnd(ctx, true), { session_id: 's1', cwd: tp.dir, stop_hook_active: false });
  assert.deepEqual(out, { suppressOutput: true });
  assert.match(tp.read('.claude/echoes/reviewer/MEMORY.md') ?? '', /Unused imports/);
  assert.ok(existsSync(lastRunFile(tp.paths, 'stop')), 'the runner, not the handler, notes the run');
});

test('the hook deadline travels on the context to the handler', async (t) => {
  const tp = makeTempProject(t);
  let seen: HookContext | null = null;
  const startedAt = Date.now();
  await run(
    tp,
    'stop',
    (ctx) => {
      seen = ctx;
    },
    { cwd: tp.dir },
    { startedAt },
  );
  const budget = hookSpec('stop').budgetMs({});
  assert.equal(seen!.deadline, startedAt + budget - Math.min(1000, budget / 4));
});

test('SessionEnd past its deadline writes the hand-off and leaves the housekeeping for later', async (t) => {
  const tp = makeTempProject(t);
  const transcript = join(tp.dir, 't.jsonl');
  new TranscriptBuilder(transcript, 'sess-late', tp.dir)
    .user('Rename the config loader')
    .tool('Edit', { file_path: join(tp.dir, 'src/config.ts') });
  // Started long ago: every step after the first finds its time spent.
  await run(
    tp,
    'session-end',
    sessionEnd,
    { session_id: 'sess-late', transcript_path: transcript, cwd: tp.dir },
    { startedAt: Date.now() - 3_600_000 },
  );
  const log = tp.read('.claude/echoes/.log') ?? '';
  assert.match(log, /consolidation: skipped, out of time/);
  assert.match(log, /usage log: skipped, out of time/);
});

test('input fields of the wrong type are dropped before any handler sees them', async (t) => {
  const tp = makeTempProject(t);
  let seen: HookContext | null = null;
  await run(
    tp,
    'stop',
    (ctx) => {
      seen = ctx;
    },
    { cwd: 42, session_id: { x: 1 }, transcript_path: ['a'], stop_hook_active: 'yes' },
  );
  assert.deepEqual(seen!.input, {});
  assert.equal(seen!.project, tp.dir, 'the project falls back to the working directory');
});

test('bookkeeping that cannot be written never costs the digest', async (t) => {
  const tp = makeTempProject(t);
  tp.write(
    '.claude/echoes/team/MEMORY.md',
    '<!-- echo-schema: v2 -->\n# Team Memory\n\n### [2026-11-20] Architecture: Node 20 only\n- **id**: node-20-only\n- **layer**: etched\n- **confidence**: 1.0\n- The service runs on Node 20.\n',
  );
  tp.write('.claude/echoes/EPHEMERAL.md', '# Last session\n## Asked\n- Fix the login bug\n');
  // A file where the hooks' state folder should be: every bookkeeping write fails.
  tp.write('.claude/echoes/.state', 'not a folder');
  const out = await run(tp, 'session-start', sessionStart, {
    session_id: 's2',
    transcript_path: join(tp.dir, 'x.jsonl'),
    cwd: tp.dir,
    source: 'startup',
  });
  const context: string = out.hookSpecificOutput.additionalContext;
  assert.match(context, /Node 20 only/);
  assert.match(context, /Fix the login bug/);
  assert.match(readFileSync(join(tp.dir, '.claude/echoes/.log'), 'utf8'), /bookkeeping|session state/);
});

test('sessions whose last span holds nothing settle: 30 of them leave no work for later SessionEnds or searches', async (t) => {
  const tp = makeTempProject(t);
  for (let i = 0; i < 30; i++) {
    const transcript = tp.write(
      `t${i}.jsonl`,
      `${JSON.stringify({ type: 'progress', data: { n: i } })}\n{"type":"file-history-snapshot"}\n`,
    );
    await run(tp, 'session-end', sessionEnd, { session_id: `s${i}`, transcript_path: transcript, cwd: tp.dir, reason: 'other' });
  }
  const { scanSessions } = await import('../../src/store/session/session-state.ts');
  const scan = scanSessions(tp.paths, 'next');
  assert.deepEqual(
    scan.pendingFinal.map((s) => s.sessionId),
    [],
    'nothing waits for a final archive log',
  );
  assert.deepEqual(
    tp.files('.claude/echoes/.state/sessions').filter((f) => !f.startsWith('ended/')),
    [],
    'every state moved to ended/',
  );
});

test('a hook told that the project is the root of the file system does nothing there and answers protocol JSON', async (t) => {
  const tp = makeTempProject(t);
  const before = existsSync('/.claude');
  for (const [name, handler] of [
    ['session-start', sessionStart],
    ['session-end', sessionEnd],
    ['stop', (ctx: HookContext) => turnEnd(ctx, true)],
  ] as Array<[string, HookHandler]>) {
    const out = await executeHook(hookSpec(name), handler, { session_id: 's', cwd: '/', transcript_path: '/dev/null' }, env(tp), tp.dir);
    assert.deepEqual(JSON.parse(out), { suppressOutput: true }, name);
    // Also when the hook runs in the root with no cwd on its input.
    assert.deepEqual(JSON.parse(await executeHook(hookSpec(name), handler, { session_id: 's' }, env(tp), '/')), { suppressOutput: true });
  }
  if (!before) assert.ok(!existsSync('/.claude'), 'no store made at /');
});
