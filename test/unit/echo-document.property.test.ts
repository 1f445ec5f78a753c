// Properties of the echo-document model: any text round-trips, generated
// documents read back as the entries they were made from, appending never
// loses a line, and an edit touches only its own block.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { appendEntries, moveOutEntries, removeEntries, replaceEntry, upgradeToV2 } from '../../src/core/entry/document-edits.ts';
import {
  countLines,
  documentEntries,
  type EchoDocument,
  parseEchoDocument,
  renderEntry,
  serializeEchoDocument,
} from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { fieldKey } from '../../src/core/entry/entry-fields.ts';

// ---------------------------------------------------------------- arbitraries

const chars = (s: string) => fc.constantFrom(...Array.from(s));
const WORD_CHARS = 'abcdefghijkXYZ0189.,()/&+\'"`—éü한🙂!?%=<>_-';
const word = fc.string({ unit: chars(WORD_CHARS), minLength: 1, maxLength: 8 });
const title = fc.array(word, { minLength: 1, maxLength: 6 }).map((ws) => ws.join(' '));
const value = fc.string({ unit: chars(`${WORD_CHARS}:*[]# `), maxLength: 24 }).map((s) => s.trim());
const date = fc
  .record({ y: fc.integer({ min: 2000, max: 2099 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
const learningLine = fc.oneof(
  fc.constant(''),
  fc.string({ unit: chars(`${WORD_CHARS}:*#\`~ `), minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== ''),
  fc.constantFrom(
    '- nested bullet',
    '---',
    '```',
    '### [2026-01-01] Pattern: not a heading',
    '**Note**: looks like a field',
    '<!-- x',
    '  indented',
  ),
);
const learning = fc
  .array(learningLine, { maxLength: 4 })
  .map((ls) => ls.join('\n'))
  .filter((l) => l === '' || (l.split('\n')[0]?.trim() !== '' && l.split('\n').at(-1)?.trim() !== ''));
const confidence = fc
  .oneof(
    fc.integer({ min: 0, max: 100 }).map((n) => n / 100),
    fc.double({ min: 0, max: 1, noNaN: true }),
  )
  .filter((n) => !Object.is(n, -0));
const extraName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/).filter((n) => fieldKey(n) === null);

const entryArb: fc.Arbitrary<EchoEntry> = fc
  .record({
    id: fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/),
    date: fc.oneof(fc.constant(''), date),
    kind: fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Z][a-z]{0,8}$/)),
    title,
    layer: fc.constantFrom('etched', 'inscribed', 'traced' as const),
    source: value,
    confidence,
    evidence: value,
    verified: fc.oneof(fc.constant(''), date),
    supersedes: value,
    tags: fc.uniqueArray(fc.stringMatching(/^[a-z][a-z0-9-]{0,10}$/), { maxLength: 3 }),
    symptom: fc.option(value, { nil: undefined }),
    rootCause: fc.option(value, { nil: undefined }),
    solution: fc.option(value, { nil: undefined }),
    status: fc.option(fc.constantFrom('superseded', 'retracted' as const), { nil: undefined }),
    learning,
    extra: fc.array(fc.tuple(extraName, value), { maxLength: 2 }),
  })
  .map((r) => {
    const e: EchoEntry = { ...r, idExplicit: true };
    for (const k of ['symptom', 'rootCause', 'solution', 'status'] as const) if (e[k] === undefined) delete e[k];
    return e;
  });

/** Pieces of real and broken memory files; joined with random line endings they exercise every parser path. */
const FRAGMENTS = [
  '<!-- echo-schema: v1 -->',
  '<!-- echo-schema: v2 -->',
  '<!-- echo-schema: v9 -->',
  '# Reviewer Memory',
  '',
  '   ',
  '\t',
  '### [2026-02-11] Pattern: Unused imports',
  '### [2026-13-45] Bad: date',
  '### [YYYY-MM-DD] Pattern: {x}',
  '### Plain heading',
  '### [link](x)',
  '### Closing ###',
  '- **id**: foo',
  '- **id**: foo',
  '- **id**: Not Valid',
  '- **id**:',
  '- **layer**: etched',
  '- **layer**: observations',
  '- **layer**: weird',
  '- **confidence**: 0.85',
  '- **confidence**: HIGH (x)',
  '- **confidence**: lots',
  '**Source**: `x`',
  '- **verified**: 2026-02-30',
  '- **tags**: a, b',
  '- **status**: retracted',
  '- **status**: maybe',
  '- **Worker scope**: x',
  '- Learning text',
  'plain prose',
  '| a | b |',
  '|---|---|',
  '```',
  '```md',
  '~~~',
  '````',
  '    ```',
  '## Inscribed — Review 1 (2026-02-16)',
  '## Observations — Task: x (2026-03-10)',
  '## Etched — FastAPI: DI (2026-03-11)',
  '## Inscribed',
  '## Other',
  '---',
  '***',
  '- - -',
  '#### Sub',
  '<!--',
  '-->',
  '<!-- one line -->',
  '### [2026-02-11] Architecture: X - **layer**: etched - **source**: manual - **confidence**: 1.0 - **supersedes**: none - Learning.',
  '### Y - **id**: y - **layer**: traced',
  '\uFEFF',
  '\0',
  'é한🙂',
  '\uD800',
];
const fragmentDoc = fc
  .array(fc.tuple(fc.constantFrom(...FRAGMENTS), fc.constantFrom('\n', '\n', '\n', '\r\n', '\r', '')), { maxLength: 30 })
  .map((parts) => parts.map(([t, eol]) => t + eol).join(''));

