import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptySummary } from '../../src/core/session/summary-model.ts';
import { referencedIds } from '../../src/store/usage/usage-references.ts';
import { makeEntry } from './entry-arbitrary.ts';

const entries = [
  makeEntry({ id: 'named', title: 'Named in the conversation', evidence: '`docs/x.md:1`' }),
  makeEntry({ id: 'plain', title: 'Plain path', evidence: '`src/payments/retry.ts:10-20` — backoff' }),
  makeEntry({ id: 'glob', title: 'Glob path', evidence: '`test/**/*.spec.ts` — flaky specs' }),
  makeEntry({ id: 'untouched', title: 'Untouched', evidence: '`src/other.ts:1`' }),
];

test('a session references entries it named, and entries whose cited files it read or edited', async () => {
  const summary = {
    ...emptySummary(),
    namedTerms: ['named'],
    filesRead: ['src/payments/retry.ts'],
    filesEdited: ['test/unit/api.spec.ts'],
  };
  assert.deepEqual(await referencedIds(entries, summary), ['named', 'plain', 'glob']);
});

test('a session that touched no cited file and named nothing references nothing', async () => {
  assert.deepEqual(await referencedIds(entries, { ...emptySummary(), filesRead: ['README.md'] }), []);
});
