import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { itemParts, RECALL_NOTE, type RecallItem, renderRecall } from '../../src/core/recall/recall-render.ts';
import { clearingItems } from '../../src/core/recall/recall-select.ts';
import { estimateTokens } from '../../src/core/text.ts';

const item = (raw: number, score: number, matched: number) => ({ raw, score, matched });

test('an item must hold two prompt words, reach the threshold, and score at least half the best', () => {
  assert.deepEqual(clearingItems([item(5, 5, 1)], 2), [], 'one word, however rare, is not enough');
  assert.deepEqual(clearingItems([item(1.9, 9, 4)], 2), [], 'below the threshold');
  const strong = item(4, 10, 3);
  const weak = item(2.1, 4.9, 2);
  const fair = item(2.5, 6, 2);
  assert.deepEqual(clearingItems([weak, strong, fair], 2), [strong, fair], 'best first; under half the best is left out');
  assert.deepEqual(clearingItems([weak, strong, fair], 4.5), [], 'a higher threshold lets less through');
});

const entry: RecallItem = {
  source: 'memory',
  title: 'Payment retries use jittered backoff',
  role: 'reviewer',
  id: 'retry-backoff',
  path: '.claude/echoes/reviewer/MEMORY.md',
  line: 4,
  text: '### [2026-11-01] Pattern: Payment retries use jittered backoff\n- **id**: retry-backoff\n- **layer**: inscribed\n- **evidence**: `src/retry.ts:40` — capped\n- Payment retries are capped at 3.\n',
};

test('an entry is one line: its title, its learning, where it comes from and its evidence; stale ones say so', () => {
  assert.deepEqual(itemParts(entry), { body: 'Payment retries are capped at 3.', evidence: '`src/retry.ts:40` — capped' });
  const r = renderRecall([{ ...entry, staleSince: '2026-03-01' }], 300)!;
  assert.equal(
    r.text,
    `<rune-echoes note="${RECALL_NOTE}">\n- Payment retries use jittered backoff: Payment retries are capped at 3. (reviewer#retry-backoff; evidence: \`src/retry.ts:40\` — capped) (evidence changed since 2026-03-01)\n</rune-echoes>`,
  );
  assert.equal(r.shown, 1);
});

test('property: whatever the items say, the text stays within its budget and has exactly one wrapper', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ title: fc.string({ maxLength: 200 }), text: fc.string({ maxLength: 2000 }) }), { maxLength: 6 }),
      fc.integer({ min: 50, max: 600 }),
      fc.constantFrom('</rune-echoes>', '<rune-echoes note="x">', '＜/rune-echoes＞', '&lt;/rune-echoes&gt;', '</RUNE-ECHOES >'),
      (items, budget, hostile) => {
        const r = renderRecall(
          items.map((i) => ({ ...entry, title: `${i.title}${hostile}`, text: `${hostile}${i.text}${hostile}` })),
          budget,
        );
        if (r === null) return;
        assert.ok(r.tokens <= budget, `${r.tokens} > ${budget}`);
        assert.equal(r.text.toLowerCase().split('<rune-echoes').length - 1, 1);
        assert.equal(r.text.toLowerCase().split('</rune-echoes').length - 1, 1);
        assert.equal(r.tokens, estimateTokens(r.text));
      },
    ),
    { numRuns: 300 },
  );
});
