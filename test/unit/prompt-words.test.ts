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

test('an absolute path or a URL is named by its last two parts, not by the folders the project lives in', () => {
  const mention = termsOf('Move it to done in [@backlog.md](file:///Users/alice/Documents/GitHub/acme/docs/backlog.md)');
  assert.ok(mention.includes('backlog.md') && mention.includes('backlog'), 'the file');
  for (const folder of ['user', 'alice', 'document', 'github', 'acme']) assert.ok(!mention.includes(folder), folder);
  assert.ok(termsOf('see https://github.com/acme/widget-kit').includes('widget'), 'a URL keeps its last parts');
  const relative = termsOf('src/webhooks/disputes.ts fails');
  assert.ok(
    relative.includes('webhook') && relative.includes('src'),
    'a path inside the project keeps its folders: they say which part it is',
  );
});
