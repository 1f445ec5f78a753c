// Properties of the lifecycle core over generated entries (fast-check):
// consolidation is idempotent and loses or doubles nothing; pruning never
// touches etched entries, stops at the limit and keeps the best lessons; scores
// stay within 0..1.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { appendEntries } from '../../src/core/entry/document-edits.ts';
import {
  asStored,
  documentEntries,
  newMemoryDocumentText,
  parseEchoDocument,
  serializeEchoDocument,
} from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { consolidate, consolidateDocument, matchKey } from '../../src/core/lifecycle/consolidation.ts';
import { echoScore, scoreEntries } from '../../src/core/lifecycle/echo-score.ts';
import { compressKnowledge, evidenceRefs } from '../../src/core/lifecycle/knowledge-blocks.ts';
import { planPrune } from '../../src/core/lifecycle/pruning.ts';
import type { UsageEvent } from '../../src/core/lifecycle/usage-events.ts';
import { entryArb, entryListArb } from './entry-arbitrary.ts';

const NOW = new Date('2026-06-01T12:00:00Z');
const RUNS = { numRuns: 300 };

const eventsArb = (ids: string[]): fc.Arbitrary<UsageEvent[]> =>
  fc.array(
    fc.record({
      ts: fc.integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2026, 6, 1) }).map((ms) => new Date(ms).toISOString()),
      session: fc.constantFrom('s1', 's2', 's3', 's4', 's5', 's6'),
      event: fc.constantFrom('injected' as const, 'used' as const),
      ids: fc.subarray(ids.length > 0 ? ids : ['none']),
    }),
    { maxLength: 30 },
  );

/** The same entries verified within the last 60 days (by id, so it is deterministic). */
function recentCopies(entries: EchoEntry[]): EchoEntry[] {
  return entries.map((e) => {
    const daysAgo = [...e.id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 60, 7);
    return { ...e, verified: new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString().slice(0, 10) };
  });
}

/** A memory document holding these entries, as the store would have written them. */
const docOf = (entries: EchoEntry[]) => appendEntries(parseEchoDocument(newMemoryDocumentText('Test Memory')), entries);

test('consolidation is idempotent: a second run on its result changes no byte', () => {
  fc.assert(
    fc.property(entryListArb(), fc.array(entryArb, { maxLength: 15 }), (existing, findings) => {
      const once = consolidateDocument(docOf(existing), findings);
      const again = consolidateDocument(once.doc, findings);
      assert.deepEqual(again.updates, []);
      assert.deepEqual(again.appends, []);
      assert.equal(serializeEchoDocument(again.doc), serializeEchoDocument(once.doc));
    }),
    RUNS,
  );
});

test('consolidation keeps every line of the file it merges into, in order', () => {
  fc.assert(
    fc.property(entryListArb(), fc.array(entryArb, { maxLength: 15 }), (existing, findings) => {
      const doc = docOf(existing);
      const result = consolidateDocument(doc, findings);
      // Only the verified and confidence lines of updated entries (and an id line) may change.
      const changeable = /^- \*\*(verified|confidence|id|tags)\*\*: /;
      const after = serializeEchoDocument(result.doc).split('\n');
      let at = 0;
      for (const line of serializeEchoDocument(doc).split('\n')) {
        if (changeable.test(line)) continue;
        while (at < after.length && after[at] !== line) at++;
        assert.ok(at < after.length, `line kept in order: ${JSON.stringify(line)}`);
        at++;
      }
    }),
    RUNS,
  );
});

