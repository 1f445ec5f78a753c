import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { type PruneInput, planPrune } from '../../src/core/lifecycle/pruning.ts';
import type { UsageEvent } from '../../src/core/lifecycle/usage-events.ts';
import { makeEntry } from './entry-arbitrary.ts';

const now = new Date('2026-06-01T08:00:00Z');

function input(entries: Array<Partial<EchoEntry>>, over: Partial<PruneInput> = {}): PruneInput {
  return {
    entries: entries.map((e) => ({ entry: makeEntry(e), lines: 10 })),
    otherLines: 2,
    maxLines: 150,
    events: [],
    now,
    window: 20,
    ...over,
  };
}

test('nothing is pruned while the file is within its limit', () => {
  const plan = planPrune(input([{ id: 'old', layer: 'traced', verified: '2020-01-01' }], { maxLines: 12 }));
  assert.deepEqual(plan.archive, []);
  assert.deepEqual(plan.compress, []);
  assert.equal(plan.linesAfter, 12);
  assert.equal(plan.overLimit, false);
});

test('stale inscribed and old traced entries are archived by the rules, fresh ones stay', () => {
  const plan = planPrune(
    input(
      [
        { id: 'stale-inscribed', layer: 'inscribed', verified: '2026-01-01' }, // 151 days, score 0.28
        { id: 'fresh-inscribed', layer: 'inscribed', verified: '2026-05-30' },
        { id: 'old-traced', layer: 'traced', verified: '2026-04-01' }, // 61 days, score 0.12
        { id: 'young-traced', layer: 'traced', verified: '2026-05-25' },
      ],
      { maxLines: 25 },
    ),
  );
  assert.deepEqual(plan.archive, ['old-traced', 'stale-inscribed']);
  assert.deepEqual(plan.compress, []);
  assert.equal(plan.linesAfter, 22);
  assert.equal(plan.overLimit, false);
  assert.match(plan.reasons.get('stale-inscribed')!, /unreferenced for 151 days/);
  assert.match(plan.reasons.get('old-traced')!, /61 days old/);
});

test('a recent reference in the usage log keeps an old inscribed entry out of the age rule', () => {
  const events: UsageEvent[] = [{ ts: '2026-05-20T10:00:00Z', session: 's1', event: 'used', ids: ['old-but-used'] }];
  const plan = planPrune(
    input(
      [
        { id: 'old-but-used', layer: 'inscribed', verified: '2025-06-01' },
        { id: 'other', layer: 'inscribed', verified: '2026-05-31' },
        { id: 'newest', layer: 'inscribed', verified: '2026-06-01' },
      ],
      { maxLines: 100, otherLines: 75, events },
    ),
  );
  // Referenced 12 days ago with relevance 1.0 (score 0.58): the age rule does
  // not apply. The step removes the lowest score, 'other' at
  // 0.28 + 0 + 0.3 × (1 − 1/90) ≈ 0.577, the lowest of three (bottom 40%).
  assert.deepEqual(plan.archive, ['other']);
  assert.equal(plan.reasons.get('other'), 'lowest score 0.58 (bottom 40%)');
});

test('when the rules are not enough the lowest scores go one by one until the file fits, traced ones to knowledge.md', () => {
  const entries: Array<Partial<EchoEntry>> = [];
  for (let i = 0; i < 10; i++) {
    entries.push({ id: `t${i}`, layer: 'traced', verified: `2026-05-${String(10 + i).padStart(2, '0')}` });
    entries.push({ id: `i${i}`, layer: 'inscribed', verified: `2026-05-${String(10 + i).padStart(2, '0')}` });
  }
  entries.push({ id: 'rock', layer: 'etched', verified: '2001-01-01' });
  // 21 entries × 10 + 2 = 212 lines; limit 170 → 5 entries must go, the five
  // lowest scores (all traced), and not one more.
  const plan = planPrune(input(entries, { maxLines: 170 }));
  assert.deepEqual(plan.compress, ['t0', 't1', 't2', 't3', 't4']);
  assert.deepEqual(plan.archive, []);
  assert.equal(plan.linesAfter, 162);
  assert.equal(plan.overLimit, false);
  assert.equal(plan.reasons.get('t0'), 'lowest score 0.20 (bottom 20%)');
  assert.equal(plan.reasons.get('t4'), 'lowest score 0.24 (bottom 40%)');
});

test('superseded and retracted entries go first, to the archive even when traced', () => {
  const plan = planPrune(
    input(
      [
        { id: 'a', layer: 'traced', verified: '2026-05-31', status: 'retracted' },
        { id: 'b', layer: 'inscribed', verified: '2026-05-31', status: 'superseded' },
        { id: 'c', layer: 'traced', verified: '2026-05-20' },
      ],
      { maxLines: 15 },
    ),
  );
  assert.deepEqual(plan.archive, ['a', 'b']);
  assert.equal(plan.reasons.get('a'), 'retracted');
  assert.equal(plan.reasons.get('b'), 'superseded');
  assert.deepEqual(plan.compress, []);
});

