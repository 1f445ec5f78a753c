// The one tokenizer of the search index and its queries.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_QUERY_TERMS, queryTerms, stem, textTerms, wordsOf } from '../../src/core/recall/search-terms.ts';

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
