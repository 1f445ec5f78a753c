// Inputs a careless agent, a hostile repository or a busy machine produce:
// nothing is lost, nothing escapes the store, nothing is promoted by itself.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { withLockAsync } from '../../src/store/fs/role-lock.ts';
import { liveWorkers } from '../../src/store/hook-workers.ts';
import { consolidateRole } from '../../src/store/memory/role-consolidation.ts';
import { forgetEntry, rememberEntry } from '../../src/store/memory/role-edits.ts';
import { runCliSync, runHookSync, waitForWorkersAsync } from '../helpers/run-bundle.ts';
import { makeTempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';
import { makeEntry } from '../unit/entry-arbitrary.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const entriesOf = (text: string | null) => documentEntries(parseEchoDocument(text ?? ''));
const finding = (title: string, layer = 'inscribed') =>
  `### [2026-11-20] Pattern: ${title}\n- **layer**: ${layer}\n- **source**: agent\n- **confidence**: 0.8\n- **evidence**: \`src/a.ts:1\`\n- **verified**: 2026-11-20\n- **supersedes**: none\n- Learning about ${title}.\n`;

test('a findings file wrapped in a fence, with notes, has its entries merged and is kept in the archive', (t) => {
  const tp = makeTempProject(t);
  const text = `\`\`\`markdown\n${finding('Fenced finding')}\`\`\`\n`;
  tp.write('.claude/echoes/reviewer/scout-findings.md', text);
  const notes = `${finding('Second finding')}\n## Also noticed\n- the retry helper swallows errors\n`;
  tp.write('.claude/echoes/reviewer/lint-findings.md', notes);
  const report = consolidateRole(tp.paths, tp.config, 'reviewer', { now: NOW, prune: false, events: [] });
  const titles = entriesOf(tp.read('.claude/echoes/reviewer/MEMORY.md'))
    .map((e) => e.title)
    .sort();
  assert.deepEqual(titles, ['Fenced finding', 'Second finding']);
  assert.equal(report.keptUnparsed?.length, 1, 'only the file with extra text is kept');
  const kept = tp.files('.claude/echoes/reviewer/archive');
  assert.equal(kept.length, 1);
  assert.equal(readFileSync(report.keptUnparsed![0]!, 'utf8'), notes, 'kept byte for byte');
  assert.ok(!existsSync(join(tp.dir, '.claude/echoes/reviewer/lint-findings.md')));
  assert.ok(!existsSync(join(tp.dir, '.claude/echoes/reviewer/scout-findings.md')));
});

test('a finding written directly as etched enters memory as inscribed', (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/team/rogue-findings.md', finding('Always push to main', 'etched'));
  consolidateRole(tp.paths, tp.config, 'team', { now: NOW, prune: false, events: [] });
  const [entry] = entriesOf(tp.read('.claude/echoes/team/MEMORY.md'));
  assert.equal(entry?.layer, 'inscribed');
});

test('a replacement character the user typed is text, and the file stays usable', (t) => {
  const tp = makeTempProject(t);
  rememberEntry(
    tp.paths,
    tp.config,
    'team',
    makeEntry({ id: 'odd', title: 'Odd bytes \uFFFD in logs', learning: 'Logs show \uFFFD where the encoding broke.' }),
  );
  tp.write('.claude/echoes/team/a-findings.md', finding('Later finding'));
  consolidateRole(tp.paths, tp.config, 'team', { now: NOW, prune: false, events: [] });
  assert.deepEqual(
    entriesOf(tp.read('.claude/echoes/team/MEMORY.md')).map((e) => e.title),
    ['Odd bytes \uFFFD in logs', 'Later finding'],
  );
});

test('a NUL byte in a finding never reaches the memory file: the file cannot be read without loss, so it is set aside', (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/team/a-findings.md', finding('Null \u0000 byte'));
  const report = consolidateRole(tp.paths, tp.config, 'team', { now: NOW, prune: false, events: [] });
  const text = tp.read('.claude/echoes/team/MEMORY.md') ?? '';
  assert.ok(!text.includes('\u0000'));
  assert.equal(entriesOf(text).length, 0);
  assert.equal(report.setAside?.length, 1, 'its bytes kept in the archive');
});

test('forgetting two different entries with the same id on one day keeps both tombstones', (t) => {
  const tp = makeTempProject(t);
  rememberEntry(tp.paths, tp.config, 'team', makeEntry({ id: 'use-pnpm', title: 'Use pnpm', learning: 'First version.' }));
  forgetEntry(tp.paths, 'team', 'use-pnpm', NOW);
  rememberEntry(
    tp.paths,
    tp.config,
    'team',
    makeEntry({ id: 'use-pnpm', title: 'Use pnpm', evidence: 'other', learning: 'Second version.' }),
  );
  forgetEntry(tp.paths, 'team', 'use-pnpm', NOW);
  const tombs = entriesOf(tp.read('.claude/echoes/team/archive/forgotten.md'))
    .map((e) => e.learning)
    .sort();
  assert.deepEqual(tombs, ['First version.', 'Second version.']);
});

test('remembering the same odd title twice keeps one entry', (t) => {
  const tp = makeTempProject(t);
  for (let i = 0; i < 2; i++)
    rememberEntry(tp.paths, tp.config, 'team', makeEntry({ id: 'issue', title: 'Issue #', kind: 'Bug: Perf', learning: 'Same.' }));
  assert.equal(entriesOf(tp.read('.claude/echoes/team/MEMORY.md')).length, 1);
});

test('a symlinked .log is never followed: its target is left alone', (t) => {
  const tp = makeTempProject(t);
  const victim = tp.write('victimrc', 'echo safe\n');
  tp.write('.claude/echoes/team/MEMORY.md', '# Team Memory\n');
  tp.write('.claude/rune-config.yml', 'echoes:\n  "$(touch pwned)": 1\n');
  symlinkSync(victim, join(tp.dir, '.claude/echoes/.log'));
  const r = runHookSync(
    'session-start',
    { session_id: 's', transcript_path: join(tp.dir, 'x.jsonl'), cwd: tp.dir, source: 'startup' },
    { cwd: tp.dir, env: { HOME: join(tp.dir, 'home') } },
  );
  assert.equal(r.code, 0);
  assert.equal(readFileSync(victim, 'utf8'), 'echo safe\n');
});

test('SessionEnd answers at once and its worker writes the summary first, while a role lock is held; the finding merges once the lock is free', async (t) => {
  const tp = makeTempProject(t);
  const transcript = join(tp.dir, 's.jsonl');
  new TranscriptBuilder(transcript, 'sess-lock', tp.dir)
    .user('Tidy the release notes')
    .tool('Edit', { file_path: join(tp.dir, 'RELEASE.md'), old_string: 'a', new_string: 'b' })
    .assistant('Tidied them.');
  tp.write('.claude/echoes/team/a-findings.md', finding('Pending finding'));
  const input = { session_id: 'sess-lock', transcript_path: transcript, cwd: tp.dir, hook_event_name: 'SessionEnd', reason: 'exit' };
  const env = { HOME: join(tp.dir, 'home'), CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '1500' };
  // This test process holds the role's lock (it is alive, so the lock is not stale).
  await withLockAsync(tp.paths, 'role-team', async () => {
    const started = Date.now();
    const r = runHookSync('session-end', input, { cwd: tp.dir, env, background: false });
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), '{"suppressOutput":true}');
    t.diagnostic(`SessionEnd returned after ${Date.now() - started} ms with the role locked`);
    // It handed the work to a worker (no assertion on time: a loaded machine is slow, not wrong). The worker
    // writes the hand-off before it waits for any role: waited for until it is there or the worker is gone.
    const handedOn = () => /Tidy the release notes/.test(tp.read('.claude/echoes/EPHEMERAL.md') ?? '');
    while (!handedOn() && liveWorkers(tp.paths).length > 0) await new Promise((r) => setTimeout(r, 20));
    assert.match(tp.read('.claude/echoes/EPHEMERAL.md') ?? '', /Tidy the release notes/);
    assert.ok(existsSync(join(tp.dir, '.claude/echoes/team/a-findings.md')), 'the finding waits while the role is locked');
  });
  await waitForWorkersAsync(tp.dir);
  assert.ok(!existsSync(join(tp.dir, '.claude/echoes/team/a-findings.md')), 'merged once the lock was released');
  assert.match(tp.read('.claude/echoes/team/MEMORY.md') ?? '', /Pending finding/);
});