test('every finding ends up exactly once, as an append or merged into exactly one entry', () => {
  fc.assert(
    fc.property(entryListArb(), fc.array(entryArb, { maxLength: 15 }), (written, given) => {
      const doc = docOf(written);
      // Findings are judged as they read back once written (what `record` leaves on disk).
      const findings = given.map(asStored);
      const existing = documentEntries(doc);
      const result = consolidateDocument(doc, given);
      const after = documentEntries(result.doc);
      assert.deepEqual(
        result.placements.map((p) => p.finding),
        findings.map((_, i) => i),
      );
      const ids = after.map((e) => e.id);
      assert.equal(new Set(ids).size, ids.length, 'ids stay unique');
      findings.forEach((f, i) => {
        const home = after.filter((e) => e.id === result.placements[i]!.id);
        assert.equal(home.length, 1);
        assert.equal(matchKey(home[0]!), matchKey(f), 'the entry records the same evidence and pattern');
        if (Number.isFinite(f.confidence)) assert.ok(home[0]!.confidence >= f.confidence, 'no confidence lost');
      });
      // One append per distinct new key, and none for keys that already existed.
      const existingKeys = new Set(existing.map(matchKey));
      const newKeys = new Set(findings.map(matchKey).filter((k) => !existingKeys.has(k)));
      assert.equal(result.appends.length, newKeys.size);
    }),
    RUNS,
  );
});

test('consolidation never changes the layer of an existing entry, so etched stays etched', () => {
  fc.assert(
    fc.property(entryListArb(), fc.array(entryArb, { maxLength: 15 }), (existing, findings) => {
      const byId = new Map(existing.map((e) => [e.id, e]));
      for (const u of consolidate(existing, findings).updates) {
        const before = byId.get(u.id)!;
        assert.equal(u.layer, before.layer);
        assert.deepEqual(
          { ...u, verified: before.verified, confidence: before.confidence, learning: before.learning, tags: before.tags },
          before,
          'only verified, confidence, the learning and the tags move',
        );
        assert.deepEqual(u.tags.slice(0, before.tags.length), before.tags, 'tags only grow');
        // A blank learning said nothing: it is replaced, not grown.
        if (before.learning.trim() !== '')
          assert.ok(u.learning.startsWith(before.learning), 'the learning only grows: nothing it said is lost');
      }
    }),
    RUNS,
  );
});

test('pruning never touches etched entries, stops at the limit, keeps the best lessons and gets under the limit when lessons take the room', () => {
  // The limit is drawn relative to the file's size, and half the files are
  // recent, so that all three stages (status, age rules, lowest scores) run often.
  const arb = fc.tuple(entryListArb(30), fc.boolean()).chain(([entries, recent]) =>
    fc.record({
      entries: recent ? fc.constant(entries).map(recentCopies) : fc.constant(entries),
      lines: fc.array(fc.integer({ min: 1, max: 20 }), { minLength: entries.length, maxLength: entries.length }),
      otherLines: fc.integer({ min: 0, max: 40 }),
      limitShare: fc.double({ min: -0.2, max: 1.1, noNaN: true }),
      events: eventsArb(entries.map((e) => e.id)),
      window: fc.integer({ min: 1, max: 25 }),
      maxMoves: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
    }),
  );
  fc.assert(
    fc.property(arb, ({ entries, lines, otherLines, limitShare, events, window, maxMoves }) => {
      // The limit falls between what must stay (other text and etched) and the
      // whole file most of the time; a negative share puts it below what must stay.
      const fixed = otherLines + entries.reduce((s, e, i) => s + (e.layer === 'etched' ? lines[i]! : 0), 0);
      const movable = lines.reduce((a, b) => a + b, 0) + otherLines - fixed;
      const maxLines = Math.max(0, fixed + Math.floor(movable * limitShare));
      const items = entries.map((entry, i) => ({ entry, lines: lines[i]! }));
      const plan = planPrune({ entries: items, otherLines, maxLines, events, now: NOW, window, maxMoves });
      const byId = new Map(items.map((x) => [x.entry.id, x]));
      const removed = [...plan.archive, ...plan.compress];
      assert.equal(new Set(removed).size, removed.length, 'no entry is chosen twice');
      for (const id of removed) assert.notEqual(byId.get(id)!.entry.layer, 'etched');
      for (const id of plan.compress) assert.equal(byId.get(id)!.entry.layer, 'traced');
      for (const id of removed) assert.ok(plan.reasons.has(id));
      if (maxMoves !== undefined) assert.ok(removed.length <= maxMoves, 'never more than the per-run limit');

      const total = otherLines + items.reduce((s, x) => s + x.lines, 0);
      const after = total - removed.reduce((s, id) => s + byId.get(id)!.lines, 0);
      assert.equal(plan.linesAfter, after);
      if (total <= maxLines) assert.equal(removed.length, 0, 'nothing moves within the limit');
      // Stops at the limit: the last entry chosen was needed.
      const last = removed.at(-1);
      if (last !== undefined) assert.ok(after + byId.get(last)!.lines > maxLines, 'an entry moved although the file already fit');
      // The last lessons stay: a file that had live lessons still has one.
      const live = items.filter((x) => x.entry.layer !== 'etched' && x.entry.status === undefined);
      if (live.length > 0)
        assert.ok(
          live.some((x) => !removed.includes(x.entry.id)),
          'every lesson was pruned',
        );
      // Lessons are not archived for lack of room when the user's own text fills the file.
      if (fixed >= maxLines) for (const id of removed) assert.doesNotMatch(plan.reasons.get(id)!, /^lowest score/);
      assert.equal(plan.overLimit, after > maxLines);
      if (plan.overLimit) {
        if (plan.deferred > 0) assert.equal(plan.overReason, 'per-run-limit');
        else if (fixed >= maxLines) assert.ok(plan.overReason === 'hand-written' || plan.overReason === 'etched');
        else {
          // Only the floor of best lessons (a fifth of the limit, or the single best one) is left.
          assert.equal(plan.overReason, 'best-lessons');
          const left = live.filter((x) => !removed.includes(x.entry.id));
          assert.ok(left.length === 1 || left.reduce((s, x) => s + x.lines, 0) <= maxLines * 0.2, 'more than the floor stayed');
        }
      }
    }),
    RUNS,
  );
});