const PROSE = fc.array(
  fc.oneof(
    fc.string({ unit: chars('abc XYZ 012 .,|'), minLength: 1, maxLength: 20 }).filter((s) => /^[a-zA-Z0-9]/.test(s)),
    fc.constantFrom('```\n### [2026-01-01] Pattern: fenced\n## Inscribed — fenced (2026-01-01)\n```', '| a | b |\n|---|---|', ''),
  ),
  { maxLength: 4 },
);
const verbatimArb = fc
  .tuple(fc.constantFrom('## Notes', '---', '# Title', '## Inscribed', '### Plain heading'), PROSE)
  .map(([head, lines]) => [head, ...lines].join('\n'));

/** A document rendered from entries with verbatim sections between them; every section starts with a line that ends an entry. */
const generatedDoc = fc
  .record({
    header: fc.constantFrom('', '<!-- echo-schema: v2 -->\n# Reviewer Memory\n\n', '\uFEFF<!-- echo-schema: v1 -->\n', '# Notes\n\n'),
    items: fc.array(
      fc.oneof(
        entryArb.map((e) => ({ e })),
        verbatimArb.map((v) => ({ v })),
      ),
      { maxLength: 6 },
    ),
    eol: fc.constantFrom('\n', '\r\n' as const),
    finalNewline: fc.boolean(),
  })
  .map(({ header, items, eol, finalNewline }) => {
    const seen = new Set<string>();
    const kept = items.filter((it) => !('e' in it) || (!seen.has(it.e.id) && seen.add(it.e.id)));
    let text = header.replace(/\n/g, eol);
    kept.forEach((it, k) => {
      text += 'e' in it ? renderEntry(it.e, eol) : it.v.replace(/\n/g, eol) + eol;
      if (k < kept.length - 1) text += eol;
    });
    if (!finalNewline && text.endsWith(eol)) text = text.slice(0, -eol.length);
    return { text, entries: kept.flatMap((it) => ('e' in it ? [it.e] : [])) };
  });

// ---------------------------------------------------------------- helpers

function editorLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (/[\r\n]$/.test(text)) lines.pop();
  return lines;
}

function assertConsistent(doc: EchoDocument): void {
  let line = 1;
  for (const b of doc.blocks) {
    assert.equal(b.line, line);
    line += countLines(b.text);
  }
  assert.deepEqual(parseEchoDocument(serializeEchoDocument(doc)), doc);
}

const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fragmentDoc,
  generatedDoc.map((d) => d.text),
);

// ---------------------------------------------------------------- properties

/** FC_SCALE=20 runs every property twenty times longer, for a deeper search. */
const runs = (n: number) => ({ numRuns: n * (Number(process.env.FC_SCALE) || 1) });

test('any string serialises back byte for byte', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
      assert.equal(serializeEchoDocument(parseEchoDocument(text)), text);
    }),
    runs(500),
  );
});

test('fragment documents round-trip and their blocks tile the text line by line', () => {
  fc.assert(
    fc.property(fragmentDoc, (text) => {
      const doc = parseEchoDocument(text);
      assert.equal(serializeEchoDocument(doc), text);
      assertConsistent(doc);
      for (const i of doc.issues) assert.ok(i.line >= 1 && i.line <= Math.max(1, countLines(text)));
    }),
    runs(500),
  );
});

test('generated documents read back as exactly the entries they were rendered from', () => {
  fc.assert(
    fc.property(generatedDoc, ({ text, entries }) => {
      const doc = parseEchoDocument(text);
      assert.equal(serializeEchoDocument(doc), text);
      assert.deepEqual(documentEntries(doc), entries);
      assert.deepEqual(
        doc.issues.filter((i) => i.code !== 'unknown-schema'),
        [],
      );
    }),
    runs(300),
  );
});

test('appendEntries keeps every original line in order and the new entries parse back equal', () => {
  fc.assert(
    fc.property(anyText, fc.array(entryArb, { minLength: 1, maxLength: 3 }), (text, added) => {
      const doc = parseEchoDocument(text);
      const out = appendEntries(doc, added);
      const before = editorLines(text);
      assert.deepEqual(editorLines(serializeEchoDocument(out)).slice(0, before.length), before);
      const all = documentEntries(out);
      const tail = all.slice(all.length - added.length);
      assert.deepEqual(
        tail.map((e, k) => ({ ...e, id: added[k]?.id })),
        added,
      );
      assert.equal(new Set(all.map((e) => e.id)).size, all.length);
      assert.deepEqual(
        documentEntries(out)
          .slice(0, all.length - added.length)
          .map((e) => e.id),
        documentEntries(doc).map((e) => e.id),
      );
    }),
    runs(300),
  );
});