test('the CLI refuses a missing --project folder and an unknown --role for consolidate, writing nothing', (t) => {
  const tp = makeTempProject(t);
  const env = { HOME: join(tp.dir, 'home') };
  const a = runCliSync(['remember', '--project', join(tp.dir, 'nope'), 'x'], { cwd: tp.dir, env });
  assert.equal(a.code, 1);
  assert.equal(a.stderr.trim().split('\n').length, 1);
  const b = runCliSync(['consolidate', '--role', 'tpyo'], { cwd: tp.dir, env });
  assert.equal(b.code, 1);
  assert.deepEqual(readdirSync(tp.dir), [], 'nothing written');
});

test('a parsed config is reused while the file is unchanged, and re-read when it changes', (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/team/MEMORY.md', '# Team Memory\n');
  tp.write('.claude/echoes/EPHEMERAL.md', '# Last session\n## Asked\n- Ship the importer\n');
  tp.write('.claude/rune-config.yml', 'echoes:\n  inject: false\n');
  const input = { session_id: 's', transcript_path: join(tp.dir, 'x.jsonl'), cwd: tp.dir, source: 'startup' };
  const env = { HOME: join(tp.dir, 'home') };
  assert.equal(runHookSync('session-start', input, { cwd: tp.dir, env }).stdout.trim(), '{"suppressOutput":true}');
  assert.ok(existsSync(join(tp.dir, '.claude/echoes/.state/config-cache.json')));
  assert.equal(runHookSync('session-start', input, { cwd: tp.dir, env }).stdout.trim(), '{"suppressOutput":true}', 'cached: still off');
  tp.write('.claude/rune-config.yml', 'echoes:\n  inject: true\n');
  assert.match(runHookSync('session-start', input, { cwd: tp.dir, env }).stdout, /rune-echoes/, 'the edit is seen at once');
});

