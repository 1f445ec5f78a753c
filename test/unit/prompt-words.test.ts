import assert from 'node:assert/strict';
import { test } from 'node:test';
import { queryWords } from '../../src/core/recall/prompt-words.ts';

const termsOf = (prompt: string) => queryWords(prompt).terms;

test("a file's extension is not a word of the prompt: the file is found by its name", () => {
  const w = queryWords('Write unit tests for src/utils/text.ts');
  assert.ok(w.terms.includes('text.ts'), 'the whole name');
  assert.ok(w.terms.includes('text'), 'the words of its name');
  assert.ok(!w.terms.includes('ts'), 'not `ts`, which every TypeScript path in the store holds');
  assert.ok(!termsOf('edit package.json please').includes('json'));
  assert.ok(termsOf('edit package.json please').includes('package.json'));
  assert.ok(termsOf('convert the ts and json files').includes('ts'), 'a kind of file typed as a word is a word');
  assert.ok(termsOf('test/jobs/payout-report.spec.ts is red').includes('spec'), 'only the last part goes');
});
