import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { clip, estimateTokens, isSafeName, oneLine, plural, withoutLineBreaks } from '../../src/core/text.ts';

test('clip ends with one ellipsis and never splits a surrogate pair', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 2, max: 150 }), (text, max) => {
      const out = clip(text, max);
      assert.ok(out.length <= max);
      assert.ok(!out.endsWith('……'));
      assert.ok(!/[\uD800-\uDBFF]$/.test(out.replace(/…$/, '')));
    }),
  );
  assert.equal(clip('short', 10), 'short');
  assert.equal(clip('one two three four five', 15), 'one two three…');
});

test('clip cuts at a word boundary when one is close, so titles are not cut mid-word', () => {
  assert.equal(clip('Retries are capped at three with jittered backoff', 30), 'Retries are capped at three…');
  assert.equal(clip('Supercalifragilisticexpialidocious', 10), 'Supercali…');
});

test('oneLine collapses every kind of whitespace; withoutLineBreaks only replaces line breaks', () => {
  assert.equal(oneLine('  a\n\tb\r\nc  '), 'a b c');
  assert.equal(withoutLineBreaks('a  b\r\nc\rd\ne'), 'a  b c d e');
});

test('estimateTokens is characters ÷ 4, rounded up', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcde'), 2);
});

test('safe names are lower-case kebab words of at most 64 characters', () => {
  for (const ok of ['reviewer', 'a', 'ward-sentinel-2', 'x'.repeat(64)]) assert.ok(isSafeName(ok), ok);
  for (const bad of ['', '..', 'a/b', 'Reviewer', '-x', 'a b', 'x'.repeat(65)]) assert.ok(!isSafeName(bad), bad);
});

test('plural says 1 entry and 2 entries', () => {
  assert.equal(plural(1, 'entry', 'entries'), '1 entry');
  assert.equal(plural(0, 'entry', 'entries'), '0 entries');
  assert.equal(plural(2, 'block'), '2 blocks');
});
