// The merge driver's core on hand-made cases: which version of an entry wins,
// what is kept beside it, that untouched blocks keep their bytes (hand-written
// entries, CRLF, BOM, a missing last newline), add/add with no ancestor, and
// real memory files from other projects merged with themselves changed.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { appendEntries } from '../../src/core/entry/document-edits.ts';
import { documentEntries, parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import { mergeEchoTexts } from '../../src/core/team/entry-merge.ts';
import { diff3Regions, matchItems } from '../../src/core/team/line-merge.ts';
import { retirementsByRole } from '../../src/store/memory/consolidate-all.ts';
import { makeEntry } from './entry-arbitrary.ts';

const H = '<!-- echo-schema: v2 -->\n# Reviewer Memory\n\n';
const entry = (id: string, over: { verified?: string; confidence?: string; learning?: string; evidence?: string } = {}) =>
  [
    `### [2026-01-01] Pattern: Title ${id}`,
    `- **id**: ${id}`,
    '- **layer**: inscribed',
    `- **confidence**: ${over.confidence ?? '0.8'}`,
    `- **evidence**: ${over.evidence ?? `\`src/${id}.ts:1\` — seen`}`,
    `- **verified**: ${over.verified ?? '2026-01-01'}`,
    `- ${over.learning ?? `Learning ${id}.`}`,
    '',
  ].join('\n');
const file = (...entries: string[]) => H + entries.join('\n');
const ids = (text: string) => documentEntries(parseEchoDocument(text)).map((e) => e.id);
const byId = (text: string, id: string) => documentEntries(parseEchoDocument(text)).find((e) => e.id === id);

test('matchItems finds a longest common subsequence, increasing in both', () => {
  assert.deepEqual(matchItems(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd']), [
    [0, 0],
    [2, 2],
    [3, 3],
  ]);
  assert.deepEqual(matchItems([], ['a']), []);
  assert.deepEqual(matchItems(['b', 'a'], ['a', 'b']).length, 1);
});

test('diff3Regions keeps what both sides kept stable and groups the rest', () => {
  const regions = diff3Regions(['h', 'x', 't'], ['h', 'x', 'y', 't'], ['h', 'z', 't']);
  assert.deepEqual(
    regions.map((r) => r.stable),
    [true, false, true],
  );
  assert.deepEqual(regions[1], { stable: false, o: [1, 2], a: [1, 3], b: [1, 2] });
});

test('an entry changed on one side only takes that change; removed on one side and unchanged on the other, it stays removed', () => {
  const O = file(entry('a'), entry('b'), entry('c'));
  const A = file(entry('a', { learning: 'Better said.' }), entry('c'));
  const B = file(entry('a'), entry('b'), entry('c', { verified: '2026-02-01' }));
  const merged = mergeEchoTexts(O, A, B);
  assert.deepEqual(ids(merged.text), ['a', 'c']);
  assert.equal(byId(merged.text, 'a')?.learning, 'Better said.');
  assert.equal(byId(merged.text, 'c')?.verified, '2026-02-01');
  assert.equal(merged.conflicts, 0);
});

test('changed on both sides: the later verified wins and the other is kept beside it as superseded under a new id', () => {
  const O = file(entry('a'));
  const A = file(entry('a', { learning: 'Ours says this.', verified: '2026-03-01' }));
  const B = file(entry('a', { learning: 'Theirs says that.', verified: '2026-02-01' }));
  for (const [ours, theirs] of [
    [A, B],
    [B, A],
  ] as const) {
    const merged = mergeEchoTexts(O, ours, theirs);
    assert.deepEqual(ids(merged.text), ['a', 'a-superseded']);
    assert.equal(byId(merged.text, 'a')?.learning, 'Ours says this.');
    const loser = byId(merged.text, 'a-superseded');
    assert.equal(loser?.status, 'superseded');
    assert.equal(loser?.learning, 'Theirs says that.');
    assert.match(merged.notes.join('\n'), /changed on both sides; the one verified 2026-03-01 wins/);
  }
});

test('on the same verified date the higher confidence wins', () => {
  const O = file(entry('a'));
  const merged = mergeEchoTexts(
    O,
    file(entry('a', { learning: 'Low.', confidence: '0.6' })),
    file(entry('a', { learning: 'High.', confidence: '0.9' })),
  );
  assert.equal(byId(merged.text, 'a')?.learning, 'High.');
  assert.equal(byId(merged.text, 'a-superseded')?.learning, 'Low.');
});

test('both sides only re-verified an entry: the later stamp wins and nothing is kept beside it', () => {
  const O = file(entry('a'));
  const merged = mergeEchoTexts(
    O,
    file(entry('a', { verified: '2026-03-01' })),
    file(entry('a', { verified: '2026-02-01', confidence: '0.9' })),
  );
  assert.deepEqual(ids(merged.text), ['a']);
  assert.equal(byId(merged.text, 'a')?.verified, '2026-03-01');
});

test('removed on one side and re-verified on the other, it stays removed; edited on the other, the edit is kept', () => {
  const O = file(entry('a'), entry('b'));
  const A = file();
  const B = file(entry('a', { verified: '2026-05-01' }), entry('b', { learning: 'Rewritten.' }));
  const merged = mergeEchoTexts(O, A, B);
  assert.deepEqual(ids(merged.text), ['b']);
  assert.equal(byId(merged.text, 'b')?.learning, 'Rewritten.');
  assert.equal(merged.notes.length, 2);
});

test('two different learnings under one id are both kept, the later one renamed; the same learning from both sides is kept once', () => {
  const O = file();
  const merged = mergeEchoTexts(
    O,
    file(entry('x', { evidence: 'ours' }), entry('y')),
    file(entry('x', { evidence: 'theirs' }), entry('y', { verified: '2026-02-02' })),
  );
  assert.deepEqual([...ids(merged.text)].sort(), ['x', 'x-2', 'y']);
  assert.equal(byId(merged.text, 'y')?.verified, '2026-02-02');
  assert.deepEqual(
    documentEntries(parseEchoDocument(merged.text))
      .map((e) => e.evidence)
      .sort(),
    ['`src/y.ts:1` — seen', 'ours', 'theirs'],
  );
});

test('the same finding with two different learnings, added on both sides without an ancestor, keeps both learnings', () => {
  const A = file(entry('dev-server-port', { evidence: '', learning: 'Use port 8080.' }));
  const B = file(entry('dev-server-port', { evidence: '', learning: 'Use port 3000.' }));
  for (const [ours, theirs] of [
    [A, B],
    [B, A],
  ] as const) {
    const merged = mergeEchoTexts('', ours, theirs);
    const learnings = documentEntries(parseEchoDocument(merged.text))
      .map((e) => e.learning)
      .sort();
    assert.deepEqual(learnings, ['Use port 3000.', 'Use port 8080.']);
    assert.equal(merged.conflicts, 0);
  }
});

test('re-verifying is not editing: one side re-verified, the other edited — the edit is kept, stamped with the later date, nothing beside it', () => {
  const O = file(entry('retry', { learning: 'Exponential backoff.' }));
  const A = file(entry('retry', { learning: 'Exponential backoff.', verified: '2026-11-23' }));
  const B = file(entry('retry', { learning: 'Exponential backoff with jitter.' }));
  const C = file(entry('retry', { learning: 'Exponential backoff with jitter.', verified: '2026-11-23' }));
  for (const [ours, theirs] of [
    [A, B],
    [B, A],
    [A, C],
    [C, A],
  ] as const) {
    const merged = mergeEchoTexts(O, ours, theirs);
    assert.deepEqual(ids(merged.text), ['retry']);
    assert.equal(byId(merged.text, 'retry')?.learning, 'Exponential backoff with jitter.');
    assert.equal(byId(merged.text, 'retry')?.verified, '2026-11-23');
  }
});

test('a line of learning added to one entry on each side: both lines kept in one entry, the same whichever side merges', () => {
  const base = entry('retry', { learning: 'Exponential backoff.' });
  const O = file(base);
  const A = file(
    base.replace('- Exponential backoff.\n', '- Exponential backoff.\n- Cap it at 3 tries.\n').replace('2026-01-01\n-', '2026-03-01\n-'),
  );
  const B = file(
    base.replace('- Exponential backoff.\n', '- Exponential backoff.\n- Add full jitter.\n').replace('2026-01-01\n-', '2026-02-01\n-'),
  );
  const one = mergeEchoTexts(O, A, B);
  const two = mergeEchoTexts(O, B, A);
  assert.equal(one.text, two.text);
  assert.deepEqual(ids(one.text), ['retry']);
  const merged = byId(one.text, 'retry');
  assert.match(merged?.learning ?? '', /Exponential backoff\.[\s\S]*Add full jitter\.[\s\S]*Cap it at 3 tries\./);
  assert.equal(merged?.verified, '2026-03-01');
  assert.equal(one.conflicts, 0);
});

test('the edit that loses is kept as superseded naming the winner, and leaves for the archive between sessions', () => {
  const O = file(entry('a'));
  const merged = mergeEchoTexts(
    O,
    file(entry('a', { learning: 'Ours says this.', verified: '2026-03-01' })),
    file(entry('a', { learning: 'Theirs says that.', verified: '2026-02-01' })),
  );
  const loser = byId(merged.text, 'a-superseded');
  assert.deepEqual(loser?.extra, [['superseded_by', 'a']]);
  const entries = documentEntries(parseEchoDocument(merged.text));
  assert.deepEqual([...(retirementsByRole([{ role: 'reviewer', entries }]).get('reviewer') ?? [])], [['a-superseded', 'reviewer#a']]);
});

test('no common ancestor (git passes an empty one for add/add): both files merge into one, header once', () => {
  const merged = mergeEchoTexts('', file(entry('a')), file(entry('b')));
  assert.equal(merged.conflicts, 0);
  assert.equal(merged.text, file(entry('a'), entry('b')));
});

test('the blocks nobody touched keep their bytes: hand-written entries, notes, odd spacing', () => {
  const hand = [
    '<!-- echo-schema: v2 -->',
    '# Reviewer Memory',
    '',
    'Some notes the team keeps here.',
    '',
    '| table | stays |',
    '|---|---|',
    '',
    '### [2026-01-01] Pattern: Hand written',
    '- **id**: hand-written',
    '- **layer**:   etched',
    '- **confidence**: HIGH',
    '',
    '```ts',
    'const x = 1; // code in a learning',
    '```',
    '',
    '',
    '### [2026-01-02] Pattern: Second',
    '- **id**: second',
    '- **layer**: traced',
    '- **confidence**: 0.4',
    '- a learning',
    '',
  ].join('\n');
  const theirs = serializeEchoDocument(appendEntries(parseEchoDocument(hand), [makeEntry({ id: 'new-one', title: 'New one' })]));
  const ours = hand.replace('- a learning', '- a learning, refined');
  const merged = mergeEchoTexts(hand, ours, theirs);
  assert.ok(merged.text.startsWith(ours), merged.text);
  assert.deepEqual(ids(merged.text), ['hand-written', 'second', 'new-one']);
});

