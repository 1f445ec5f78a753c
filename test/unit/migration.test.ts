// migrate's core (seed 000 RENAME-2, seed 004): renames touch whole names in
// metadata only, the schema ladder writes ids and the v2 stamp, and both are
// idempotent — as tables and as fast-check properties.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { migrateDocument } from '../../src/core/adopt/migration.ts';
import { applyRenames, checkRenames, parseRenameArgs } from '../../src/core/adopt/renames.ts';
import { documentEntries, parseEchoDocument, renderEntry, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import { entryArb } from './entry-arbitrary.ts';

const map = (pairs: Record<string, string>) => new Map(Object.entries(pairs));

test('a rename replaces whole names and whole :/-separated parts, never part of a word', () => {
  const m = map({ 'forge-warden': 'forge-keeper', 'rune:devise': 'rune:plan', auth: 'authn' });
  assert.equal(applyRenames('rune:review forge-warden', m), 'rune:review forge-keeper');
  assert.equal(applyRenames('`rune:devise 2026` (by forge-warden.)', m), '`rune:plan 2026` (by forge-keeper.)');
  assert.equal(applyRenames('rune-audit/forge-warden/worker-3', m), 'rune-audit/forge-keeper/worker-3');
  assert.equal(applyRenames('`src/auth.py:1-5` — auth found', m), '`src/auth.py:1-5` — authn found');
  assert.equal(applyRenames('forge-wardens and xforge-warden', m), 'forge-wardens and xforge-warden');
});

test('a path renames where it is cited, with a line number or inside a longer path, and a second run changes nothing', () => {
  const m = map({ 'src/money.js': 'lib/money.js' });
  assert.doesNotThrow(() => checkRenames(m));
  assert.equal(applyRenames('`src/money.js:12` — rounding', m), '`lib/money.js:12` — rounding');
  assert.equal(applyRenames('src/money.js and app/src/money.js', m), 'lib/money.js and app/lib/money.js');
  assert.equal(applyRenames('src/money.jsx src/money', m), 'src/money.jsx src/money', 'never part of a name');
  assert.equal(applyRenames(applyRenames('`src/money.js:12`', m), m), '`lib/money.js:12`');
  // The longest old name at a place wins; a new name holding an old one as a run of parts is refused.
  assert.equal(applyRenames('src/money.js', map({ 'src/money.js': 'lib/cash.js', 'money.js': 'cash.js' })), 'lib/cash.js');
  assert.throws(() => checkRenames(map({ 'src/money.js': 'src/money.js/v2' })), /is itself renamed/);
});

test('rename arguments are old=new pairs; chains and self-renames are refused with one line', () => {
  assert.deepEqual(
    [...parseRenameArgs(['a=b', ' c = d '])],
    [
      ['a', 'b'],
      ['c', 'd'],
    ],
  );
  assert.throws(() => parseRenameArgs(['a']), { code: 'bad-argument' });
  assert.throws(() => parseRenameArgs(['=b']), { code: 'bad-argument' });
  assert.throws(() => checkRenames(map({ a: 'b', b: 'c' })), /"b" is itself renamed/);
  assert.throws(() => checkRenames(map({ a: 'a' })), /the new name is the old one/);
  assert.throws(() => checkRenames(map({ a: 'x y' })), /is not a name/);
  assert.throws(() => checkRenames(map({ 'rune:x': 'y', z: 'x' })), /part of the old name "rune:x"/);
  assert.doesNotThrow(() => checkRenames(map({ 'forge-warden': 'forge-keeper', 'rune:devise': 'rune:plan' })));
});

const legacy = [
  '# Reviewer Echoes',
  '',
  '## Observations — Task: forge-warden review (2026-03-11)',
  '- **layer**: observations',
  '- **source**: `rune-audit-20260311/forge-warden`',
  '- **Confidence**: LOW',
  '- forge-warden flagged the retry loop.',
  '',
].join('\n');

test('migrate stamps v2, writes ids, renames metadata and leaves the learning alone; a second run changes nothing', () => {
  const renames = map({ 'forge-warden': 'forge-keeper' });
  const first = migrateDocument(parseEchoDocument(legacy), { renames, upgrade: true });
  const text = serializeEchoDocument(first.doc);
  assert.equal(
    text,
    [
      '<!-- echo-schema: v2 -->',
      '# Reviewer Echoes',
      '',
      '## Observations — Task: forge-warden review (2026-03-11)',
      '- **id**: forge-warden-review',
      '- **layer**: observations',
      '- **source**: `rune-audit-20260311/forge-keeper`',
      '- **Confidence**: LOW',
      '- forge-warden flagged the retry loop.',
      '',
    ].join('\n'),
  );
  assert.deepEqual(first.changes, [
    'line 3: wrote id "forge-warden-review" for "forge-warden review"',
    'line 1: added schema header <!-- echo-schema: v2 -->',
    'line 4 (forge-warden-review): source "`rune-audit-20260311/forge-warden`" → "`rune-audit-20260311/forge-keeper`"',
  ]);
  const second = migrateDocument(first.doc, { renames, upgrade: true });
  assert.deepEqual(second.changes, []);
  assert.equal(serializeEchoDocument(second.doc), text);
});

const names = fc.constantFrom('forge-warden', 'rune:review', 'scout', 'rune:devise', 'worker-3', 'auth');
const renameMapArb = fc
  .uniqueArray(fc.tuple(names, fc.constantFrom('forge-keeper', 'rune:appraise', 'seeker', 'rune:plan', 'hand-3', 'authn')), {
    selector: ([a]) => a,
    maxLength: 4,
  })
  .map((pairs) => new Map(pairs))
  .filter((m) => {
    try {
      checkRenames(m);
      return true;
    } catch {
      return false;
    }
  });
const wordy = fc
  .array(fc.oneof(names, fc.constantFrom(' ', '/', ':', '`src/auth.py:3`', 'PR #42', '.', ' — ')), { maxLength: 8 })
  .map((parts) => parts.join(''));
const docArb = fc
  .array(
    fc.tuple(entryArb, wordy, wordy, wordy, wordy).map(([e, source, evidence, supersedes, learning]) => ({
      ...e,
      source,
      evidence,
      supersedes,
      learning: learning.trim() || 'A learning about scout.',
    })),
    { maxLength: 6 },
  )
  .map((entries) => ({ text: `# Memory\n\n${entries.map((e) => renderEntry(e)).join('\n')}`, entries }));

test('property: renames never touch the learning text or the title, and migrate is idempotent', () => {
  fc.assert(
    fc.property(docArb, renameMapArb, ({ text }, renames) => {
      const before = documentEntries(parseEchoDocument(text));
      const once = migrateDocument(parseEchoDocument(text), { renames, upgrade: true });
      const after = documentEntries(once.doc);
      assert.equal(after.length, before.length);
      after.forEach((e, i) => {
        assert.equal(e.learning, before[i]!.learning, 'learning untouched');
        assert.equal(e.title, before[i]!.title, 'title untouched');
        assert.equal(e.source, applyRenames(before[i]!.source, renames));
      });
      const twice = migrateDocument(parseEchoDocument(serializeEchoDocument(once.doc)), { renames, upgrade: true });
      assert.deepEqual(twice.changes, [], 'a second run changes nothing');
      assert.equal(serializeEchoDocument(twice.doc), serializeEchoDocument(once.doc));
    }),
    { numRuns: 300 },
  );
});
