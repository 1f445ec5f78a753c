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
      { maxLines: 40 },
    ),
  );
  assert.deepEqual(plan.archive, ['old-traced', 'stale-inscribed']);
  assert.deepEqual(plan.compress, []);
  assert.equal(plan.linesAfter, 22);
  assert.match(plan.reasons.get('stale-inscribed')!, /unreferenced for 151 days/);
  assert.match(plan.reasons.get('old-traced')!, /61 days old/);
});

test('a recent reference in the usage log keeps an old inscribed entry out of the age rule', () => {
  const events: UsageEvent[] = [{ ts: '2026-05-20T10:00:00Z', session: 's1', event: 'referenced', ids: ['old-but-used'] }];
  const plan = planPrune(
    input(
      [
        { id: 'old-but-used', layer: 'inscribed', verified: '2025-06-01' },
        { id: 'other', layer: 'inscribed', verified: '2026-05-31' },
      ],
      {
        maxLines: 100,
        otherLines: 85,
        events,
      },
    ),
  );
  // Referenced 12 days ago with relevance 1.0 (score 0.58): the age rule does
  // not apply. The step then removes the lowest score, 'other' at
  // 0.28 + 0 + 0.3 × (1 − 1/90) ≈ 0.577.
  assert.deepEqual(plan.archive, ['other']);
  assert.equal(plan.reasons.get('other'), 'lowest score 0.58 (bottom 20%)');
});

test('when the rules are not enough the lowest scores go in 20% steps, traced ones to knowledge.md', () => {
  const entries: Array<Partial<EchoEntry>> = [];
  for (let i = 0; i < 10; i++) {
    entries.push({ id: `t${i}`, layer: 'traced', verified: `2026-05-${String(10 + i).padStart(2, '0')}` });
    entries.push({ id: `i${i}`, layer: 'inscribed', verified: `2026-05-${String(10 + i).padStart(2, '0')}` });
  }
  entries.push({ id: 'rock', layer: 'etched', verified: '2001-01-01' });
  // 21 entries × 10 + 2 = 212 lines; limit 170 → 5 entries must go. A 20% step
  // of the 20 candidates is 4 entries, so two steps remove 8, all traced.
  const plan = planPrune(input(entries, { maxLines: 170 }));
  assert.deepEqual(plan.compress, ['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7']);
  assert.deepEqual(plan.archive, []);
  assert.equal(plan.linesAfter, 132);
  assert.equal(plan.overLimit, false);
  assert.equal(plan.reasons.get('t0'), 'lowest score 0.20 (bottom 20%)');
  assert.equal(plan.reasons.get('t7'), 'lowest score 0.27 (bottom 40%)');
});

test('superseded and retracted entries go first, to the archive even when traced', () => {
  const plan = planPrune(
    input(
      [
        { id: 'a', layer: 'traced', verified: '2026-05-31', status: 'retracted' },
        { id: 'b', layer: 'inscribed', verified: '2026-05-31', status: 'superseded' },
        { id: 'c', layer: 'traced', verified: '2026-05-20' },
      ],
      { maxLines: 25 },
    ),
  );
  assert.deepEqual(plan.archive, ['a', 'b']);
  assert.equal(plan.reasons.get('a'), 'retracted');
  assert.equal(plan.reasons.get('b'), 'superseded');
  assert.deepEqual(plan.compress, []);
});

test('etched entries are never pruned, even when they alone exceed the limit; inscribed go to the archive', () => {
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
  assert.deepEqual(plan.archive, ['x']);
  assert.equal(plan.linesAfter, 22);
  assert.equal(plan.overLimit, true);
});

test('equal scores are broken by id, so the plan does not depend on input order', () => {
  const entries = ['d', 'b', 'a', 'c', 'e'].map((id) => ({ id, layer: 'inscribed' as const, verified: '2026-05-31' }));
  const a = planPrune(input(entries, { maxLines: 42 }));
  const b = planPrune(input([...entries].reverse(), { maxLines: 42 }));
  assert.deepEqual(a.archive, ['a']);
  assert.deepEqual(b.archive, a.archive);
});