test('CRLF, a byte order mark and a missing last newline survive a merge', () => {
  const crlf = (t: string) => t.replace(/\n/g, '\r\n');
  const O = `\uFEFF${crlf(file(entry('a')))}`.replace(/\r\n$/, '');
  const A = `\uFEFF${crlf(file(entry('a', { learning: 'Ours.' })))}`.replace(/\r\n$/, '');
  const B = `\uFEFF${crlf(file(entry('a'), entry('b')))}`;
  const merged = mergeEchoTexts(O, A, B);
  assert.ok(merged.text.startsWith('\uFEFF'));
  assert.ok(!/[^\r]\n/.test(merged.text), 'every line ends in CRLF');
  assert.deepEqual(ids(merged.text), ['a', 'b']);
  assert.equal(byId(merged.text, 'a')?.learning, 'Ours.');
});

test('ours in CRLF and theirs in LF give one line ending throughout: ours', () => {
  const crlf = (t: string) => t.replace(/\n/g, '\r\n');
  const O = file(entry('a'));
  const A = crlf(file(entry('a', { learning: 'Ours.' })));
  const B = file(entry('a'), entry('b'), entry('c'));
  const merged = mergeEchoTexts(O, A, B);
  assert.ok(!/[^\r]\n/.test(merged.text), 'every line ends in CRLF');
  assert.deepEqual(ids(merged.text), ['a', 'b', 'c']);
  const back = mergeEchoTexts(O, B, A);
  assert.ok(!back.text.includes('\r'), 'and LF throughout the other way round');
});

