// Golden fixtures and behaviour of the lossless echo-document model (SPEC §4).
// Regenerate the expected parse output with `UPDATE=1` and review the diff.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { appendEntries, removeEntries, replaceEntry, upgradeToV2 } from '../../src/core/entry/document-edits.ts';
import {
  countLines,
  documentEntries,
  type EchoDocument,
  newMemoryDocumentText,
  parseEchoDocument,
  renderEntry,
  serializeEchoDocument,
} from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { slugifyTitle, uniqueId } from '../../src/core/entry/entry-ids.ts';
import { parseFieldLine } from '../../src/core/entry/field-syntax.ts';
import { normalizeLayer, parseConfidence, parseTags } from '../../src/core/entry/field-values.ts';
import { assertAppendKeepsLines, assertRoundTrip } from '../helpers/document-checks.ts';

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/echo-docs/golden');

function summarize(doc: EchoDocument) {
  return {
    schema: doc.schema,
    eol: doc.eol,
    blocks: doc.blocks.map((b) =>
      b.type === 'entry'
        ? { type: b.type, line: b.line, lines: countLines(b.text), form: b.form, entry: b.entry }
        : { type: b.type, line: b.line, lines: countLines(b.text), head: b.text.split('\n')[0] },
    ),
    issues: doc.issues,
  };
}

