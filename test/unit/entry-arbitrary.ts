// Shared test helpers: a plain EchoEntry builder and fast-check arbitraries of
// entries. Titles and evidence come from small pools on purpose, so that
// generated lists contain the duplicates consolidation and pruning must handle.

import fc from 'fast-check';
import { type EchoEntry, type EntryStatus, LAYERS, type Layer } from '../../src/core/entry/echo-entry.ts';

/** A complete entry with neutral defaults; override what the test is about. */
export function makeEntry(over: Partial<EchoEntry> = {}): EchoEntry {
  return {
    id: 'entry',
    idExplicit: true,
    date: '2026-03-01',
    kind: 'Pattern',
    title: 'Entry',
    layer: 'inscribed',
    source: 'rune:review',
    confidence: 0.8,
    evidence: '`src/a.ts:1` — example',
    verified: '2026-03-01',
    supersedes: 'none',
    tags: [],
    learning: 'A learning.',
    extra: [],
    ...over,
  };
}

export const TITLE_POOL = [
  'Unused imports in new files',
  'unused  imports in NEW files ',
  'N+1 queries in service layer',
  'Flaky retry test',
  'Slow test suite in CI',
  'Prisma transactions need explicit timeout',
];

export const EVIDENCE_POOL = [
  '`src/auth.py:1-5` — 3 unused imports found',
  '`src/auth.py:1-5` —  3 unused imports found',
  '`src/orders/service.ts:40-62` — loop issues one query per order',
  'CI logs — test suite took 8min (vs 3min baseline)',
  '',
];

const MS_2020 = Date.UTC(2020, 0, 1);
const MS_2027 = Date.UTC(2027, 0, 1);
const DAY_MS = 86_400_000;

/** Valid days most of the time, sometimes empty or junk as hand edits produce. */
export const dayArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.integer({ min: MS_2020 / DAY_MS, max: MS_2027 / DAY_MS }).map((d) => new Date(d * DAY_MS).toISOString().slice(0, 10)),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'yesterday', '2026-02-31') },
);

export const layerArb: fc.Arbitrary<Layer> = fc.constantFrom(...LAYERS);

export const confidenceArb: fc.Arbitrary<number> = fc.integer({ min: 0, max: 100 }).map((n) => n / 100);

const statusArb: fc.Arbitrary<EntryStatus | undefined> = fc.constantFrom(undefined, undefined, undefined, 'superseded', 'retracted');

export const entryArb: fc.Arbitrary<EchoEntry> = fc
  .record({
    id: fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/),
    date: dayArb,
    kind: fc.constantFrom('Pattern', 'Observation', 'Architecture', ''),
    title: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TITLE_POOL) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) }),
    layer: layerArb,
    confidence: confidenceArb,
    evidence: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...EVIDENCE_POOL) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }),
    verified: dayArb,
    tags: fc.array(fc.constantFrom('imports', 'db', 'ci', 'tests'), { maxLength: 2 }),
    status: statusArb,
    learning: fc.string({ maxLength: 60 }),
  })
  .map((r) => {
    const entry = makeEntry({ ...r, source: 'rune:test', supersedes: 'none' });
    if (r.status === undefined) delete entry.status;
    return entry;
  });

/** Entries with distinct ids, as a parsed MEMORY.md provides them. */
export function entryListArb(maxLength = 25): fc.Arbitrary<EchoEntry[]> {
  return fc.uniqueArray(entryArb, { maxLength, selector: (e) => e.id });
}
