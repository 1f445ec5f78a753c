// Checks every corpus of memory files gets (the messy hand-written ones and
// the real ones from other projects): byte-for-byte round trips, and appends
// that keep every existing line.
import assert from 'node:assert/strict';
import { appendEntries } from '../../src/core/entry/document-edits.ts';
import { documentEntries, parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';

/** Lines as any editor shows them, whatever the line endings. */
export function editorLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (/[\r\n]$/.test(text)) lines.pop();
  return lines;
}

export function assertRoundTrip(bytes: Buffer): void {
  const text = bytes.toString('utf8');
  assert.ok(Buffer.from(serializeEchoDocument(parseEchoDocument(text)), 'utf8').equals(bytes));
}

/** Appends `entry`; every original line stays in place and exactly one entry is added. Returns it as read back. */
export function assertAppendKeepsLines(text: string, entry: EchoEntry): EchoEntry {
  const doc = parseEchoDocument(text);
  const out = serializeEchoDocument(appendEntries(doc, [entry]));
  const before = editorLines(text);
  assert.deepEqual(editorLines(out).slice(0, before.length), before);
  const reread = documentEntries(parseEchoDocument(out));
  assert.equal(reread.length, documentEntries(doc).length + 1);
  return reread.at(-1)!;
}