for (const name of readdirSync(GOLDEN)
  .filter((f) => f.endsWith('.md'))
  .sort()) {
  test(`golden ${name} parses to its expected blocks and serialises back byte for byte`, () => {
    const text = readFileSync(join(GOLDEN, name), 'utf8');
    const doc = parseEchoDocument(text);
    assert.equal(serializeEchoDocument(doc), text);
    const expectedPath = join(GOLDEN, name.replace(/\.md$/, '.expected.json'));
    const actual = JSON.parse(JSON.stringify(summarize(doc)));
    if (process.env.UPDATE === '1') writeFileSync(expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
    assert.deepEqual(actual, JSON.parse(readFileSync(expectedPath, 'utf8')));
  });
}

function entry(over: Partial<EchoEntry> = {}): EchoEntry {
  return {
    id: 'unused-imports',
    idExplicit: true,
    date: '2026-02-11',
    kind: 'Pattern',
    title: 'Unused imports',
    layer: 'inscribed',
    source: 'rune:review PR #42',
    confidence: 0.85,
    evidence: '`src/auth.py:1-5`',
    verified: '2026-02-11',
    supersedes: 'none',
    tags: [],
    learning: 'Flag import hygiene.',
    extra: [],
    ...over,
  };
}

test('renderEntry writes the canonical v2 block with the id first', () => {
  assert.equal(
    renderEntry(entry()),
    [
      '### [2026-02-11] Pattern: Unused imports',
      '- **id**: unused-imports',
      '- **layer**: inscribed',
      '- **source**: rune:review PR #42',
      '- **confidence**: 0.85',
      '- **evidence**: `src/auth.py:1-5`',
      '- **verified**: 2026-02-11',
      '- **supersedes**: none',
      '- Flag import hygiene.',
      '',
    ].join('\n'),
  );
});

test('a rendered entry parses back to the same entry, with CRLF too', () => {
  const e = entry({
    tags: ['a', 'b'],
    symptom: 's',
    rootCause: 'r',
    solution: 'x',
    status: 'retracted',
    extra: [['reviewer', 'dana']],
    learning: 'one\n\n- two',
  });
  for (const eol of ['\n', '\r\n'] as const) {
    const doc = parseEchoDocument(renderEntry(e, eol));
    assert.deepEqual(documentEntries(doc), [e]);
    assert.deepEqual(doc.issues, []);
  }
});

test('a learning whose first line looks like a field is separated by a blank line', () => {
  const e = entry({ learning: '**Note**: not a field' });
  assert.deepEqual(documentEntries(parseEchoDocument(renderEntry(e))), [e]);
});

test('empty text, whitespace and NUL bytes parse without throwing and round-trip', () => {
  for (const text of ['', '\n', '\r\n', '   ', '\0\0\n\0', '\uFEFF', '\r', '\uD800x\n']) {
    const doc = parseEchoDocument(text);
    assert.equal(serializeEchoDocument(doc), text);
    assert.equal(documentEntries(doc).length, 0);
  }
});

test('code fences hide entry headings inside them', () => {
  const text = '```\n### [2026-02-11] Pattern: X\n- **layer**: etched\n## Inscribed — Y (2026-01-01)\n```\n';
  const doc = parseEchoDocument(text);
  assert.deepEqual(
    doc.blocks.map((b) => b.type),
    ['verbatim'],
  );
  assert.deepEqual(doc.issues, []);
});

test('an unclosed fence is an issue and the rest of the file stays text', () => {
  const doc = parseEchoDocument('intro\n~~~\n### [2026-02-11] Pattern: X\n- **layer**: etched\n');
  assert.equal(documentEntries(doc).length, 0);
  assert.deepEqual(
    doc.issues.map((i) => [i.code, i.line]),
    [['unclosed-fence', 2]],
  );
});

test('a heading with a date bracket is an entry even without fields, and the missing fields are issues', () => {
  const doc = parseEchoDocument('### [2026-02-11] Pattern: Bare\n');
  assert.equal(documentEntries(doc)[0]?.title, 'Bare');
  assert.deepEqual(
    doc.issues.map((i) => i.code),
    ['missing-layer', 'missing-confidence'],
  );
});

test('a level-3 heading without a date is an entry only when field lines follow it', () => {
  assert.equal(documentEntries(parseEchoDocument('### Notes\n\nprose\n')).length, 0);
  const e = documentEntries(parseEchoDocument('### Notes\n\n- **layer**: etched\n- **confidence**: 1\n'));
  assert.deepEqual(
    e.map((x) => [x.title, x.layer, x.date]),
    [['Notes', 'etched', '']],
  );
});

test('a markdown link heading is not an entry', () => {
  assert.equal(documentEntries(parseEchoDocument('### [Guide](docs/guide.md)\ntext\n')).length, 0);
});

test('legacy Rune headings are entries; a bare layer heading is a section', () => {
  const text =
    '## Inscribed\n\n## Inscribed — Review 9 (2026-02-16)\n\n**Source**: `rune:review 9`\n**Confidence**: HIGH (5 Ashes)\n\n### Key Learnings\n\n1. Thing.\n\n## Session-based caching\n';
  const doc = parseEchoDocument(text);
  assert.deepEqual(
    doc.blocks.map((b) => b.type),
    ['verbatim', 'entry', 'verbatim'],
  );
  const [e] = documentEntries(doc);
  assert.deepEqual(
    [e?.layer, e?.date, e?.verified, e?.confidence, e?.source, e?.title],
    ['inscribed', '2026-02-16', '2026-02-16', 0.9, '`rune:review 9`', 'Review 9'],
  );
  assert.equal(e?.learning, '### Key Learnings\n\n1. Thing.');
});

test('observations entries read as traced with LOW confidence 0.3', () => {
  const [e] = documentEntries(
    parseEchoDocument(
      '## Observations — Task: ward-sentinel (2026-03-10)\n- **layer**: observations\n- **Confidence**: LOW (auto-generated)\n- Task completed: ward-sentinel\n',
    ),
  );
  assert.deepEqual(
    [e?.layer, e?.confidence, e?.kind, e?.title, e?.learning],
    ['traced', 0.3, 'Task', 'ward-sentinel', 'Task completed: ward-sentinel'],
  );
});

test("the seed's one-line entries are read field by field", () => {
  const [e] = documentEntries(
    parseEchoDocument(
      '### [2026-02-11] Architecture: Express - **layer**: etched - **source**: manual - **confidence**: 1.0 - **evidence**: `package.json:5-15` — deps - **verified**: 2026-02-11 - **supersedes**: none - Backend uses Express.',
    ),
  );
  assert.deepEqual(
    [e?.title, e?.layer, e?.confidence, e?.evidence, e?.supersedes, e?.learning],
    ['Express', 'etched', 1, '`package.json:5-15` — deps', 'none', 'Backend uses Express.'],
  );
});

test('duplicate written ids are an issue; the second entry gets a derived id', () => {
  const text =
    '### [2026-01-01] P: One\n- **id**: same\n- **layer**: etched\n- **confidence**: 1\n\n### [2026-01-02] P: Two\n- **id**: same\n- **layer**: etched\n- **confidence**: 1\n';
  const doc = parseEchoDocument(text);
  assert.deepEqual(
    documentEntries(doc).map((e) => [e.id, e.idExplicit]),
    [
      ['same', true],
      ['two', false],
    ],
  );
  assert.deepEqual(
    doc.issues.map((i) => [i.code, i.line]),
    [['duplicate-id', 6]],
  );
});

test('derived ids avoid every written id, even later ones', () => {
  const text =
    '### [2026-01-01] P: Foo\n- **layer**: etched\n- **confidence**: 1\n\n### [2026-01-02] P: Bar\n- **id**: foo\n- **layer**: etched\n- **confidence**: 1\n';
  assert.deepEqual(
    documentEntries(parseEchoDocument(text)).map((e) => e.id),
    ['foo-2', 'foo'],
  );
});

test('appendEntries adds separation to a file without a final newline', () => {
  const doc = parseEchoDocument('# Memory\nlast line');
  const out = serializeEchoDocument(appendEntries(doc, [entry()]));
  assert.ok(out.startsWith('# Memory\nlast line\n\n### [2026-02-11] Pattern: Unused imports\n'));
  assert.deepEqual(documentEntries(parseEchoDocument(out)), [entry()]);
});

test('appendEntries closes a fence left open so the new entry is not swallowed', () => {
  const out = appendEntries(parseEchoDocument('# M\n```js\nlet a = 1;\n'), [entry()]);
  assert.deepEqual(documentEntries(out), [entry()]);
  assert.ok(serializeEchoDocument(out).startsWith('# M\n```js\nlet a = 1;\n```\n\n###'));
});

test('appendEntries keeps CRLF files CRLF and makes colliding ids unique', () => {
  const doc = parseEchoDocument('# M\r\n\r\n### [2026-01-01] P: Unused imports\r\n- **layer**: etched\r\n- **confidence**: 1\r\n');
  const out = appendEntries(doc, [entry(), entry()]);
  assert.deepEqual(
    documentEntries(out).map((e) => e.id),
    ['unused-imports', 'unused-imports-2', 'unused-imports-3'],
  );
  assert.ok(!/[^\r]\n/.test(serializeEchoDocument(out)));
});

test('appendEntries on an empty file writes just the entry', () => {
  assert.equal(serializeEchoDocument(appendEntries(parseEchoDocument(''), [entry()])), renderEntry(entry()));
});

test('replaceEntry rewrites only that block and keeps the separation after it', () => {
  const text = readFileSync(join(GOLDEN, 'v2-canonical.md'), 'utf8');
  const doc = parseEchoDocument(text);
  const next = replaceEntry(doc, 'express-prisma-async', entry({ id: 'ignored', title: 'Changed', confidence: 1 }));
  const [before, after] = [doc.blocks.map((b) => b.text), next.blocks.map((b) => b.text)];
  assert.deepEqual(
    after.filter((_, k) => k !== 2),
    before.filter((_, k) => k !== 2),
  );
  assert.equal(documentEntries(next)[1]?.id, 'express-prisma-async');
  assert.ok(after[2]?.endsWith('\n\n'));
  assert.deepEqual(parseEchoDocument(serializeEchoDocument(next)), next);
});

test('replaceEntry of an unknown id throws not-found', () => {
  assert.throws(() => replaceEntry(parseEchoDocument(''), 'nope', entry()), { code: 'not-found' });
});

test('removeEntries returns the removed entries and their exact text', () => {
  const text = readFileSync(join(GOLDEN, 'v2-canonical.md'), 'utf8');
  const { doc, removed, removedText } = removeEntries(parseEchoDocument(text), ['express-prisma-async', 'missing']);
  assert.deepEqual(
    removed.map((e) => e.id),
    ['express-prisma-async'],
  );
  assert.equal(serializeEchoDocument(doc), text.replace(removedText[0] ?? '', ''));
  assert.equal(documentEntries(doc).length, 2);
});

test('upgradeToV2 sets the header and inserts one id line per entry that lacks one', () => {
  const text = readFileSync(join(GOLDEN, 'v1-derived-ids.md'), 'utf8');
  const before = parseEchoDocument(text);
  const { doc, changed, idsWritten } = upgradeToV2(before);
  assert.equal(doc.schema, 'v2');
  assert.deepEqual(idsWritten, ['flaky-clock-in-tests', 'flaky-clock-in-tests-3', 'cafe-naming-deja-vu']);
  assert.equal(changed.length, 4);
  assert.deepEqual(
    documentEntries(doc),
    documentEntries(before).map((e) => ({ ...e, idExplicit: true })),
  );
  const added = serializeEchoDocument(doc).split('\n').length - text.split('\n').length;
  assert.equal(added, 3);
});

test('upgradeToV2 adds a header after the BOM of a file that has none and rewrites one-line entries', () => {
  const { doc } = upgradeToV2(
    parseEchoDocument('\uFEFF# T\n### [2026-02-11] A: B - **layer**: etched - **confidence**: 1.0 - **supersedes**: none - L.\n'),
  );
  const out = serializeEchoDocument(doc);
  assert.ok(out.startsWith('\uFEFF<!-- echo-schema: v2 -->\n# T\n### [2026-02-11] A: B\n- **id**: b\n'));
  assert.equal(documentEntries(doc)[0]?.learning, 'L.');
});

test('upgradeToV2 leaves a v2 file untouched', () => {
  const text = readFileSync(join(GOLDEN, 'v2-canonical.md'), 'utf8');
  const doc = parseEchoDocument(text);
  assert.equal(upgradeToV2(doc).doc, doc);
});

test('newMemoryDocumentText starts with the v2 schema header', () => {
  const text = newMemoryDocumentText('Reviewer Memory');
  assert.equal(text, '<!-- echo-schema: v2 -->\n# Reviewer Memory\n');
  assert.equal(parseEchoDocument(text).schema, 'v2');
});

test('countLines counts like an editor', () => {
  assert.deepEqual(['', 'a', 'a\n', 'a\nb', '\n\n', 'a\r\nb\r\n'].map(countLines), [0, 1, 1, 2, 2, 2]);
});

test('confidence reads numbers, percentages and HIGH/MEDIUM/LOW', () => {
  assert.deepEqual(['0.85', '"0.9"', '1.0', '85%', 'HIGH (5 Ashes)', 'medium', 'LOW', '1.5', 'sure', '-0.1'].map(parseConfidence), [
    0.85,
    0.9,
    1,
    0.85,
    0.9,
    0.6,
    0.3,
    null,
    null,
    null,
  ]);
});

test('layers normalise legacy names and flag unknown ones', () => {
  assert.deepEqual(['Etched', 'observations', 'session', 'traced (session)', 'permanent'].map(normalizeLayer), [
    { layer: 'etched', known: true },
    { layer: 'traced', known: true },
    { layer: 'traced', known: true },
    { layer: 'traced', known: true },
    { layer: 'inscribed', known: false },
  ]);
});

test('tags read comma lists, bracket lists and hashtags', () => {
  assert.deepEqual([parseTags('a, b'), parseTags('[a, b]'), parseTags('#a #b'), parseTags('')], [['a', 'b'], ['a', 'b'], ['a', 'b'], []]);
});

test('field lines accept bullets, bare bold lines and the colon inside the bold', () => {
  assert.deepEqual(
    ['- **layer**: etched', '**Source**: x', '* **root_cause:** y', '- **A very long bold sentence that is prose**: z', '- plain'].map(
      parseFieldLine,
    ),
    [
      { name: 'layer', key: 'layer', value: 'etched', bullet: true },
      { name: 'Source', key: 'source', value: 'x', bullet: false },
      { name: 'root_cause', key: 'rootCause', value: 'y', bullet: true },
      null,
      null,
    ],
  );
});

test('slugifyTitle makes kebab ids of at most 64 chars and never an empty one', () => {
  assert.equal(slugifyTitle('Unused imports in NEW files!'), 'unused-imports-in-new-files');
  assert.equal(slugifyTitle('Café — déjà vu'), 'cafe-deja-vu');
  assert.equal(slugifyTitle('x'.repeat(100)).length, 64);
  assert.match(slugifyTitle('한국어 제목'), /^entry-[0-9a-f]{6}$/);
  assert.notEqual(slugifyTitle('한국어'), slugifyTitle('제목'));
  assert.equal(slugifyTitle(''), 'entry');
});

test('uniqueId adds -2, -3 … and stays within 64 chars', () => {
  assert.equal(uniqueId('a', new Set()), 'a');
  assert.equal(uniqueId('a', new Set(['a', 'a-2'])), 'a-3');
  const long = 'b'.repeat(64);
  assert.equal(uniqueId(long, new Set([long])).length, 64);
});

// ---------------------------------------------------------------- messy corpus

const MESSY = join(GOLDEN, '../messy');

const NEW_ENTRY = entry({ id: '', title: 'Appended by consolidation', learning: 'It parses back.\n\n- With a bullet.' });

for (const name of readdirSync(MESSY)
  .filter((f) => f.endsWith('.md'))
  .sort()) {
  const bytes = readFileSync(join(MESSY, name));
  const text = bytes.toString('utf8');

  test(`messy ${name} round-trips byte for byte`, () => assertRoundTrip(bytes));

  test(`messy ${name} keeps every line after appendEntries and the new entry parses back`, () => {
    const last = assertAppendKeepsLines(text, NEW_ENTRY);
    assert.deepEqual(last, { ...NEW_ENTRY, id: last.id });
    assert.match(last.id, /^appended-by-consolidation(-\d+)?$/);
  });

  test(`messy ${name}: replacing any entry leaves every other block as it was`, () => {
    const doc = parseEchoDocument(text);
    doc.blocks.forEach((b, k) => {
      if (b.type !== 'entry') return;
      const next = replaceEntry(doc, b.entry.id, NEW_ENTRY);
      assert.deepEqual(
        next.blocks.map((x, i) => (i === k ? null : x.text)),
        doc.blocks.map((x, i) => (i === k ? null : x.text)),
      );
      assert.deepEqual(parseEchoDocument(serializeEchoDocument(next)), next);
    });
  });

  test(`messy ${name}: upgradeToV2 writes every id and keeps the entries`, () => {
    const doc = parseEchoDocument(text);
    const up = upgradeToV2(doc).doc;
    assert.equal(up.schema, 'v2');
    assert.deepEqual(
      documentEntries(up),
      documentEntries(doc).map((e) => ({ ...e, idExplicit: true })),
    );
    assert.equal(upgradeToV2(up).changed.length, 0);
  });

  test(`messy ${name}: removing every entry leaves exactly the verbatim text`, () => {
    const doc = parseEchoDocument(text);
    const { doc: rest, removedText } = removeEntries(
      doc,
      documentEntries(doc).map((e) => e.id),
    );
    assert.equal(removedText.length, documentEntries(doc).length);
    const verbatim = doc.blocks
      .filter((b) => b.type === 'verbatim')
      .map((b) => b.text)
      .join('');
    assert.equal(serializeEchoDocument(rest).replace(/^\uFEFF/, ''), verbatim.replace(/^\uFEFF/, ''));
  });
}
