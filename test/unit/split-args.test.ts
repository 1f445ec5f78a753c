import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitArgs } from '../../src/cli/split-args.ts';

const cases: Array<[string, string[]]> = [
  ['', []],
  ['status', ['status']],
  ['  show   reviewer  --json ', ['show', 'reviewer', '--json']],
  ["remember Don't mock the DB", ['remember', "Don't", 'mock', 'the', 'DB']],
  ['remember "Don\'t mock the DB" --role workers', ['remember', "Don't mock the DB", '--role', 'workers']],
  ["search 'retry backoff' --limit 3", ['search', 'retry backoff', '--limit', '3']],
  ['record --pattern="Two words" x', ['record', '--pattern=Two words', 'x']],
  ['remember it is "unclosed', ['remember', 'it', 'is', '"unclosed']],
  ["remember users' sessions leak", ['remember', "users'", 'sessions', 'leak']],
  ['search $(rm -rf /) `id`', ['search', '$(rm', '-rf', '/)', '`id`']],
  ['remember a\\ b', ['remember', 'a b']],
  ['search x\n', ['search', 'x']],
];

for (const [input, expected] of cases) {
  test(`splitArgs reads ${JSON.stringify(input)} as typed`, () => {
    assert.deepEqual(splitArgs(input), expected);
  });
}
