// Issue 18, item 12, as properties over any text: export writes, replaces and
// removes only the block it wrote. Whatever the user's text around it holds
// (markers of its own, CRLF, no final newline) and whatever the entries say,
// every byte outside the block stays; a re-run is idempotent; removal gives
// the file back byte for byte; any edit of the block or its markers makes
// export refuse rather than replace.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  claudeMdSection,
  EXPORT_BEGIN,
  EXPORT_END,
  type ExportedEntry,
  findMarkedBlock,
  withMarkedBlock,
  withoutMarkedBlock,
} from '../../src/core/adopt/export-section.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';

const pieces = fc.constantFrom(
  '# Project\n',
  'Use pnpm.\n',
  '\n',
  '\r\n',
  'text without newline',
  '<!-- a comment -->\n',
  `${EXPORT_END}\n`,
  `${EXPORT_BEGIN}\n`,
  '<!-- rune-echoes:export end 0123456789abcdef -->\n',
  '## Notes\n- keep\n',
  'café ✓\n',
);
const userText = fc.array(fc.oneof(pieces, fc.string({ maxLength: 30 })), { maxLength: 8 }).map((a) => a.join(''));

const entryText = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(EXPORT_END, EXPORT_BEGIN, '<!-- rune-echoes:export end 0123456789abcdef -->', '-->', '<!--', 'a\nb'),
);
const entries = fc.array(fc.record({ title: entryText, learning: entryText, id: fc.constantFrom('a', 'b-c', 'd1') }), {
  minLength: 1,
  maxLength: 4,
});

function items(list: Array<{ title: string; learning: string; id: string }>): ExportedEntry[] {
  return list.map((e, i) => ({
    role: i % 2 ? 'team' : 'workers',
    entry: { id: `${e.id}-${i}`, title: e.title || 'x', learning: e.learning || 'y', layer: 'etched' } as unknown as EchoEntry,
  }));
}

test('export touches only its own block: every other byte stays, a re-run is idempotent, removal gives the text back', () => {
  fc.assert(
    fc.property(userText, entries, entries, (text, first, second) => {
      const hadMarkers = findMarkedBlock(text).state !== 'none';
      const once = withMarkedBlock(text, claudeMdSection(items(first), '2026-11-27'));
      if (hadMarkers) {
        // Markers the user wrote (or pasted) are theirs: export never writes over them; at most it refuses.
        if ('edited' in once) return;
      }
      assert.ok('text' in once);
      const written = once.text;
      // Exactly one block, and entry text spells no marker.
      const found = findMarkedBlock(written);
      assert.equal(found.state, 'found');
      if (found.state !== 'found') return;
      assert.ok(!found.block.body.includes('<!--'), found.block.body);
      // The user's text is all there, unchanged, outside the block.
      const outside = written.slice(0, found.block.start) + written.slice(found.block.end);
      if (!hadMarkers) assert.ok(outside.replace(/\r?\n/g, '').includes(text.replace(/\r?\n/g, '')));
      // Idempotent; a second choice of entries replaces the block in place.
      const again = withMarkedBlock(written, claudeMdSection(items(first), '2026-11-27'));
      assert.ok('text' in again && again.text === written);
      const next = withMarkedBlock(written, claudeMdSection(items(second), '2026-11-27'));
      assert.ok('text' in next);
      const f2 = findMarkedBlock(next.text);
      assert.equal(f2.state, 'found');
      if (f2.state !== 'found') return;
      assert.equal(next.text.slice(0, f2.block.start), written.slice(0, found.block.start));
      assert.equal(next.text.slice(f2.block.end), written.slice(found.block.end));
      // Removal gives back the user's text byte for byte (when export appended the block).
      const removed = withoutMarkedBlock(next.text);
      assert.ok('text' in removed);
      if (!hadMarkers) assert.equal(removed.text, text);
    }),
    { numRuns: 400 },
  );
});

test('any edit inside the block or of its markers makes export refuse, never replace', () => {
  fc.assert(
    fc.property(userText, entries, fc.nat(), fc.constantFrom('insert', 'delete'), (text, list, at, how) => {
      if (findMarkedBlock(text).state !== 'none') return;
      const once = withMarkedBlock(text, claudeMdSection(items(list), '2026-11-27'));
      assert.ok('text' in once);
      const found = findMarkedBlock(once.text);
      if (found.state !== 'found') return assert.fail('no block');
      const { start, end } = found.block;
      // Strictly inside: a character put right before the begin marker is the user's, outside the block.
      const i = how === 'insert' ? start + 1 + (at % (end - start - 1)) : start + (at % (end - start));
      const edited = how === 'insert' ? `${once.text.slice(0, i)}X${once.text.slice(i)}` : once.text.slice(0, i) + once.text.slice(i + 1);
      const r = withMarkedBlock(edited, claudeMdSection(items(list), '2026-11-27'));
      const rm = withoutMarkedBlock(edited);
      // Either refused, or (an edit that left an identical block, impossible here) the same text.
      assert.ok('edited' in r || r.text === edited, 'an edited block is never replaced');
      assert.ok('edited' in rm || rm.text === edited, 'nor removed');
    }),
    { numRuns: 400 },
  );
});