test('pruning plans do not depend on the order of the entries', () => {
  fc.assert(
    fc.property(entryListArb(20), fc.integer({ min: 0, max: 200 }), (entries, maxLines) => {
      const items = entries.map((entry) => ({ entry, lines: 9 }));
      const a = planPrune({ entries: items, otherLines: 3, maxLines, events: [], now: NOW, window: 20 });
      const b = planPrune({ entries: [...items].reverse(), otherLines: 3, maxLines, events: [], now: NOW, window: 20 });
      assert.deepEqual([...b.archive].sort(), [...a.archive].sort());
      assert.deepEqual([...b.compress].sort(), [...a.compress].sort());
    }),
    RUNS,
  );
});

test('echo scores lie within 0..1 and etched is always 1', () => {
  fc.assert(
    fc.property(entryListArb(), fc.double({ min: -2, max: 3, noNaN: false }), (entries, relevance) => {
      for (const e of entries) {
        const s = echoScore(e, { now: NOW, relevance });
        assert.ok(s >= 0 && s <= 1, `score ${s}`);
        if (e.layer === 'etched') assert.equal(s, 1);
      }
    }),
    RUNS,
  );
  fc.assert(
    fc.property(
      entryListArb().chain((entries) => fc.tuple(fc.constant(entries), eventsArb(entries.map((e) => e.id)))),
      ([entries, events]) => {
        for (const s of scoreEntries(entries, events, NOW, 20)) {
          assert.ok(s.score >= 0 && s.score <= 1);
          assert.ok(s.relevance >= 0 && s.relevance <= 1);
        }
      },
    ),
    RUNS,
  );
});

test('knowledge compression keeps every entry and every evidence reference in 3-5 line blocks', () => {
  fc.assert(
    fc.property(entryListArb(30), (entries) => {
      const { blocks, text } = compressKnowledge(entries, { now: NOW });
      assert.deepEqual(blocks.flatMap((b) => b.ids).sort(), entries.map((e) => e.id).sort());
      for (const b of blocks) assert.ok(b.lines.length >= 3 && b.lines.length <= 5);
      for (const e of entries) for (const ref of evidenceRefs(e.evidence)) assert.ok(text.includes(ref), ref);
    }),
    RUNS,
  );
});