test('replaceEntry changes only the text of that block', () => {
  fc.assert(
    fc.property(anyText, fc.nat(), entryArb, (text, pick, next) => {
      const doc = parseEchoDocument(text);
      const ids = documentEntries(doc).map((e) => e.id);
      fc.pre(ids.length > 0);
      const id = ids[pick % ids.length] ?? '';
      const k = doc.blocks.findIndex((b) => b.type === 'entry' && b.entry.id === id);
      const out = replaceEntry(doc, id, next);
      assert.deepEqual(
        out.blocks.map((b, i) => (i === k ? null : b.text)),
        doc.blocks.map((b, i) => (i === k ? null : b.text)),
      );
      const replaced = out.blocks[k];
      assert.ok(replaced?.type === 'entry');
      assert.deepEqual(replaced.entry, { ...next, id, idExplicit: true });
      assertConsistent(out);
    }),
    runs(300),
  );
});

test('removeEntries drops exactly the blocks of the removed entries', () => {
  fc.assert(
    fc.property(anyText, fc.func(fc.boolean()), (text, choose) => {
      const doc = parseEchoDocument(text);
      const ids = documentEntries(doc)
        .map((e) => e.id)
        .filter((id) => choose(id));
      const { doc: rest, removed, removedText } = removeEntries(doc, ids);
      assert.deepEqual(
        removed.map((e) => e.id),
        ids,
      );
      const kept = doc.blocks
        .filter((b) => !(b.type === 'entry' && ids.includes(b.entry.id)))
        .map((b) => b.text)
        .join('');
      assert.equal(serializeEchoDocument(rest).replace(/^\uFEFF/, ''), kept.replace(/^\uFEFF/, ''));
      assert.equal(removedText.length, ids.length);
    }),
    runs(300),
  );
});

test('moveOutEntries loses no byte: what stays and what moved are the whole input, each entry block intact', () => {
  fc.assert(
    fc.property(anyText, fc.func(fc.boolean()), (text, choose) => {
      const doc = parseEchoDocument(text);
      const ids = documentEntries(doc)
        .map((e) => e.id)
        .filter((id) => choose(id));
      const { doc: rest, moved } = moveOutEntries(doc, ids);
      assert.deepEqual(
        moved.map((m) => m.entry.id),
        ids,
      );
      const stays = serializeEchoDocument(rest).replace(/^\uFEFF/, '');
      assert.equal(stays.length + moved.reduce((n, m) => n + m.text.length, 0), text.replace(/^\uFEFF/, '').length);
      for (const m of moved) {
        const block = doc.blocks.find((b) => b.type === 'entry' && b.entry.id === m.entry.id)!;
        assert.ok(m.text.startsWith(block.text.replace(/^\uFEFF/, '')), 'the entry block leaves byte for byte');
      }
    }),
    runs(300),
  );
});

test('upgradeToV2 keeps a field written twice after the first, even when the first is unreadable: the entry means what it meant', () => {
  // Found by the property below: the second `status` had been written first and retracted the entry.
  const text =
    '### [2026-02-11] Architecture: X - **layer**: etched - **source**: manual - **confidence**: 1.0 - **supersedes**: none - Learning.\n- **status**: maybe\n- **status**: retracted\n';
  const doc = parseEchoDocument(text);
  const { doc: up } = upgradeToV2(doc);
  assert.equal(documentEntries(doc)[0]!.status, undefined);
  assert.equal(documentEntries(up)[0]!.status, undefined);
  assert.match(serializeEchoDocument(up), /- \*\*status\*\*: maybe\n- \*\*status\*\*: retracted\n/);
  // Other fields written twice keep their place among the fields kept aside (an entry's origin mark covers their order).
  const twice = parseEchoDocument(
    '### [2026-02-11] Pattern: Y\n- **id**: y\n- **layer**: inscribed\n- **source**: manual\n- **confidence**: 0.8\n- **tags**: a\n- **tags**: b\n- **superseded_by**: z\n- Learning.\n',
  );
  assert.deepEqual(documentEntries(twice)[0]!.extra, [
    ['tags', 'b'],
    ['superseded_by', 'z'],
  ]);
});

test('upgradeToV2 writes an id into every entry, keeps their values and is idempotent', () => {
  fc.assert(
    fc.property(anyText, (text) => {
      const doc = parseEchoDocument(text);
      const { doc: up } = upgradeToV2(doc);
      assert.deepEqual(
        documentEntries(up),
        documentEntries(doc).map((e) => ({ ...e, idExplicit: true })),
      );
      if (!doc.issues.some((i) => i.code === 'unknown-schema')) assert.equal(up.schema, 'v2');
      assert.deepEqual(upgradeToV2(up).changed, []);
    }),
    runs(300),
  );
});
