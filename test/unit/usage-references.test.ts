import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryUse, namedCommands, runsCommand } from '../../src/core/lifecycle/entry-use.ts';
import { emptySummary } from '../../src/core/session/summary-model.ts';
import { usedKeys } from '../../src/store/usage/usage-references.ts';
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
  assert.deepEqual(await usedKeys(entries, summary), [
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
  assert.deepEqual(await usedKeys(entries, summary), []);
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
