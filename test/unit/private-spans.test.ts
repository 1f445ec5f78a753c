import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { PrivateStripper, removePrivate, stripPrivate } from '../../src/core/security/private-spans.ts';
import { filterSecrets } from '../../src/core/security/secret-filter.ts';
import { parseTranscriptLine } from '../../src/core/transcript/transcript-events.ts';

test('closed spans go, tags in any case; an unclosed tag hides the rest', () => {
  assert.equal(stripPrivate('a <private>x</private> b <Private>y</PRIVATE> c'), 'a  b  c');
  assert.equal(stripPrivate('keep <private>drop all of this'), 'keep ');
});

test('nested spans close at the outer tag; a stray closing tag is text', () => {
  assert.deepEqual(removePrivate('a <private>b <private>c</private> d</private> e </private> f'), {
    text: 'a  e </private> f',
    removed: 1,
  });
});

test('tags with attributes and spaces are tags', () => {
  assert.equal(stripPrivate('a <private reason="pii">x</private > b'), 'a  b');
  assert.equal(stripPrivate('a <privateer>x</privateer> b'), 'a <privateer>x</privateer> b');
});

test('one stripper for the filter and the transcript: nested spans leave no secret on either path', () => {
  const text = 'a <private>x <private>y</private> SECRET</private> b';
  assert.equal(filterSecrets(text).text, 'a  b');
  const events = parseTranscriptLine(JSON.stringify({ type: 'user', uuid: 'u', message: { role: 'user', content: text } }));
  assert.ok(!JSON.stringify(events).includes('SECRET'));
});

test('a span left open continues into the next text fed to the same stripper', () => {
  const s = new PrivateStripper();
  assert.equal(s.strip('visible <private>start').text, 'visible ');
  assert.ok(s.open);
  assert.equal(s.strip('still hidden').text, '');
  assert.equal(s.strip('hidden</private> shown').text, ' shown');
  assert.equal(s.open, false);
  // The depth can be saved and a new stripper resumes from it.
  const saved = new PrivateStripper();
  saved.strip('<private><private>x</private>');
  assert.equal(new PrivateStripper(saved.openDepth).strip('y</private>z').text, 'z');
});

test('whatever the nesting, text inside a span never comes out', () => {
  const piece = fc.constantFrom('<private>', '</private>', '<PRIVATE x=1>', 'SECRET', 'ok ', ' ');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      let depth = 0;
      let expected = '';
      for (const p of pieces) {
        if (/^<private/i.test(p)) depth++;
        else if (p === '</private>') {
          if (depth > 0) depth--;
          else expected += p;
        } else if (depth === 0) expected += p;
      }
      assert.equal(stripPrivate(pieces.join('')), expected);
    }),
  );
});