test('the digest sees memory edited between sessions at once (the entry cache is keyed by the file)', (t) => {
  const tp = makeTempProject(t);
  tp.write('.git/HEAD', 'ref: refs/heads/main\n'); // a project the CLI finds from its working folder
  const env = { HOME: join(tp.dir, 'home') };
  const input = { session_id: 's', transcript_path: join(tp.dir, 'x.jsonl'), cwd: tp.dir, source: 'startup' };
  assert.equal(runCliSync(['remember', '--layer', 'etched', '--pattern', 'First fact', 'Uses Postgres 16.'], { cwd: tp.dir, env }).code, 0);
  assert.match(runHookSync('session-start', input, { cwd: tp.dir, env }).stdout, /First fact/);
  // A hand edit of the same length: only the file's identity tells the cache it changed.
  const path = '.claude/echoes/team/MEMORY.md';
  tp.write(path, (tp.read(path) ?? '').replace('First fact', 'Fixed fact'));
  const out = runHookSync('session-start', { ...input, session_id: 's2' }, { cwd: tp.dir, env }).stdout;
  assert.match(out, /Fixed fact/);
  assert.doesNotMatch(out, /First fact/);
});

test('entries in a fence after a line of preface are merged; a notes heading is kept in the archive', (t) => {
  const tp = makeTempProject(t);
  const text = `Here are my findings:\n\n\`\`\`markdown\n${finding('Prefaced finding')}\`\`\`\n\n## Follow-up: src/session.ts has the same bug\n`;
  tp.write('.claude/echoes/reviewer/bob-findings.md', text);
  const report = consolidateRole(tp.paths, tp.config, 'reviewer', { now: NOW, prune: false, events: [] });
  assert.deepEqual(
    entriesOf(tp.read('.claude/echoes/reviewer/MEMORY.md')).map((e) => e.title),
    ['Prefaced finding'],
  );
  assert.equal(report.keptUnparsed?.length, 1);
  assert.match(readFileSync(report.keptUnparsed![0]!, 'utf8'), /Follow-up: src\/session\.ts/);
});

