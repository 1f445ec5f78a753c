// Issue 11 through the real bundles and the CLI: the hand-off survives
// sessions that do nothing, supersession retires an entry at once and archives
// it between sessions, stale evidence is marked until `verify`, and usage.jsonl
// tells injection from use.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliJson, cliOk } from '../helpers/cli-run.ts';
import { gitIn } from '../helpers/git-clones.ts';
import { echoesPath, hookProject, protocol, startContext } from '../helpers/hook-process.ts';
import { runHookSync } from '../helpers/run-bundle.ts';
import { makeTempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const hook = (dir: string, env: Record<string, string>, name: string, event: string, id: string, extra: Record<string, unknown> = {}) =>
  runHookSync(
    name,
    { session_id: id, transcript_path: join(dir, `${id}.jsonl`), cwd: dir, hook_event_name: event, ...extra },
    { cwd: dir, env },
  );

const slash = (args: string) =>
  `<command-message>rune:echoes</command-message>\n<command-name>/rune:echoes</command-name>\n<command-args>${args}</command-args>`;

test('a session of only /rune:echoes commands neither replaces nor consumes the hand-off, nor adds an archive log', (t) => {
  const { dir, env } = hookProject(t);
  new TranscriptBuilder(join(dir, 'work.jsonl'), 'work', dir)
    .user('Cap the payment retries at 3 and add a test')
    .tool('Edit', { file_path: join(dir, 'src/payments.ts'), old_string: '5', new_string: '3' })
    .assistant('Capped at 3; the test covers it.');
  protocol(hook(dir, env, 'session-start', 'SessionStart', 'work', { source: 'startup' }));
  protocol(hook(dir, env, 'session-end', 'SessionEnd', 'work', { reason: 'other' }));
  const handoff = readFileSync(echoesPath(dir, 'EPHEMERAL.md'), 'utf8');
  assert.match(handoff, /Cap the payment retries/);

  // A session that only asks for status (and one that only says hi).
  for (const [id, prompts] of [
    ['idle', [slash('status'), slash('show reviewer')]],
    ['hello', ['hi']],
  ] as const) {
    const ctx = startContext(hook(dir, env, 'session-start', 'SessionStart', id, { source: 'startup' }));
    assert.match(ctx, /Cap the payment retries/, `${id} is handed the last working session`);
    const b = new TranscriptBuilder(join(dir, `${id}.jsonl`), id, dir);
    for (const p of prompts) b.user(p).assistant('Memory is healthy.');
    protocol(hook(dir, env, 'pre-compact', 'PreCompact', id, { trigger: 'manual' }));
    protocol(hook(dir, env, 'session-end', 'SessionEnd', id, { reason: 'other' }));
    assert.equal(readFileSync(echoesPath(dir, 'EPHEMERAL.md'), 'utf8'), handoff, `${id} left the hand-off as it was`);
  }
  // The working session's final log was written by a later session's end; the idle ones wrote none.
  const logs = ['001', '002', '003'].filter((n) => existsSync(echoesPath(dir, 'memories', `archive-log-${n}.md`)));
  assert.deepEqual(logs, ['001']);
  assert.match(readFileSync(echoesPath(dir, 'memories', 'archive-log-001.md'), 'utf8'), /session: work/);

  // The next session gets the working one, its Asked line included.
  const next = startContext(hook(dir, env, 'session-start', 'SessionStart', 'next', { source: 'startup' }));
  assert.match(next, /Asked:\n- Cap the payment retries at 3 and add a test/);
});

test('a crashed session that worked replaces an older hand-off; a crashed one that did nothing does not', (t) => {
  const { dir, env } = hookProject(t);
  new TranscriptBuilder(join(dir, 'a.jsonl'), 'a', dir)
    .user('Rename the billing module')
    .tool('Edit', { file_path: join(dir, 'src/billing.ts'), old_string: 'a', new_string: 'b' });
  protocol(hook(dir, env, 'session-end', 'SessionEnd', 'a', { reason: 'other' }));
  // b works, then dies without SessionEnd; c only chats, then dies.
  new TranscriptBuilder(join(dir, 'b.jsonl'), 'b', dir)
    .user('Add an index on orders.created_at')
    .tool('Write', { file_path: join(dir, 'db/index.sql'), content: 'CREATE INDEX' });
  protocol(hook(dir, env, 'stop', 'Stop', 'b', { stop_hook_active: false }));
  const ctx = startContext(hook(dir, env, 'session-start', 'SessionStart', 'c', { source: 'startup' }));
  assert.match(ctx, /index on orders/);
  assert.match(readFileSync(echoesPath(dir, 'EPHEMERAL.md'), 'utf8'), /index on orders/, 'the recovered session is the hand-off now');
  new TranscriptBuilder(join(dir, 'c.jsonl'), 'c', dir).user('ok');
  protocol(hook(dir, env, 'stop', 'Stop', 'c', { stop_hook_active: false }));
  const after = startContext(hook(dir, env, 'session-start', 'SessionStart', 'd', { source: 'startup' }));
  assert.match(after, /index on orders/, 'a crashed session that did nothing is not handed on');
});

test('SessionStart logs role-qualified injected ids; SessionEnd logs only what the session used', (t) => {
  const { dir, env } = hookProject(t);
  writeFileSync(join(dir, 'x'), '');
  const memory = [
    '<!-- echo-schema: v2 -->',
    '# Reviewer Memory',
    '',
    '### [2026-11-01] Pattern: Retry backoff lives in the client',
    '- **id**: retry-backoff',
    '- **layer**: inscribed',
    '- **evidence**: `src/retry.ts:10` — backoff',
    '- **verified**: 2026-11-01',
    '- Retries are capped at 3.',
    '',
    '### [2026-11-01] Pattern: Never used lesson',
    '- **id**: never-used',
    '- **layer**: inscribed',
    '- **evidence**: `src/other.ts:1` — other',
    '- **verified**: 2026-11-01',
    '- Something nobody needs.',
    '',
  ].join('\n');
  mkdirSync(echoesPath(dir, 'reviewer'), { recursive: true });
  writeFileSync(echoesPath(dir, 'reviewer', 'MEMORY.md'), memory);
  protocol(hook(dir, env, 'session-start', 'SessionStart', 's1', { source: 'startup' }));
  new TranscriptBuilder(join(dir, 's1.jsonl'), 's1', dir)
    .user('Look at the retry code')
    .tool('Read', { file_path: join(dir, 'src/retry.ts') });
  protocol(hook(dir, env, 'session-end', 'SessionEnd', 's1', { reason: 'other' }));
  const lines = readFileSync(echoesPath(dir, 'usage.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const injected = lines.find((l) => l.event === 'injected');
  assert.equal(injected.via, 'session-start');
  assert.deepEqual(injected.ids.sort(), ['reviewer#never-used', 'reviewer#retry-backoff']);
  assert.deepEqual(
    lines.filter((l) => l.event === 'used').map((l) => l.ids),
    [['reviewer#retry-backoff']],
  );
});

test('supersedes: the old entry leaves the digest at once, moves to the archive with a pointer between sessions, and search ranks it below', async (t) => {
  const tp = makeTempProject(t);
  await cliOk(tp, [
    'remember',
    '--role',
    'reviewer',
    '--pattern',
    'Payment retries back off linearly',
    'Payment retries back off linearly, 5 tries.',
  ]);
  await cliOk(tp, [
    'remember',
    '--role',
    'reviewer',
    '--pattern',
    'Payment retries back off with jitter',
    '--supersedes',
    'payment-retries-back-off-linearly',
    'Payment retries back off with full jitter, capped at 3 tries.',
  ]);
  const shown = await cliOk(tp, ['show', 'reviewer']);
  assert.match(shown, /inscribed \(superseded\)\s+\S+\s+\S+\s+payment-retries-back-off-linearly/);
  assert.match(shown, /! payment-retries-back-off-linearly: superseded by reviewer#payment-retries-back-off-with-jitter/);
  const hits = (await cliJson(tp, ['search', 'payment retries back off'])).hits;
  assert.equal(hits[0].id, 'payment-retries-back-off-with-jitter');
  const old = hits.find((h: { id?: string }) => h.id === 'payment-retries-back-off-linearly');
  assert.equal(old.status, 'superseded');

  const report = await cliJson(tp, ['consolidate', '--prune']);
  assert.deepEqual(report.roles[0].superseded, ['payment-retries-back-off-linearly']);
  assert.doesNotMatch(tp.read('.claude/echoes/reviewer/MEMORY.md')!, /back off linearly/);
  const archived = tp.read('.claude/echoes/reviewer/archive/superseded.md')!;
  assert.match(archived, /- \*\*status\*\*: superseded/);
  assert.match(archived, /- \*\*superseded_by\*\*: reviewer#payment-retries-back-off-with-jitter/);
  const again = (await cliJson(tp, ['search', 'payment retries back off'])).hits;
  assert.equal(again[0].id, 'payment-retries-back-off-with-jitter');
  assert.equal(again.find((h: { id?: string }) => h.id === 'payment-retries-back-off-linearly')?.source, 'archive');
});

test('an entry whose evidence file was committed after its verified date is stale in show and search until verify', async (t) => {
  const tp = makeTempProject(t);
  gitIn(tp.dir, ['init', '--quiet', '-b', 'main'], '2026-03-01T10:00:00Z');
  tp.write('src/auth.ts', 'export const a = 1;\n');
  gitIn(tp.dir, ['add', '.'], '2026-03-01T10:00:00Z');
  gitIn(tp.dir, ['commit', '--quiet', '-m', 'one'], '2026-03-01T10:00:00Z');
  await cliOk(
    tp,
    [
      'remember',
      '--role',
      'reviewer',
      '--pattern',
      'Auth tokens expire hourly',
      '--evidence',
      'src/auth.ts:1 — the constant',
      'Auth tokens expire hourly.',
    ],
    {
      now: new Date('2026-03-02T10:00:00Z'),
    },
  );
  tp.write('src/auth.ts', 'export const a = 2;\n');
  gitIn(tp.dir, ['commit', '--quiet', '-am', 'two'], '2026-03-20T10:00:00Z');
  const later = { now: new Date('2026-04-01T10:00:00Z') };
  const shown = await cliOk(tp, ['show'], later);
  assert.match(shown, /inscribed \(stale\)/);
  assert.match(
    shown,
    /! auth-tokens-expire-hourly: \(evidence changed since 2026-03-02\) — check it against the code, then rune-echoes verify auth-tokens-expire-hourly/,
  );
  assert.equal((await cliJson(tp, ['show'], later)).roles[0].items[0].staleSince, '2026-03-02');
  assert.match(
    await cliOk(tp, ['search', 'auth tokens'], later),
    /Auth tokens expire hourly {2}\[auth-tokens-expire-hourly\] \(evidence changed since 2026-03-02\)/,
  );

  const verified = await cliJson(tp, ['verify', 'auth-tok'], later);
  assert.deepEqual(verified, {
    role: 'reviewer',
    id: 'auth-tokens-expire-hourly',
    title: 'Auth tokens expire hourly',
    verified: '2026-04-01',
    previous: '2026-03-02',
    wasStale: true,
  });
  assert.match(tp.read('.claude/echoes/reviewer/MEMORY.md')!, /- \*\*verified\*\*: 2026-04-01/);
  // The list prompt and subagent recall read is cleared at once, before any show or search runs again.
  assert.doesNotMatch(tp.read('.claude/echoes/.state/stale-entries.json') ?? '{}', /auth-tokens-expire-hourly/);
  assert.doesNotMatch(await cliOk(tp, ['show'], later), /stale/);
});

test('an old usage.jsonl is read as it was and compacted into the new format without losing a count', async (t) => {
  const tp = makeTempProject(t);
  await cliOk(tp, ['remember', '--role', 'reviewer', '--pattern', 'Retry backoff lives in the client', 'Retries are capped at 3.']);
  const id = 'retry-backoff-lives-in-the-client';
  // What the foundation wrote: 45 sessions, each given the entry, every third one referencing it; bare ids.
  const lines: string[] = [];
  for (let s = 1; s <= 45; s++) {
    const day = `2026-03-${String(1 + (s % 28)).padStart(2, '0')}T${String(s % 24).padStart(2, '0')}:00:00Z`;
    lines.push(JSON.stringify({ ts: day, session: `old-${s}`, event: 'injected', ids: [id, 'gone-entry'], tokens: 700 }));
    if (s % 3 === 0) lines.push(JSON.stringify({ ts: day, session: `old-${s}`, event: 'referenced', ids: [id] }));
  }
  tp.write('.claude/echoes/usage.jsonl', `${lines.join('\n')}\n`);
  const before = (await cliJson(tp, ['show', 'reviewer'])).roles[0].items[0];
  assert.equal(before.injected, 45);
  assert.equal(before.used, 15, 'the old references count as uses');

  const { compactUsage } = await import('../../src/store/usage/usage-log.ts');
  const { before: n0, after: n1 } = compactUsage(tp.paths, 20);
  assert.ok(n1 < n0, `${n0} events folded into ${n1}`);
  const text = tp.read('.claude/echoes/usage.jsonl')!;
  assert.doesNotMatch(text, /"referenced"/, 'rewritten in the new format');
  assert.match(text, /"session":"compacted","event":"injected","ids":\["retry-backoff-lives-in-the-client"\],"count":\d+/);
  const after = (await cliJson(tp, ['show', 'reviewer'])).roles[0].items[0];
  assert.equal(after.injected, 45);
  assert.equal(after.used, 15);
  assert.equal(after.score, before.score, 'the relevance window is the same 20 sessions');
});

test('a crashed session that worked after the last hand-off was written is handed on, though it started before', (t) => {
  const { dir, env } = hookProject(t);
  protocol(hook(dir, env, 'session-start', 'SessionStart', 'a', { source: 'startup' }));
  const a = new TranscriptBuilder(join(dir, 'a.jsonl'), 'a', dir).user('Look at the queue');
  // b starts later, works and ends: its summary is the hand-off.
  new TranscriptBuilder(join(dir, 'b.jsonl'), 'b', dir)
    .user('Add an index on orders.created_at')
    .tool('Write', { file_path: join(dir, 'db/index.sql'), content: 'CREATE INDEX' });
  protocol(hook(dir, env, 'session-start', 'SessionStart', 'b', { source: 'startup' }));
  protocol(hook(dir, env, 'session-end', 'SessionEnd', 'b', { reason: 'other' }));
  assert.match(readFileSync(echoesPath(dir, 'EPHEMERAL.md'), 'utf8'), /index on orders/);
  // a goes on working after that, a turn ends, and it dies without SessionEnd.
  a.user('Move the retry queue to Redis streams').tool('Edit', { file_path: join(dir, 'src/queue.ts'), old_string: 'a', new_string: 'b' });
  protocol(hook(dir, env, 'stop', 'Stop', 'a', { stop_hook_active: false }));
  const ctx = startContext(hook(dir, env, 'session-start', 'SessionStart', 'c', { source: 'startup' }));
  assert.match(ctx, /Redis streams/);
});

/** A reviewer MEMORY.md of entries given as [id, evidence, learning]. */
function reviewerMemory(dir: string, entries: Array<[string, string, string]>): void {
  mkdirSync(echoesPath(dir, 'reviewer'), { recursive: true });
  const blocks = entries.flatMap(([id, evidence, learning]) => [
    `### [2026-11-01] Pattern: ${id}`,
    `- **id**: ${id}`,
    '- **layer**: inscribed',
    `- **evidence**: ${evidence}`,
    `- ${learning}`,
    '',
  ]);
  writeFileSync(echoesPath(dir, 'reviewer', 'MEMORY.md'), ['<!-- echo-schema: v2 -->', '# Reviewer Memory', '', ...blocks].join('\n'));
}

/** The `used` lines of usage.jsonl, as [session, ids sorted]. */
const usedLines = (dir: string): Array<[string, string[]]> =>
  readFileSync(echoesPath(dir, 'usage.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((l) => l.event === 'used')
    .map((l) => [l.session, [...l.ids].sort()]);

test('use is told from all of a long session: a name said in a part Stop read, a file and a command beyond the summary’s caps', (t) => {
  const { dir, env } = hookProject(t);
  // Work in the hooks' own processes, SessionEnd's budget raised as Claude Code's setting does: however busy the machine is.
  const inline = { ...env, RUNE_ECHOES_INLINE: '1', CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' };
  reviewerMemory(dir, [
    ['ledger-rounding-rule', '`docs/money.md:1` — rounding', 'Round half to even in the ledger.'],
    ['early-file', '`src/early/config.ts:3` — defaults', 'Defaults live in one file.'],
    ['seed-command', '', 'Run `make seed-db` before the API tests.'],
    ['never-touched', '`src/nowhere.ts:1` — x', 'Nothing.'],
  ]);
  const b = new TranscriptBuilder(join(dir, 'long.jsonl'), 'long', dir)
    .user('Fix the ledger totals')
    .assistant('As ledger-rounding-rule says, totals round half to even.')
    // A long tool output: Stop reads this part itself (it is past the unread threshold).
    .bash('cat fixtures/big.log', 0, 'x'.repeat(700 * 1024));
  protocol(hook(dir, inline, 'stop', 'Stop', 'long', { stop_hook_active: false }));
  const afterStop = JSON.parse(readFileSync(echoesPath(dir, '.state', 'sessions', 'long.json'), 'utf8'));
  assert.ok(afterStop.offset > 700 * 1024, 'Stop read the first part');

  // The second part: the cited file and the named command once, among many files and commands done twice.
  b.user('Now the config loader').tool('Read', { file_path: join(dir, 'src/early/config.ts') });
  b.bash('make seed-db');
  for (let i = 0; i < 45; i++) for (let k = 0; k < 2; k++) b.tool('Read', { file_path: join(dir, `src/mod${i}.ts`) });
  for (let i = 0; i < 45; i++) for (let k = 0; k < 2; k++) b.bash(`make task${i}`);
  b.assistant('Done.');
  protocol(hook(dir, inline, 'session-end', 'SessionEnd', 'long', { reason: 'other' }));
  const state = JSON.parse(readFileSync(echoesPath(dir, '.state', 'sessions', 'long.json'), 'utf8'));
  assert.ok(!state.draft.filesRead.includes('src/early/config.ts'), 'the cited file is outside the summary’s list');
  assert.ok(
    !state.draft.commands.some((c: { command: string }) => c.command === 'make seed-db'),
    'the command is outside the summary’s list',
  );
  assert.deepEqual(usedLines(dir), [['long', ['reviewer#early-file', 'reviewer#ledger-rounding-rule', 'reviewer#seed-command']]]);
});

test('a session that crashed counts what it used once the next start recovers it', (t) => {
  const { dir, env } = hookProject(t);
  // Work in the hooks' own processes, SessionEnd's budget raised as Claude Code's setting does: however busy the machine is.
  const inline = { ...env, RUNE_ECHOES_INLINE: '1', CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' };
  reviewerMemory(dir, [['retry-backoff', '`src/retry.ts:10` — backoff', 'Retries are capped at 3.']]);
  new TranscriptBuilder(join(dir, 'b.jsonl'), 'b', dir)
    .user('Tighten the retry code')
    .tool('Edit', { file_path: join(dir, 'src/retry.ts'), old_string: '5', new_string: '3' });
  protocol(hook(dir, inline, 'stop', 'Stop', 'b', { stop_hook_active: false }));
  assert.ok(!existsSync(echoesPath(dir, 'usage.jsonl')), 'nothing counted before the session is over');
  protocol(hook(dir, inline, 'session-start', 'SessionStart', 'c', { source: 'startup' }));
  assert.deepEqual(usedLines(dir), [['b', ['reviewer#retry-backoff']]]);
});

test('a resumed session is not handed its own summary again; another session, resumed or new, is', (t) => {
  const { dir, env } = hookProject(t);
  const a = '3f2c9a10-5b7e-4d21-9c3a-0e8f1d2b4a61';
  const b = '7a1d0c44-2e9f-4b83-8d10-6c5e2f9a1b07';
  new TranscriptBuilder(join(dir, `${a}.jsonl`), a, dir)
    .user('Move the cron jobs to the worker queue')
    .tool('Edit', { file_path: join(dir, 'src/cron.ts'), old_string: 'a', new_string: 'b' });
  protocol(hook(dir, env, 'session-start', 'SessionStart', a, { source: 'startup' }));
  protocol(
    hook(dir, { ...env, RUNE_ECHOES_INLINE: '1', CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' }, 'session-end', 'SessionEnd', a, {
      reason: 'other',
    }),
  );
  assert.match(readFileSync(echoesPath(dir, 'EPHEMERAL.md'), 'utf8'), /\(session 3f2c9a10…/);

  const cache = echoesPath(dir, '.state', 'digest-cache.json');
  const prepared = statSync(cache).mtimeMs;
  // Its own summary is in its conversation already, and the store holds nothing else: nothing is given.
  const resumed = protocol(hook(dir, env, 'session-start', 'SessionStart', a, { source: 'resume' }));
  assert.equal(resumed.hookSpecificOutput, undefined, JSON.stringify(resumed));
  assert.equal(statSync(cache).mtimeMs, prepared, 'the digest the session’s end prepared served its resume');
  const other = startContext(hook(dir, env, 'session-start', 'SessionStart', b, { source: 'resume' }));
  assert.match(other, /Last session — .*cron jobs|Move the cron jobs/s);
  const fresh = startContext(hook(dir, env, 'session-start', 'SessionStart', b, { source: 'startup' }));
  assert.match(fresh, /Move the cron jobs/);
});
