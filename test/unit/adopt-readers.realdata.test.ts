// Golden tests of the readers on the real memory files in ../shared/realdata
// (read in place, never copied): per file, what becomes an entry (counts by
// layer and kind, the first entries with title, layer, confidence, date,
// tags, evidence), what stays verbatim (parts, lines and why), and a digest of
// every entry, so any change shows in the diff of
// test/fixtures/adopt/realdata-readings.expected.json (UPDATE=1 rewrites it).
// And for every file: the parts add up to the file byte for byte.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { detectKind, readSource } from '../../src/core/adopt/read-source.ts';
import { entriesOf, verbatimOf } from '../../src/core/adopt/source-reading.ts';
import { countLines } from '../../src/core/entry/echo-document.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const REALDATA = join(HERE, '../../../shared/realdata/memory');
const EXPECTED = join(HERE, '../fixtures/adopt/realdata-readings.expected.json');

function summary(name: string, text: string) {
  const kind = detectKind(name, text);
  const r = readSource(kind, name, text, { ref: name, fileDay: '2026-11-01', source: kind });
  const entries = entriesOf(r);
  const count = (key: (e: (typeof entries)[number]) => string) => {
    const out: Record<string, number> = {};
    for (const e of entries) out[key(e)] = (out[key(e)] ?? 0) + 1;
    return Object.fromEntries(Object.entries(out).sort());
  };
  const verbatim = verbatimOf(r).filter((p) => p.raw.trim() !== '');
  const why: Record<string, number> = {};
  for (const p of verbatim) why[p.why] = (why[p.why] ?? 0) + countLines(p.raw);
  const view = (e: (typeof entries)[number]) => ({
    line: e.line,
    kind: e.entry.kind,
    title: e.entry.title,
    layer: e.entry.layer,
    confidence: e.entry.confidence,
    ...(e.entry.confidenceWord ? { confidenceWord: e.entry.confidenceWord } : {}),
    date: e.entry.date,
    tags: e.entry.tags,
    evidence: e.entry.evidence,
    ...(e.entry.id ? { id: e.entry.id } : {}),
  });
  return {
    kind,
    entries: entries.length,
    entryLines: entries.reduce((n, e) => n + countLines(e.raw), 0),
    verbatimParts: verbatim.length,
    verbatimLinesByReason: Object.fromEntries(Object.entries(why).sort()),
    notes: r.notes,
    byLayer: count((e) => e.entry.layer),
    byKind: count((e) => e.entry.kind),
    first: entries.slice(0, 3).map(view),
    digest: createHash('sha256')
      .update(JSON.stringify(entries.map((e) => ({ ...view(e), learning: e.entry.learning, extra: e.entry.extra }))))
      .digest('hex')
      .slice(0, 16),
    lossless: r.parts.map((p) => p.raw).join('') === text.replace(/^\uFEFF/, ''),
  };
}

if (!existsSync(REALDATA)) {
  test('readers on real memory files', (t) => t.skip('realdata not present'));
} else {
  const names = readdirSync(REALDATA)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const actual = Object.fromEntries(names.map((n) => [n, summary(n, readFileSync(join(REALDATA, n), 'utf8'))]));
  if (process.env.UPDATE === '1') writeFileSync(EXPECTED, `${JSON.stringify(actual, null, 2)}\n`);
  const expected = JSON.parse(readFileSync(EXPECTED, 'utf8')) as typeof actual;

  for (const name of names) {
    test(`realdata ${name}: the reader gives its golden entries and verbatim parts`, () => {
      assert.deepEqual(actual[name], expected[name]);
    });
    test(`realdata ${name}: the parts add up to the file byte for byte, and every entry has a title, a date and evidence`, () => {
      const a = actual[name]!;
      assert.equal(a.lossless, true);
      assert.ok(a.entries > 0, 'something to import');
      const text = readFileSync(join(REALDATA, name), 'utf8');
      const kind = detectKind(name, text);
      for (const e of entriesOf(readSource(kind, name, text, { ref: name, fileDay: '2026-11-01', source: kind }))) {
        assert.ok(e.entry.title.trim() !== '', `line ${e.line}: no title`);
        assert.match(e.entry.date, /^\d{4}-\d{2}-\d{2}$/);
        assert.ok(e.entry.evidence.includes(name) || e.entry.evidence !== '', `line ${e.line}: no evidence`);
      }
    });
  }

  test('every auto-memory and continuity file reads as entries (the issue measured 0)', () => {
    for (const name of names.filter((n) => !n.startsWith('vinhnxv__'))) assert.ok(actual[name]!.entries > 0, name);
  });

  test('Rune observations keep their LOW beside the number', () => {
    const reviewer = names.find((n) => n.includes('echoes__reviewer'))!;
    const text = readFileSync(join(REALDATA, reviewer), 'utf8');
    const entries = entriesOf(readSource('rune', reviewer, text, { ref: reviewer, fileDay: '2026-11-01', source: 'rune' }));
    const low = entries.filter((e) => e.entry.confidenceWord === 'LOW');
    assert.ok(low.length > 400, `${low.length} LOW entries`);
    assert.ok(low.every((e) => e.entry.confidence === 0.3));
  });
}
