// The field table is the one declaration of an entry's fields: these tests
// fail when a property escapes it, or when any field it declares could carry
// a secret to disk.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ENTRY_OPTIONS, entryFromOptions } from '../../src/cli/entry-options.ts';
import { documentEntries, parseEchoDocument, renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { ENTRY_FIELDS, entryFieldValues, fieldKey, searchableText } from '../../src/core/entry/entry-fields.ts';
import { sanitizeEntry } from '../../src/core/security/entry-sanitize.ts';
import { makeEntry } from './entry-arbitrary.ts';

// Every property of EchoEntry, optional ones included: adding one to the type
// without listing it here fails to compile, and the test below then demands a
// table row (or a reason it is bookkeeping).
const EVERY_PROPERTY: Record<keyof Required<EchoEntry>, 'field' | 'bookkeeping'> = {
  id: 'field',
  idExplicit: 'bookkeeping',
  date: 'field',
  kind: 'field',
  title: 'field',
  layer: 'field',
  source: 'field',
  confidence: 'field',
  confidenceWord: 'field',
  evidence: 'field',
  verified: 'field',
  supersedes: 'field',
  tags: 'field',
  symptom: 'field',
  rootCause: 'field',
  solution: 'field',
  status: 'field',
  captured: 'field',
  signature: 'field',
  sessions: 'field',
  origin: 'field',
  learning: 'field',
  extra: 'bookkeeping',
};

test('every entry property is a row of the field table, except the bookkeeping ones', () => {
  const props = new Set(ENTRY_FIELDS.map((f) => f.prop));
  for (const [prop, kind] of Object.entries(EVERY_PROPERTY)) {
    assert.equal(props.has(prop as never), kind === 'field', `${prop} is ${kind}`);
  }
  assert.equal(props.size, ENTRY_FIELDS.length, 'one row per property');
});

test('the markdown keys and aliases of bullets read back as their field', () => {
  for (const f of ENTRY_FIELDS.filter((x) => x.place === 'bullet')) {
    for (const name of [f.key, ...f.aliases, f.key.toUpperCase(), f.key.replace(/_/g, ' ')]) assert.equal(fieldKey(name), f.prop, name);
  }
});

const SECRET = 'ghp_Zq8WmT4vKx2NpL7rYb3HcF9dJs6GaE1uQo5V';
const FRAGMENT = SECRET.slice(4, 16);

/** An entry with the secret planted in every text of the given field. */
function planted(prop: keyof EchoEntry): EchoEntry {
  const e = makeEntry({ symptom: 's', rootCause: 'r', solution: 'x', status: 'superseded' });
  const value = (e as unknown as Record<string, unknown>)[prop];
  const withSecret = Array.isArray(value)
    ? [`tag ${SECRET}`]
    : typeof value === 'number'
      ? (SECRET as unknown as number)
      : `before ${SECRET} after`;
  return { ...e, [prop]: withSecret };
}

test('no field declared in the table lets a secret through the filter, whatever its filter mode', () => {
  for (const f of ENTRY_FIELDS) {
    const { entry } = sanitizeEntry(planted(f.prop), []);
    const stored = renderEntry(entry);
    assert.ok(!JSON.stringify(entry).includes(FRAGMENT), `${f.prop} (${f.filter}) kept the secret in the value`);
    assert.ok(!stored.includes(FRAGMENT), `${f.prop} (${f.filter}) kept the secret in the rendered entry`);
  }
});

test('unknown fields (extra) are filtered too, names and values', () => {
  const { entry } = sanitizeEntry(
    makeEntry({
      extra: [
        ['note', `token ${SECRET}`],
        [`${SECRET}`, 'v'],
      ],
    }),
    [],
  );
  assert.ok(!JSON.stringify(entry).includes(FRAGMENT));
});

test('properties outside the table never survive sanitising', () => {
  const smuggled = { ...makeEntry(), leak: SECRET } as unknown as EchoEntry;
  const { entry } = sanitizeEntry(smuggled, []);
  assert.ok(!('leak' in entry));
});

test('every field with a CLI flag is an option of record and remember, and sets its property', () => {
  for (const f of ENTRY_FIELDS.filter((x) => x.cli)) {
    for (const flag of [f.cli!.flag, ...f.cli!.aliases]) assert.ok(flag in ENTRY_OPTIONS, flag);
    const value = f.type === 'layer' ? 'traced' : f.type === 'confidence' ? '0.42' : 'given-value';
    const entry = entryFromOptions({ [f.cli!.flag]: value }, 'The learning.', {
      today: '2026-11-23',
      defaultLayer: 'inscribed',
      defaultSource: 'user',
    });
    const got = entry[f.prop];
    const expected = f.type === 'confidence' ? 0.42 : f.type === 'tags' ? ['given-value'] : value;
    assert.deepEqual(got, expected, f.prop);
  }
});

test('every field round-trips through the markdown the table renders', () => {
  const e = makeEntry({
    tags: ['a', 'b'],
    symptom: 'sym',
    rootCause: 'cause',
    solution: 'fix',
    status: 'retracted',
    supersedes: 'old-id',
    confidence: 0.3,
    confidenceWord: 'LOW',
  });
  const back = documentEntries(parseEchoDocument(renderEntry(e)))[0]!;
  for (const f of ENTRY_FIELDS) assert.deepEqual(back[f.prop], e[f.prop], f.prop);
});

test('show --json and search read the table: every field appears, every searchable one is searched', () => {
  const e = makeEntry({ tags: ['tagword'], symptom: 'symword', rootCause: 'causeword', solution: 'fixword' });
  const values = entryFieldValues(e);
  for (const f of ENTRY_FIELDS) if (e[f.prop] !== undefined) assert.ok(f.prop in values, f.prop);
  const text = searchableText(e);
  for (const f of ENTRY_FIELDS.filter((x) => x.searchable)) {
    const v = e[f.prop];
    for (const word of Array.isArray(v) ? v : [String(v)]) assert.ok(text.includes(word), `${f.prop} is searched`);
  }
});

test("a legacy confidence word keeps its word beside the number, and only while the number is the word's", () => {
  const legacy = documentEntries(parseEchoDocument('## Observations — Task: scan (2026-03-11)\n- **Confidence**: LOW\n- Seen once.\n'))[0]!;
  assert.equal(legacy.confidence, 0.3);
  assert.equal(legacy.confidenceWord, 'LOW');
  assert.match(renderEntry(legacy), /^- \*\*confidence\*\*: 0\.3 \(LOW\)$/m);
  const back = documentEntries(parseEchoDocument(renderEntry(legacy)))[0]!;
  assert.equal(back.confidenceWord, 'LOW');
  assert.equal(back.confidence, 0.3);
  // A merge that raises the confidence drops the word: 0.85 is not LOW any more.
  assert.match(renderEntry({ ...legacy, confidence: 0.85 }), /^- \*\*confidence\*\*: 0\.85$/m);
  const high = documentEntries(
    parseEchoDocument('## Inscribed — Big review (2026-03-01)\n**Confidence**: HIGH (4 research agents)\n\n1. Lesson.\n'),
  )[0]!;
  assert.equal(high.confidenceWord, 'HIGH');
  assert.equal(documentEntries(parseEchoDocument(renderEntry(makeEntry({ confidence: 0.9 }))))[0]!.confidenceWord, undefined);
});

test('the filter lets only LOW, MEDIUM or HIGH through as a confidence word', () => {
  const bad = sanitizeEntry({ ...makeEntry(), confidenceWord: 'LOWER' as never }, []).entry;
  assert.equal(bad.confidenceWord, undefined);
  assert.equal(sanitizeEntry({ ...makeEntry(), confidenceWord: 'MEDIUM' }, []).entry.confidenceWord, 'MEDIUM');
});
