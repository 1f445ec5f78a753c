import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { entryUse, namedCommands, runsCommand } from '../../src/core/lifecycle/entry-use.ts';
import { createSummaryBuilder } from '../../src/core/session/session-summary.ts';
import { emptySummary } from '../../src/core/session/summary-model.ts';
import { usedKeys, useWatch } from '../../src/store/usage/usage-references.ts';
import { watchTermsOf } from '../../src/store/usage/usage-terms.ts';
import { makeEntry } from './entry-arbitrary.ts';

const entries = [
  makeEntry({ id: 'named', title: 'Named in the conversation', evidence: '`docs/x.md:1`' }),
  makeEntry({ id: 'plain', title: 'Plain path', evidence: '`src/payments/retry.ts:10-20` — backoff' }),
  makeEntry({ id: 'glob', title: 'Glob path', evidence: '`test/**/*.spec.ts` — flaky specs' }),
  makeEntry({ id: 'untouched', title: 'Untouched', evidence: '`src/other.ts:1`' }),
  makeEntry({ id: 'searched', title: 'Searched file', evidence: '`src/config/loader.ts:4`' }),
  makeEntry({ id: 'command', title: 'Build before commit', evidence: '', learning: 'Run `npm run build` before committing dist/.' }),
].map((entry) => ({ role: 'reviewer', entry }));

test('a session uses entries it named, whose cited files it read, edited or searched, and whose commands it ran', async () => {
  const summary = {
    ...emptySummary(),
    namedTerms: ['named'],
    filesRead: ['src/payments/retry.ts'],
    filesEdited: ['test/unit/api.spec.ts'],
    searches: ['loadConfig in src/config/loader.ts'],
    commands: [{ command: 'cd app && npm run build -- --watch', failed: false, count: 1 }],
  };
  assert.deepEqual(usedKeys(await useWatch(entries), summary), [
    'reviewer#named',
    'reviewer#plain',
    'reviewer#glob',
    'reviewer#searched',
    'reviewer#command',
  ]);
});

test('a session that touched no cited file, ran nothing named and named nothing used nothing', async () => {
  const summary = {
    ...emptySummary(),
    filesRead: ['README.md'],
    searches: ['TODO in src'],
    commands: [{ command: 'npm run lint', failed: false, count: 1 }],
  };
  assert.deepEqual(usedKeys(await useWatch(entries), summary), []);
});

test('the commands an entry names are backticked spans with a program and an argument', () => {
  const entry = makeEntry({
    learning: 'Run `npm test -- --runInBand` on CI; `Map` is not a command, nor is `retry()`; `./scripts/check.sh --all` is.',
    solution: 'Use `git commit --no-verify` only for docs.',
  });
  assert.deepEqual(namedCommands(entry), ['npm test -- --runInBand', './scripts/check.sh --all', 'git commit --no-verify']);
  assert.equal(runsCommand('npm test -- --runInBand --silent', 'npm test -- --runInBand'), true);
  assert.equal(runsCommand('FOO=1 npm test -- --runInBand', 'npm test -- --runInBand'), true);
  assert.equal(runsCommand('npm testing', 'npm test'), false);
  assert.equal(entryUse(entry, { files: [], searches: [], commands: ['npm run lint'], named: [] }), null);
});

test('a name counts only as a whole word, a one-word id is no name, and absolute evidence meets relative files', async () => {
  const items = [
    makeEntry({ id: 'migrations', title: 'Migrations', evidence: '' }),
    makeEntry({ id: 'retry-backoff', title: 'Retry backoff is capped', evidence: '' }),
    makeEntry({ id: 'abs', title: 'Absolute evidence', evidence: '`/home/dev/proj/src/retry.ts:10` — here' }),
  ].map((entry) => ({ role: 'reviewer', entry }));
  const terms = watchTermsOf(items.map((i) => i.entry));
  assert.ok(!terms.includes('migrations'), 'a one-word id is a word anyone writes');
  assert.ok(terms.includes('retry-backoff'));
  const folded = (text: string) => {
    const b = createSummaryBuilder({ watchTerms: terms });
    b.addLine(
      JSON.stringify({
        type: 'assistant',
        sessionId: 's',
        cwd: '/repo',
        uuid: 'u1',
        timestamp: '2026-01-01T00:00:01.000Z',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text }] },
      }),
    );
    return b.finish().namedTerms;
  };
  assert.deepEqual(folded('No database migrations needed; see retry-backoff-v2 for the new rule.'), []);
  assert.deepEqual(folded('As retry-backoff says, cap it.'), ['retry-backoff']);
  const summary = { ...emptySummary(), filesEdited: ['src/retry.ts'] };
  assert.deepEqual(usedKeys(await useWatch(items), summary), ['reviewer#abs']);
});

test('a cited path the project has at its root means that file alone; one it lacks matches the end of a deeper path', async (t) => {
  const project = mkdtempSync(join(tmpdir(), 'rune-use-'));
  t.after(() => rmSync(project, { recursive: true, force: true }));
  writeFileSync(join(project, 'package.json'), '{}');
  const items = [
    makeEntry({ id: 'root-manifest', title: 'Root manifest', evidence: '`package.json:5` — workspaces' }),
    makeEntry({ id: 'settings', title: 'Settings', evidence: '`settings.py:12` — the DB' }),
  ].map((entry) => ({ role: 'reviewer', entry }));
  const watch = await useWatch(items, project);
  const deeper = { ...emptySummary(), filesRead: ['packages/api/package.json', 'api/settings.py'] };
  assert.deepEqual(usedKeys(watch, deeper), ['reviewer#settings']);
  assert.deepEqual(usedKeys(watch, { ...emptySummary(), filesEdited: ['package.json'] }), ['reviewer#root-manifest']);
  // Without a project to look in, the end of any path matches, as before.
  assert.deepEqual(usedKeys(await useWatch(items), deeper), ['reviewer#root-manifest', 'reviewer#settings']);
});

test('naming an entry in a /rune:echoes command (recording or showing it) is not using it', () => {
  const b = createSummaryBuilder({ watchTerms: ['retry-backoff-jitter', 'Payment retries use jittered backoff'] });
  b.addLine(
    JSON.stringify({
      type: 'user',
      sessionId: 's',
      cwd: '/repo',
      uuid: 'u1',
      timestamp: '2026-01-01T00:00:01.000Z',
      message: { role: 'user', content: '/rune:echoes remember --pattern "Payment retries use jittered backoff" capped at 3' },
    }),
  );
  assert.deepEqual(b.finish().namedTerms, []);
});