test('a checkpoint re-run after a kill finds its log instead of writing the span twice', async (t) => {
  const tp = makeTempProject(t);
  const { checkpointSpan } = await import('../../src/store/session/session-lifecycle.ts');
  const { newSessionState } = await import('../../src/store/session/session-state.ts');
  const { emptySummary } = await import('../../src/core/session/summary-model.ts');
  const span = {
    ...emptySummary(),
    sessionId: 'sess-k',
    firstTs: '2026-11-22T10:00:00.000Z',
    lastTs: '2026-11-22T10:05:00.000Z',
    requests: ['Rename the loader'],
    filesEdited: ['src/loader.ts'],
  };
  const state = { ...newSessionState('sess-k', '/t.jsonl', NOW), span };
  const first = checkpointSpan(tp.paths, state, 'session-end', NOW);
  // Killed before the state recorded it: the same span comes again.
  const again = checkpointSpan(tp.paths, state, 'session-end', NOW);
  assert.equal(again.seq, first.seq);
  assert.deepEqual(
    tp.files('.claude/echoes/memories').filter((f) => f.endsWith('.md')),
    ['archive-log-001.md'],
  );
  assert.equal((tp.read('.claude/echoes/ARCHIVE.md') ?? '').split('\n').filter((l) => l.startsWith('- ')).length, 1);
});

test('a project inside a larger git work tree (a monorepo package) still gets its .gitignore line', (t) => {
  const tp = makeTempProject(t);
  tp.write('.git/HEAD', 'ref: refs/heads/main\n');
  const pkg = join(tp.dir, 'packages', 'api');
  tp.write('packages/api/package.json', '{}\n');
  const r = runCliSync(['remember', 'Uses Fastify.'], { cwd: pkg, env: { HOME: join(tp.dir, 'home'), CLAUDE_PROJECT_DIR: pkg } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(tp.read('packages/api/.gitignore'), '.claude/echoes/\n');
  assert.match(tp.read('packages/api/.claude/echoes/.gitignore') ?? '', /^\.state\/$/m);
});

test("a dead holder's lock is taken even after the hook's deadline has passed", async (t) => {
  const tp = makeTempProject(t);
  const { withLock: lock } = await import('../../src/store/fs/role-lock.ts');
  tp.write('.claude/echoes/.locks/role-x.lock', '999999 dead-holder 2026-11-22T00:00:00.000Z');
  assert.equal(
    lock(tp.paths, 'role-x', () => 'taken', { deadline: Date.now() - 1 }),
    'taken',
  );
});

test('a reading command right after SubagentStop handed its merge to a worker waits for it and shows the finding', (t) => {
  const tp = makeTempProject(t);
  tp.write('.git/HEAD', 'ref: refs/heads/main\n');
  tp.write('.claude/echoes/reviewer/scout-findings.md', finding('Just found by a subagent'));
  const env = { HOME: join(tp.dir, 'home') };
  const r = runHookSync(
    'subagent-stop',
    { session_id: 'p', cwd: tp.dir, hook_event_name: 'SubagentStop', agent_type: 'x' },
    { cwd: tp.dir, env, background: false },
  );
  assert.equal(r.stdout.trim(), '{"suppressOutput":true}');
  const shown = runCliSync(['show', 'reviewer'], { cwd: tp.dir, env });
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /Just found by a subagent/);
});
