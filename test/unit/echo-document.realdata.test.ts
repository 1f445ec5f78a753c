// Real memory files from public repositories (../shared/realdata/memory, see
// SOURCES.md there): read in place, never copied into this repository.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { replaceEntry, upgradeToV2 } from '../../src/core/entry/document-edits.ts';
import { documentEntries, parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { assertAppendKeepsLines, assertRoundTrip } from '../helpers/document-checks.ts';

const REALDATA = join(dirname(fileURLToPath(import.meta.url)), '../../../shared/realdata/memory');

const NEW_ENTRY: EchoEntry = {
  id: 'realdata-append-check',
  idExplicit: true,
  date: '2026-11-22',
  kind: 'Pattern',
  title: 'Appended after real data',
  layer: 'traced',
  source: 'test',
  confidence: 0.4,
  evidence: '`test/unit/echo-document.realdata.test.ts`',
  verified: '2026-11-22',
  supersedes: 'none',
  tags: ['realdata'],
  learning: 'Parses back equal.',
  extra: [],
};

if (!existsSync(REALDATA)) {
  test('real memory files', (t) => t.skip('realdata not present'));
} else {
  for (const name of readdirSync(REALDATA)
    .filter((f) => f.endsWith('.md'))
    .sort()) {
    const bytes = readFileSync(join(REALDATA, name));
    const text = bytes.toString('utf8');

    test(`realdata ${name} round-trips byte for byte`, () => assertRoundTrip(bytes));

    test(`realdata ${name} keeps every line after appendEntries and the new entry parses back`, () => {
      assert.deepEqual(assertAppendKeepsLines(text, NEW_ENTRY), NEW_ENTRY);
    });

    if (name.startsWith('vinhnxv__rune__')) {
      test(`realdata ${name}: legacy Rune entries are recognised`, (t) => {
        const doc = parseEchoDocument(text);
        const entries = documentEntries(doc);
        const verbatim = doc.blocks.filter((b) => b.type === 'verbatim').length;
        const byLayer = { etched: 0, inscribed: 0, traced: 0 };
        for (const e of entries) byLayer[e.layer]++;
        t.diagnostic(`${entries.length} entries (${JSON.stringify(byLayer)}), ${verbatim} verbatim blocks, ${doc.issues.length} issues`);
        assert.ok(entries.length > 0);
        // Consolidated entries carry a range like `(2026-02 to 2026-03)` instead of a date.
        assert.ok(entries.every((e) => e.title !== '' && (e.date !== '' || / to /.test(e.title))));
        assert.equal(new Set(entries.map((e) => e.id)).size, entries.length);
      });

      test(`realdata ${name}: upgrade and replace keep every other block`, () => {
        const doc = parseEchoDocument(text);
        const { doc: up } = upgradeToV2(doc);
        assert.deepEqual(
          documentEntries(up),
          documentEntries(doc).map((e) => ({ ...e, idExplicit: true })),
        );
        const first = documentEntries(up)[0];
        assert.ok(first);
        const k = up.blocks.findIndex((b) => b.type === 'entry');
        const next = replaceEntry(up, first.id, { ...first, confidence: 1 });
        const others = (d: typeof up) => d.blocks.map((b, i) => (i === k ? null : b.text));
        assert.deepEqual(others(next), others(up));
        assert.deepEqual(parseEchoDocument(serializeEchoDocument(next)), next);
      });
    }
  }
}
