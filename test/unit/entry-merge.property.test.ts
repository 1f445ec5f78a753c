// Properties of the merge driver's core (fast-check): two clones change a
// memory file from a common ancestor — keep, forget, re-verify, edit, add —
// and mergeEchoTexts must give the same entries whichever side is ours, change
// nothing when merged again, lose and double nothing, and let a removal win
// over a copy the other side left alone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { appendEntries } from '../../src/core/entry/document-edits.ts';
import { documentEntries, newMemoryDocumentText, parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { mergeEchoTexts } from '../../src/core/team/entry-merge.ts';
import { makeEntry } from './entry-arbitrary.ts';

const RUNS = { numRuns: 400 };
const BASE_IDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
const NEW_IDS = ['new-one', 'new-two', 'new-three'];

type Op = 'keep' | 'forget' | 'bump' | 'edit';

interface SidePlan {
  ops: Op[];
  bumpDay: number;
  adds: Array<{ id: string; variant: 'x' | 'y'; day: number }>;
  note: string | null;
}

const baseEntry = (id: string): EchoEntry =>
  makeEntry({
    id,
    title: `Title ${id}`,
    evidence: `\`src/${id}.ts:1\` — seen`,
    verified: '2026-01-10',
    date: '2026-01-10',
    confidence: 0.7,
    learning: `Learning about ${id}.`,
  });

const day = (n: number) => `2026-01-${String(n).padStart(2, '0')}`;

function sideEntries(base: EchoEntry[], plan: SidePlan, who: 'A' | 'B'): EchoEntry[] {
  const out: EchoEntry[] = [];
  base.forEach((e, k) => {
    const op = plan.ops[k] ?? 'keep';
    if (op === 'forget') return;
    if (op === 'keep') out.push(e);
    if (op === 'bump') out.push({ ...e, verified: day(plan.bumpDay), confidence: 0.9 });
    if (op === 'edit') out.push({ ...e, learning: `${e.learning} Edited by ${who}.` });
  });
  for (const add of plan.adds)
    out.push(
      makeEntry({
        id: add.id,
        title: `Added ${add.id}`,
        evidence: `\`lib/${add.id}.ts:${add.variant === 'x' ? 1 : 2}\` — variant ${add.variant}`,
        verified: day(add.day),
        date: day(add.day),
        learning: `Added learning ${add.id} ${add.variant}.`,
      }),
    );
  return out;
}

function render(entries: EchoEntry[], note: string | null): string {
  const header = `${newMemoryDocumentText('Reviewer Memory')}\n## Notes\n${note ?? 'Shared notes.'}\n\n`;
  return serializeEchoDocument(appendEntries(parseEchoDocument(header), entries));
}

const planArb = (n: number): fc.Arbitrary<SidePlan> =>
  fc.record({
    ops: fc.array(fc.constantFrom<Op>('keep', 'keep', 'forget', 'bump', 'edit'), { minLength: n, maxLength: n }),
    bumpDay: fc.integer({ min: 11, max: 28 }),
    adds: fc.uniqueArray(
      fc.record({ id: fc.constantFrom(...NEW_IDS), variant: fc.constantFrom<'x' | 'y'>('x', 'y'), day: fc.integer({ min: 11, max: 28 }) }),
      { selector: (a) => a.id, maxLength: 3 },
    ),
    note: fc.option(fc.constantFrom('Notes changed here.', 'Notes changed there.'), { freq: 4 }),
  });

const scenarioArb = fc
  .uniqueArray(fc.constantFrom(...BASE_IDS), { maxLength: BASE_IDS.length })
  .chain((ids) => fc.record({ ids: fc.constant(ids), a: planArb(ids.length), b: planArb(ids.length) }));

function texts(s: { ids: string[]; a: SidePlan; b: SidePlan }) {
  const base = s.ids.map(baseEntry);
  return {
    base,
    O: render(base, null),
    A: render(sideEntries(base, s.a, 'A'), s.a.note),
    B: render(sideEntries(base, s.b, 'B'), s.b.note),
  };
}

/** What an entry says, without its id, verification stamp or status. */
const content = (e: EchoEntry) => `${e.title}|${e.evidence}|${e.learning}`;

/** The set of entries of a text: id → everything it holds. */
function entrySet(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of documentEntries(parseEchoDocument(text))) {
    assert.ok(!out.has(e.id), `id ${e.id} twice`);
    out.set(e.id, JSON.stringify({ ...e, idExplicit: true }));
  }
  return out;
}

test('merging is commutative on the set of entries: ours and theirs swapped give the same entries', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const { O, A, B } = texts(s);
      const ab = mergeEchoTexts(O, A, B);
      const ba = mergeEchoTexts(O, B, A);
      assert.deepEqual([...entrySet(ab.text)].sort(), [...entrySet(ba.text)].sort());
      assert.equal(ab.conflicts, ba.conflicts);
    }),
    RUNS,
  );
});

test('merging is idempotent: a side merged with itself is that side, and the result merged again with either side is unchanged', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const { O, A, B } = texts(s);
      assert.equal(mergeEchoTexts(O, A, A).text, A);
      const merged = mergeEchoTexts(O, A, B);
      fc.pre(merged.conflicts === 0);
      const set = [...entrySet(merged.text)].sort();
      for (const side of [A, B]) {
        assert.deepEqual([...entrySet(mergeEchoTexts(O, merged.text, side).text)].sort(), set);
        assert.deepEqual([...entrySet(mergeEchoTexts(O, side, merged.text).text)].sort(), set);
      }
    }),
    RUNS,
  );
});

