import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendEntries } from '../../src/core/entry/document-edits.ts';
import { documentEntries, newMemoryDocumentText, parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import { consolidate, consolidateDocument, matchKey } from '../../src/core/lifecycle/consolidation.ts';
import { makeEntry } from './entry-arbitrary.ts';

const existingEntry = makeEntry({
  id: 'unused-imports-in-new-files',
  title: 'Unused imports in new files',
  evidence: '`src/auth.py:1-5` — 3 unused imports found',
  confidence: 0.85,
  verified: '2026-02-11',
});

test('a finding with the same evidence and pattern updates the verified date and keeps the higher confidence', () => {
  const finding = makeEntry({
    id: 'x',
    title: existingEntry.title,
    evidence: existingEntry.evidence,
    confidence: 0.6,
    verified: '2026-03-01',
  });
  const r = consolidate([existingEntry], [finding]);
  assert.deepEqual(r.appends, []);
  assert.deepEqual(r.updates, [{ ...existingEntry, verified: '2026-03-01', confidence: 0.85 }]);
  assert.deepEqual(r.placements, [{ finding: 0, id: 'unused-imports-in-new-files', action: 'updated' }]);
});

test('consolidation keeps the higher confidence and the later date in either direction', () => {
  const finding = makeEntry({ title: existingEntry.title, evidence: existingEntry.evidence, confidence: 0.95, verified: '2026-01-01' });
  const r = consolidate([existingEntry], [finding]);
  assert.deepEqual(r.updates, [{ ...existingEntry, verified: '2026-02-11', confidence: 0.95 }]);
});

test('matching ignores case, surrounding space and runs of whitespace', () => {
  const finding = makeEntry({
    title: '  unused   IMPORTS in new files',
    evidence: '`src/auth.py:1-5`  —  3 unused imports FOUND ',
    verified: '2026-02-11',
    confidence: 0.5,
  });
  assert.equal(matchKey(finding), matchKey(existingEntry));
  const r = consolidate([existingEntry], [finding]);
  assert.deepEqual(r.updates, [], 'nothing newer: no update');
  assert.deepEqual(r.appends, []);
  assert.deepEqual(r.placements, [{ finding: 0, id: existingEntry.id, action: 'unchanged' }]);
});

test('same pattern with different evidence is a new entry with a unique id', () => {
  const finding = makeEntry({
    id: 'whatever',
    idExplicit: false,
    title: 'Unused imports in new files',
    evidence: '`src/user.py:2`',
    verified: '2026-03-01',
  });
  const r = consolidate([existingEntry], [finding]);
  assert.deepEqual(r.updates, []);
  assert.equal(r.appends.length, 1);
  assert.equal(r.appends[0]!.id, 'unused-imports-in-new-files-2');
  assert.equal(r.appends[0]!.idExplicit, true);
  assert.equal(r.appends[0]!.evidence, '`src/user.py:2`');
});

test('findings that duplicate each other merge into one append first, keeping what each one said', () => {
  const a = makeEntry({
    title: 'Flaky retry test',
    evidence: 'CI run 812',
    confidence: 0.4,
    verified: '2026-03-02',
    learning: 'first text',
  });
  const b = makeEntry({
    title: 'flaky retry test',
    evidence: 'ci run 812',
    confidence: 0.7,
    verified: '2026-03-01',
    learning: 'second text',
  });
  const c = makeEntry({ title: 'Other thing', evidence: 'CI run 812', confidence: 0.5, verified: '2026-03-01' });
  const r = consolidate([], [a, b, c]);
  assert.deepEqual(
    r.appends.map((e) => [e.id, e.confidence, e.verified, e.learning]),
    [
      ['flaky-retry-test', 0.7, '2026-03-02', 'first text\nsecond text'],
      ['other-thing', 0.5, '2026-03-01', 'A learning.'],
    ],
  );
  assert.deepEqual(
    r.placements.map((p) => p.id),
    ['flaky-retry-test', 'flaky-retry-test', 'other-thing'],
  );
});

test('appended ids never collide with existing ids or with each other', () => {
  const taken = makeEntry({ id: 'slow-ci', title: 'Something else', evidence: 'e0' });
  const f1 = makeEntry({ title: 'Slow CI', evidence: 'e1' });
  const f2 = makeEntry({ title: 'Slow  CI!', evidence: 'e2' });
  const r = consolidate([taken], [f1, f2]);
  assert.deepEqual(
    r.appends.map((e) => e.id),
    ['slow-ci-2', 'slow-ci-3'],
  );
});

test('an etched entry keeps its layer when a finding of a lower layer matches it', () => {
  const etched = makeEntry({ ...existingEntry, id: 'stack', layer: 'etched' });
  const finding = makeEntry({ title: etched.title, evidence: etched.evidence, layer: 'traced', confidence: 0.9, verified: '2026-04-01' });
  const r = consolidate([etched], [finding]);
  assert.equal(r.updates.length, 1);
  assert.equal(r.updates[0]!.layer, 'etched');
  assert.equal(r.updates[0]!.confidence, 0.9);
});

test('a finding without a verified day uses its heading date', () => {
  const finding = makeEntry({ title: existingEntry.title, evidence: existingEntry.evidence, verified: '', date: '2026-05-05' });
  const r = consolidate([existingEntry], [finding]);
  assert.equal(r.updates[0]!.verified, '2026-05-05');
  const fresh = consolidate([], [{ ...finding, title: 'New' }]);
  assert.equal(fresh.appends[0]!.verified, '2026-05-05');
});

test('a junk verified value is replaced by a real day, never the other way round', () => {
  const junk = makeEntry({ ...existingEntry, verified: 'last week' });
  const finding = makeEntry({ title: junk.title, evidence: junk.evidence, verified: '2026-01-01', confidence: 0 });
  assert.equal(consolidate([junk], [finding]).updates[0]!.verified, '2026-01-01');
  const junkFinding = { ...finding, verified: 'someday', date: '' };
  assert.deepEqual(consolidate([existingEntry], [junkFinding]).updates, []);
});

test('a broken NaN confidence does not produce an update on every run', () => {
  const broken = makeEntry({ ...existingEntry, confidence: Number.NaN });
  const finding = makeEntry({ title: broken.title, evidence: broken.evidence, verified: broken.verified, confidence: Number.NaN });
  assert.deepEqual(consolidate([broken], [finding]).updates, []);
});

test('running consolidation again on its own result changes nothing', () => {
  const findings = [
    makeEntry({ title: existingEntry.title, evidence: existingEntry.evidence, verified: '2026-03-09', confidence: 0.9 }),
    makeEntry({ title: 'Brand new', evidence: '`a.ts:1`' }),
  ];
  const doc = appendEntries(parseEchoDocument(newMemoryDocumentText('Reviewer Memory')), [existingEntry]);
  const once = consolidateDocument(doc, findings);
  const again = consolidateDocument(once.doc, findings);
  assert.deepEqual(again.updates, []);
  assert.deepEqual(again.appends, []);
  assert.deepEqual(
    again.placements.map((p) => p.action),
    ['unchanged', 'unchanged'],
  );
  assert.equal(serializeEchoDocument(again.doc), serializeEchoDocument(once.doc));
});

test('a merge into a hand-written entry changes its verified and confidence lines and keeps every body byte', () => {
  const handWritten = [
    '<!-- echo-schema: v2 -->',
    '# Reviewer Memory',
    '',
    '### [2026-02-11] Pattern: Unused imports in new files',
    '- **id**: unused-imports-in-new-files',
    '- **layer**: inscribed',
    '- **confidence**: 0.85',
    '- **evidence**: `src/auth.py:1-5` — 3 unused imports found',
    '- **verified**: 2026-02-11',
    'New files often keep imports:',
    '',
    '```ts',
    "import { x } from './x';",
    '```',
    '',
    '| file | unused |',
    '|---|---|',
    '| auth.py | 3 |',
    '',
    '> quoted note',
    '',
  ].join('\n');
  const finding = makeEntry({
    title: existingEntry.title,
    evidence: existingEntry.evidence,
    verified: '2026-03-09',
    confidence: 0.9,
    learning: 'New files often keep imports:',
  });
  const { doc } = consolidateDocument(parseEchoDocument(handWritten), [finding]);
  const expected = handWritten
    .replace('- **confidence**: 0.85', '- **confidence**: 0.9')
    .replace('- **verified**: 2026-02-11', '- **verified**: 2026-03-09');
  assert.equal(serializeEchoDocument(doc), expected);
  assert.equal(documentEntries(doc)[0]!.confidence, 0.9);
});

test('a merge into an entry without an id writes the id and the new date, nothing else', () => {
  const v1 =
    '# Memory\n\n### [2026-02-11] Pattern: Unused imports in new files\n**Confidence**: LOW\n**Evidence**: `src/auth.py:1-5` — 3 unused imports found\nbody line\n';
  const finding = makeEntry({
    title: existingEntry.title,
    evidence: existingEntry.evidence,
    verified: '2026-03-09',
    confidence: 0.9,
    learning: 'Body line',
  });
  const { doc } = consolidateDocument(parseEchoDocument(v1), [finding]);
  assert.equal(
    serializeEchoDocument(doc),
    '# Memory\n\n### [2026-02-11] Pattern: Unused imports in new files\n**id**: unused-imports-in-new-files\n**Confidence**: 0.9\n**Evidence**: `src/auth.py:1-5` — 3 unused imports found\n**verified**: 2026-03-09\nbody line\n',
  );
});

test('a merge that brings a new learning adds it to the entry body and keeps every byte that was there', () => {
  const handWritten =
    '<!-- echo-schema: v2 -->\n# Reviewer Memory\n\n### [2026-02-11] Pattern: Unused imports in new files\n- **id**: unused-imports-in-new-files\n- **layer**: inscribed\n- **confidence**: 0.85\n- **evidence**: `src/auth.py:1-5` — 3 unused imports found\n- **verified**: 2026-02-11\nNew files keep imports.\n\n| a | b |\n|---|---|\n\n### [2026-02-12] Pattern: Next\n- **layer**: traced\n- **confidence**: 0.5\n- x\n';
  const finding = makeEntry({
    title: existingEntry.title,
    evidence: existingEntry.evidence,
    verified: '2026-02-11',
    confidence: 0.5,
    learning: 'Barrel files re-export them too.',
  });
  const once = consolidateDocument(parseEchoDocument(handWritten), [finding]);
  const text = serializeEchoDocument(once.doc);
  assert.equal(text, handWritten.replace('|---|---|\n\n', '|---|---|\n- Barrel files re-export them too.\n\n'));
  assert.deepEqual(
    once.placements.map((p) => p.action),
    ['updated'],
  );
  const again = consolidateDocument(once.doc, [finding]);
  assert.equal(serializeEchoDocument(again.doc), text, 'idempotent');
});

test('a finding that repeats a long learning with one line more adds that line only, not a second copy', () => {
  const body = ['Prefer TDD when implementing features.', '- Write the test first.', '- Keep tests fast.', '- Mock the network.'].join(
    '\n',
  );
  const existing = makeEntry({ id: 'testing-standards', title: 'Testing standards', evidence: '`docs/testing.md:1`', learning: body });
  const again = makeEntry({
    id: 'testing-standards',
    title: 'Testing standards',
    evidence: '`docs/testing.md:1`',
    learning: `${body}\n- Also: never commit generated packs.`,
  });
  const { updates, appends } = consolidate([existing], [again]);
  assert.equal(appends.length, 0);
  assert.equal(updates[0]!.learning, `${body}\n- Also: never commit generated packs.`);
  // Lines that changed are kept beside the old ones: nothing said is lost.
  const edited = makeEntry({ ...again, learning: body.replace('Keep tests fast.', 'Keep unit tests under 50 ms.') });
  const after = consolidate([existing], [edited]).updates[0]!.learning;
  assert.match(after, /Keep tests fast\./);
  assert.match(after, /Keep unit tests under 50 ms\./);
  assert.equal(after.split('Prefer TDD').length - 1, 1, 'one copy');
});

test('tags a repeated finding adds join the entry', () => {
  const doc = parseEchoDocument(newMemoryDocumentText('Team'));
  const first = consolidateDocument(doc, [makeEntry({ id: 'tz', title: 'Flaky test fix', evidence: '', tags: ['tz'] })]).doc;
  const second = consolidateDocument(first, [makeEntry({ id: 'tz', title: 'Flaky test fix', evidence: '', tags: ['tz', 'ci'] })]).doc;
  assert.deepEqual(documentEntries(parseEchoDocument(serializeEchoDocument(second)))[0]!.tags, ['tz', 'ci']);
});