test('etched entries are never pruned, and a file over its limit because of them keeps its lessons', () => {
  const plan = planPrune(
    input(
      [
        { id: 'e1', layer: 'etched' },
        { id: 'e2', layer: 'etched' },
        { id: 'x', layer: 'inscribed' },
      ],
      { maxLines: 15 },
    ),
  );
  assert.deepEqual(plan.archive, []);
  assert.deepEqual(plan.compress, []);
  assert.equal(plan.linesAfter, 32);
  assert.equal(plan.overLimit, true);
  assert.equal(plan.overReason, 'etched');
});

test('equal scores are broken by id, so the plan does not depend on input order', () => {
  const entries = ['d', 'b', 'a', 'c', 'e'].map((id) => ({ id, layer: 'inscribed' as const, verified: '2026-05-31' }));
  const a = planPrune(input(entries, { maxLines: 42 }));
  const b = planPrune(input([...entries].reverse(), { maxLines: 42 }));
  assert.deepEqual(a.archive, ['a']);
  assert.deepEqual(b.archive, a.archive);
});

test('a file five times over its limit stops at the limit instead of losing every entry', () => {
  // Issue 8: 50 fresh lessons of 15 lines (752 lines, limit 150) were archived
  // in steps of a fifth of the pool until none was left.
  const fresh = Array.from({ length: 50 }, (_, i) => ({ id: `fresh-${String(i).padStart(2, '0')}`, verified: '2026-05-20' }));
  const room = planPrune({ ...input([]), entries: fresh.map((e) => ({ entry: makeEntry(e), lines: 15 })) });
  assert.equal(room.archive.length, 41, '752 → 137 lines: 41 of 50 go, 9 stay');
  assert.equal(room.linesAfter, 137);
  assert.equal(room.overLimit, false);
  // The same file with every lesson past the age rules: the rules stop at the limit too.
  const stale = planPrune({
    ...input([]),
    entries: fresh.map((e) => ({ entry: makeEntry({ ...e, verified: '2025-01-01' }), lines: 15 })),
  });
  assert.equal(stale.archive.length, 41);
  assert.match(stale.reasons.get(stale.archive[0]!)!, /unreferenced for \d+ days/);
});

test('the best lessons always stay, even when each alone is longer than the limit', () => {
  const plan = planPrune({
    ...input([]),
    maxLines: 50,
    entries: [
      { entry: makeEntry({ id: 'older', verified: '2026-04-01' }), lines: 80 },
      { entry: makeEntry({ id: 'newer', verified: '2026-05-30' }), lines: 80 },
    ],
  });
  assert.deepEqual(plan.archive, ['older']);
  assert.equal(plan.overLimit, true);
  assert.equal(plan.overReason, 'best-lessons');
});

test('a file over its limit because of hand-written text keeps new lessons; stale ones still go', () => {
  const plan = planPrune({
    ...input([], { maxLines: 150, otherLines: 160 }),
    entries: [
      { entry: makeEntry({ id: 'today', verified: '2026-06-01' }), lines: 15 },
      { entry: makeEntry({ id: 'last-week', verified: '2026-05-25' }), lines: 15 },
      { entry: makeEntry({ id: 'long-forgotten', verified: '2025-01-01' }), lines: 15 },
    ],
  });
  assert.deepEqual(plan.archive, ['long-forgotten']);
  assert.equal(plan.overReason, 'hand-written');
  assert.equal(plan.handWrittenLines, 160);
});

test('maxMoves caps what moves in one run and counts what waits', () => {
  const many = Array.from({ length: 30 }, (_, i) => ({ id: `old-${String(i).padStart(2, '0')}`, verified: '2025-01-01' }));
  const all = planPrune(input(many, { maxLines: 100 }));
  const capped = planPrune(input(many, { maxLines: 100, maxMoves: 10 }));
  assert.equal(all.archive.length, 21);
  assert.deepEqual(capped.archive, all.archive.slice(0, 10));
  assert.equal(capped.deferred, 11);
  assert.equal(capped.linesAfter, 202);
  assert.equal(capped.overReason, 'per-run-limit');
});

test('a captured lesson no session has been given yet leaves after one that sessions were given and did not use', () => {
  // Three working sessions were given `worn` (inscribed, so it scores above any new traced lesson) and used nothing of it.
  const events: UsageEvent[] = ['s1', 's2', 's3'].map((session, i) => ({
    ts: `2026-05-2${i}T10:00:00Z`,
    session,
    event: 'injected',
    ids: ['team#worn'],
  }));
  const entries = [
    { id: 'worn', layer: 'inscribed' as const, verified: '2026-05-20', captured: 'obstacle' },
    { id: 'new', layer: 'traced' as const, verified: '2026-05-31', captured: 'correction' },
    { id: 'kept', layer: 'inscribed' as const, verified: '2026-05-31', confidence: 0.9 },
  ];
  const plan = planPrune(input(entries, { maxLines: 25, events, role: 'team' }));
  assert.deepEqual(plan.archive, ['worn']);
  assert.deepEqual(plan.compress, []);
  // Without the usage log's word on it (no role), the lowest score goes, as before.
  const blind = planPrune(input(entries, { maxLines: 25, events }));
  assert.deepEqual(blind.compress, ['new']);
});