test('no entry is lost or doubled, and a removal wins over a copy the other side left unchanged', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const { base, O, A, B } = texts(s);
      const merged = documentEntries(parseEchoDocument(mergeEchoTexts(O, A, B).text));
      const live = merged.filter((e) => e.status !== 'superseded').map(content);
      const superseded = merged.filter((e) => e.status === 'superseded').map(content);
      const expectLive: string[] = [];
      const expectEither: string[][] = [];
      let expectSuperseded = 0;
      base.forEach((e, k) => {
        const [opA, opB] = [s.a.ops[k] ?? 'keep', s.b.ops[k] ?? 'keep'];
        const edited = (who: string) => content({ ...e, learning: `${e.learning} Edited by ${who}.` });
        const pair = [opA, opB].sort().join('+');
        if (opA === 'keep' || opB === 'keep') {
          const other = opA === 'keep' ? opB : opA;
          const who = opA === 'keep' ? 'B' : 'A';
          // forget + keep: the removal wins (a tombstone over an unchanged copy).
          if (other === 'keep' || other === 'bump') expectLive.push(content(e));
          if (other === 'edit') expectLive.push(edited(who));
        } else if (pair === 'bump+forget' || pair === 'forget+forget') {
          /* removed */
        } else if (pair === 'edit+forget') expectLive.push(edited(opA === 'edit' ? 'A' : 'B'));
        else if (pair === 'bump+bump') expectLive.push(content(e));
        else if (pair === 'bump+edit') {
          // Re-verifying is not editing: the edit is kept (stamped with the later date), nothing beside it.
          expectLive.push(edited(opA === 'edit' ? 'A' : 'B'));
        } else if (pair === 'edit+edit') {
          expectEither.push([edited('A'), edited('B')]);
          expectSuperseded++;
        }
      });
      const added = new Map<string, Set<string>>();
      for (const plan of [s.a, s.b])
        for (const add of plan.adds) {
          const set = added.get(add.id) ?? new Set<string>();
          set.add(
            `Added ${add.id}|\`lib/${add.id}.ts:${add.variant === 'x' ? 1 : 2}\` — variant ${add.variant}|Added learning ${add.id} ${add.variant}.`,
          );
          added.set(add.id, set);
        }
      for (const set of added.values()) expectLive.push(...set);
      for (const either of expectEither) {
        const hit = either.filter((c) => live.includes(c));
        assert.equal(hit.length, 1, `one of the two edits wins: ${either.join(' / ')}`);
        expectLive.push(hit[0]!);
      }
      assert.deepEqual([...live].sort(), [...expectLive].sort());
      assert.equal(superseded.length, expectSuperseded, superseded.join('\n'));
      assert.equal(new Set(merged.map((e) => e.id)).size, merged.length, 'ids are unique');
    }),
    RUNS,
  );
});

test('entries never conflict: with the hand-written text left alone, every merge is clean and reads back without issues', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const { O, A, B } = texts({ ...s, a: { ...s.a, note: null }, b: { ...s.b, note: null } });
      const merged = mergeEchoTexts(O, A, B);
      assert.equal(merged.conflicts, 0);
      assert.deepEqual(parseEchoDocument(merged.text).issues, []);
    }),
    RUNS,
  );
});

test('hand-written text changed differently on both sides conflicts in that block alone, with every entry outside the markers', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const { O, A, B } = texts({ ...s, a: { ...s.a, note: 'Notes changed here.' }, b: { ...s.b, note: 'Notes changed there.' } });
      const merged = mergeEchoTexts(O, A, B);
      assert.equal(merged.conflicts, 1);
      const lines = merged.text.split('\n');
      const open = lines.indexOf('<<<<<<< ours');
      const close = lines.indexOf('>>>>>>> theirs');
      assert.deepEqual(lines.slice(open, close + 1), [
        '<<<<<<< ours',
        'Notes changed here.',
        '=======',
        'Notes changed there.',
        '>>>>>>> theirs',
      ]);
      const doc = parseEchoDocument(merged.text);
      assert.deepEqual(
        doc.issues.map((i) => i.code),
        ['merge-conflict'],
      );
      // The same entries as a merge without the conflicting note.
      const clean = texts({ ...s, a: { ...s.a, note: 'Same.' }, b: { ...s.b, note: 'Same.' } });
      assert.deepEqual([...entrySet(merged.text)].sort(), [...entrySet(mergeEchoTexts(clean.O, clean.A, clean.B).text)].sort());
    }),
    RUNS,
  );
});

test('tombstone files merge as a union: every tombstone of either side travels, each once', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.constantFrom(...BASE_IDS), { maxLength: 4 }),
      fc.uniqueArray(fc.constantFrom(...BASE_IDS), { maxLength: 4 }),
      fc.uniqueArray(fc.constantFrom(...BASE_IDS), { maxLength: 4 }),
      (baseIds, aIds, bIds) => {
        const tomb = (id: string, when: string) => ({
          ...baseEntry(id),
          status: 'retracted' as const,
          extra: [['forgotten', when]] as Array<[string, string]>,
        });
        const file = (ids: string[], extra: string[], when: string) =>
          serializeEchoDocument(
            appendEntries(parseEchoDocument(newMemoryDocumentText('Reviewer Memory — forgotten entries')), [
              ...ids.map((id) => tomb(id, '2026-01-01')),
              ...extra.filter((id) => !ids.includes(id)).map((id) => tomb(id, when)),
            ]),
          );
        const O = file(baseIds, [], '');
        const merged = mergeEchoTexts(O, file(baseIds, aIds, '2026-02-01'), file(baseIds, bIds, '2026-02-02'));
        const ids = documentEntries(parseEchoDocument(merged.text)).map((e) => e.id);
        assert.deepEqual([...ids].sort(), [...new Set([...baseIds, ...aIds, ...bIds])].sort());
        assert.equal(merged.conflicts, 0);
      },
    ),
    RUNS,
  );
});