test('text both sides added at the same place (a note each) is kept, ours first, without markers', () => {
  const O = file(entry('a'));
  const merged = mergeEchoTexts(O, `${O}\n## Ours\nA note from ours.\n`, `${O}\n## Theirs\nA note from theirs.\n`);
  assert.equal(merged.conflicts, 0);
  assert.equal(merged.text, `${O}\n## Ours\nA note from ours.\n## Theirs\nA note from theirs.\n`);
});

test('hand-written text changed differently on both sides is the only thing between conflict markers', () => {
  const O = `${H}Team notes: v1\n\n${entry('a')}`;
  const merged = mergeEchoTexts(
    O,
    `${H}Team notes: ours\n\n${entry('a')}\n${entry('b')}`,
    `${H}Team notes: theirs\n\n${entry('a')}\n${entry('c')}`,
  );
  assert.equal(merged.conflicts, 1);
  assert.ok(merged.text.includes('<<<<<<< ours\nTeam notes: ours\n=======\nTeam notes: theirs\n>>>>>>> theirs\n'), merged.text);
  assert.deepEqual(ids(merged.text), ['a', 'b', 'c']);
  assert.deepEqual(
    parseEchoDocument(merged.text).issues.map((i) => [i.code, i.line]),
    [['merge-conflict', 4]],
  );
});

const REALDATA = join(fileURLToPath(new URL('../../..', import.meta.url)), 'shared', 'realdata', 'memory');

test('real memory files from other projects: each side appends an entry; the merge keeps the original text as it was, every entry once, plus both appends', (t) => {
  if (!existsSync(REALDATA)) return t.skip('../shared/realdata is not beside this checkout');
  const files = readdirSync(REALDATA, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.md'));
  let merged = 0;
  for (const rel of files) {
    const text = readFileSync(join(REALDATA, rel), 'utf8');
    const doc = parseEchoDocument(text);
    const entries = documentEntries(doc);
    const add = (id: string) => serializeEchoDocument(appendEntries(doc, [makeEntry({ id, title: `Merge test ${id}` })]));
    const result = mergeEchoTexts(text, add('merge-test-ours'), add('merge-test-theirs'));
    assert.equal(result.conflicts, 0, rel);
    const after = documentEntries(parseEchoDocument(result.text));
    assert.equal(after.length, entries.length + 2, rel);
    assert.ok(result.text.startsWith(text.replace(/\s+$/, '')), `${rel}: the original text is kept as it was`);
    merged++;
  }
  assert.ok(merged > 0);
});
