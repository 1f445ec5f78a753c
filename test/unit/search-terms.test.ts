// The one tokenizer of the search index and its queries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryWords, SYNONYM_WEIGHT } from '../../src/core/recall/prompt-words.ts';
import { compoundTerms, MAX_QUERY_TERMS, queryTerms, stem, textTerms, wordsOf } from '../../src/core/recall/search-terms.ts';

test('forms of one word meet: plurals, -ing, -ed, -ies', () => {
  const same = [
    ['retry', 'retries', 'retried', 'retrying'],
    ['cache', 'caches', 'caching', 'cached'],
    ['import', 'imports', 'imported', 'importing'],
    ['index', 'indexes'],
    ['stop', 'stopped', 'stopping'],
    ['query', 'queries'],
  ];
  for (const forms of same) assert.equal(new Set(forms.map((f) => textTerms(f)[0])).size, 1, forms.join(', '));
  assert.equal(stem('class'), 'class');
  assert.equal(stem('status'), 'status');
  assert.equal(stem('v2s'), 'v2s', 'words with digits are kept as written');
});

test('stop words and one-letter words go; identifiers also give their camelCase parts', () => {
  assert.deepEqual(textTerms('the retry of a payment'), ['retry', 'payment']);
  assert.deepEqual(textTerms('retryDelayMs'), ['retrydelaym', 'retry', 'delay', 'ms']);
  assert.deepEqual(textTerms('src/payments/retry.ts:40'), ['src', 'payment', 'retry', 'ts', '40']);
});

test('unicode: accented and Hangul words are words, Han and kana give pairs, punctuation and emoji are not words', () => {
  assert.deepEqual(textTerms('José 대시보드 번역'), ['josé', '대시보드', '번역']);
  assert.deepEqual(textTerms('東京タワー'), ['東京', '京タ', 'タワ', 'ワー']);
  assert.deepEqual(textTerms('a — b … 🚨 × c'), []);
  assert.deepEqual(
    wordsOf('fix — the «retry»').map((w) => [w.word, w.index]),
    [
      ['fix', 0],
      ['the', 6],
      ['retry', 11],
    ],
  );
});

test('a query keeps its distinct terms in order, at most a fixed number, however long it is', () => {
  assert.deepEqual(queryTerms('retry backoff retry'), ['retry', 'backoff']);
  const long = Array.from({ length: 2000 }, (_, i) => `word${i}`).join(' ');
  assert.equal(queryTerms(long).length, MAX_QUERY_TERMS);
  assert.deepEqual(queryTerms('.*+?^${}()|[]\\'), []);
});

test('a word that runs from latin into an unspaced script is read by each script’s rule', () => {
  assert.deepEqual(queryTerms('Redis缓存失效'), ['redis', '缓存', '存失', '失效']);
  assert.deepEqual(queryTerms('支付重试用jitter退避'), ['支付', '付重', '重试', '试用', 'jitter', '退避']);
  // The same words spaced give the same terms: a prompt written either way meets the entry.
  assert.deepEqual(queryTerms('Redis 缓存失效'), queryTerms('Redis缓存失效'));
});

test('whole names are terms of their own: a file name from its path, dotted and snake_case names; prose and numbers are not', () => {
  assert.deepEqual(compoundTerms('see tests/unit/storage/browser.test.ts and src/jobs/payout-report.ts'), [
    'browser.test.ts',
    'payout-report.ts',
  ]);
  assert.deepEqual(compoundTerms('tmux.conf:63: unknown command, express.json() parsed it'), ['tmux.conf', 'express.json']);
  assert.deepEqual(compoundTerms('rename merchants.legal_name; notify_on_cmd_finish'), [
    'merchants.legal_name',
    'legal_name',
    'notify_on_cmd_finish',
  ]);
  assert.deepEqual(compoundTerms('It ended. Then e.g. version 2.3.0 on 127.0.0.1, a back-office re-attempt'), []);
  assert.deepEqual(queryTerms('Fix browser.test.ts').slice(0, 1), ['browser.test.ts'], 'a query puts names first');
});

test('a prompt in groups: a word with its parts and synonyms, a name with the words inside it; exact names are marked', () => {
  const w = queryWords('PaymentNotFoundError in src/webhooks/disputes.ts, DB down');
  const groupOf = (t: string) => w.of[w.terms.indexOf(t)];
  assert.equal(groupOf('paymentnotfounderror'), groupOf('payment'), 'camelCase parts go with their word');
  assert.equal(groupOf('disputes.ts'), groupOf('webhook'), 'a path is one group');
  assert.notEqual(groupOf('disputes.ts'), groupOf('paymentnotfounderror'));
  assert.equal(groupOf('databas'), groupOf('db'), 'a synonym joins the word it stands for');
  assert.equal(w.weight[w.terms.indexOf('databas')], SYNONYM_WEIGHT);
  assert.equal(w.weight[w.terms.indexOf('db')], 1);
  const exact = w.terms.filter((_, i) => w.exact[i]);
  assert.deepEqual(exact.sort(), ['disputes.ts', 'paymentnotfounderror']);
  assert.deepEqual(
    queryWords('JavaScript and TypeScript on GitHub').terms.filter((_, i) => queryWords('JavaScript and TypeScript on GitHub').exact[i]),
    [],
    'a product name in camelCase is a word, not a name',
  );
  assert.ok(queryWords('connect ECONNREFUSED').exact.includes(true), 'an error code is a name');
  const long = queryWords(Array.from({ length: 100 }, (_, i) => `word${i}`).join(' '));
  assert.equal(long.terms.length, MAX_QUERY_TERMS);
});
