import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retiredEntries, supersededKeys } from '../../src/core/lifecycle/supersession.ts';
import { digestCandidates } from '../../src/core/recall/digest.ts';
import { makeEntry } from './entry-arbitrary.ts';

const NOW = new Date('2026-04-01T12:00:00Z');

test('supersedes names an id of its own role, role#id of any role, several at once, or nothing', () => {
  assert.deepEqual(supersededKeys('none', 'reviewer'), []);
  assert.deepEqual(supersededKeys('', 'reviewer'), []);
  assert.deepEqual(supersededKeys('old-retry-rule', 'reviewer'), ['reviewer#old-retry-rule']);
  assert.deepEqual(supersededKeys('team#node-18, planner/MEMORY.md#plan-a `b-c`', 'reviewer'), [
    'team#node-18',
    'planner#plan-a',
    'reviewer#b-c',
  ]);
  assert.deepEqual(supersededKeys('Some Prose Here!', 'reviewer'), [], 'words that are not ids name nothing');
});

test('a live entry retires the one it names; a retired or statused entry retires nothing; nothing retires itself', () => {
  const items = [
    { role: 'reviewer', entry: makeEntry({ id: 'new-rule', supersedes: 'old-rule' }) },
    { role: 'reviewer', entry: makeEntry({ id: 'old-rule' }) },
    { role: 'reviewer', entry: makeEntry({ id: 'gone', status: 'retracted', supersedes: 'kept' }) },
    { role: 'reviewer', entry: makeEntry({ id: 'kept' }) },
    { role: 'team', entry: makeEntry({ id: 'selfish', supersedes: 'selfish' }) },
    { role: 'team', entry: makeEntry({ id: 'cross', supersedes: 'reviewer#kept-2' }) },
    { role: 'reviewer', entry: makeEntry({ id: 'kept-2' }) },
  ];
  assert.deepEqual(
    [...retiredEntries(items)],
    [
      ['reviewer#old-rule', 'reviewer#new-rule'],
      ['reviewer#kept-2', 'team#cross'],
    ],
  );
});

test('two entries that name each other: the newer stays (then the one written later)', () => {
  const a = { role: 'r', entry: makeEntry({ id: 'a', supersedes: 'b', verified: '2026-03-05' }) };
  const b = { role: 'r', entry: makeEntry({ id: 'b', supersedes: 'a', verified: '2026-03-01' }) };
  assert.deepEqual([...retiredEntries([a, b]).keys()], ['r#b']);
  const sameDay = { role: 'r', entry: { ...b.entry, verified: '2026-03-05' } };
  assert.deepEqual([...retiredEntries([a, sameDay]).keys()], ['r#a'], 'same day: the later in the list stays');
});

test('a superseded lesson leaves the digest candidates at once, even when it scored higher', () => {
  const items = [
    { role: 'reviewer', entry: makeEntry({ id: 'old', layer: 'inscribed', verified: '2026-04-01' }) },
    { role: 'reviewer', entry: makeEntry({ id: 'new', layer: 'inscribed', verified: '2026-01-15', supersedes: 'old' }) },
    { role: 'team', entry: makeEntry({ id: 'fact', layer: 'etched', supersedes: 'none' }) },
  ];
  const events = [{ ts: '2026-03-30T10:00:00Z', session: 's', event: 'used' as const, ids: ['reviewer#old'] }];
  const c = digestCandidates(items, events, NOW, 20);
  assert.deepEqual(
    c.lessons.map((d) => d.entry.id),
    ['new'],
  );
  assert.deepEqual(
    c.etched.map((d) => d.entry.id),
    ['fact'],
  );
  assert.equal(c.live, 2);
});

test('a cycle of supersedes keeps its newest entry live, whatever its length; a chain retires all but its head', () => {
  const e = (role: string, id: string, supersedes: string, verified: string) => ({
    role,
    entry: makeEntry({ id, supersedes, verified, date: verified }),
  });
  const three = [
    e('reviewer', 'alpha', 'beta', '2026-03-01'),
    e('reviewer', 'beta', 'gamma', '2026-03-05'),
    e('reviewer', 'gamma', 'alpha', '2026-03-03'),
  ];
  assert.deepEqual([...retiredEntries(three)].sort(), [
    ['reviewer#alpha', 'reviewer#gamma'],
    ['reviewer#gamma', 'reviewer#beta'],
  ]);
  const mutualSameDay = [e('team', 'a', 'b', '2026-03-01'), e('team', 'b', 'a', '2026-03-01')];
  assert.deepEqual([...retiredEntries(mutualSameDay)], [['team#a', 'team#b']], 'on the same day the one written later stays');
  const chain = [e('team', 'c3', 'c2', '2026-03-03'), e('team', 'c2', 'c1', '2026-03-02'), e('team', 'c1', 'none', '2026-03-01')];
  assert.deepEqual([...retiredEntries(chain)].sort(), [
    ['team#c1', 'team#c2'],
    ['team#c2', 'team#c3'],
  ]);
  const long = Array.from({ length: 2000 }, (_, i) => e('team', `n${i}`, `n${(i + 1) % 2000}`, '2026-03-01'));
  assert.equal(retiredEntries(long).size, 1999, 'a long cycle: all but one, and no stack overflow');
});
