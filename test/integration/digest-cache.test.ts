// The SessionStart digest is kept per state of the store (issue 14): the same
// state gives the cached digest, and any change the digest would show misses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { digestKey, prepareDigest } from '../../src/store/recall/digest-cache.ts';
import { cliOk } from '../helpers/cli-run.ts';
import { makeTempProject } from '../helpers/temp-project.ts';

const NOW = new Date('2026-05-01T10:00:00Z');

test('the same state of the store gives the cached digest; each thing the digest shows, changed, gives a fresh one', async (t) => {
  const tp = makeTempProject(t);
  await cliOk(tp, ['remember', 'Pin the Node version in CI.']);
  const first = await prepareDigest(tp.paths, tp.config, 'Last session: fixed the build', NOW);
  assert.equal(first.cached, false);
  const again = await prepareDigest(tp.paths, tp.config, 'Last session: fixed the build', NOW);
  assert.equal(again.cached, true);
  assert.deepEqual(again.digest, first.digest);
  assert.deepEqual(again.lines, [{ role: 'team', lines: first.lines[0]!.lines }]);

  const key = () => digestKey(tp.paths, tp.config, 'Last session: fixed the build', NOW);
  const before = key();
  const changes: Array<[string, () => Promise<unknown> | unknown]> = [
    ['another hand-off', () => assert.notEqual(digestKey(tp.paths, tp.config, 'Last session: other', NOW), before)],
    [
      'another day',
      () => assert.notEqual(digestKey(tp.paths, tp.config, 'Last session: fixed the build', new Date('2026-05-02T10:00:00Z')), before),
    ],
    ['a new lesson', () => cliOk(tp, ['remember', 'Run the linter before pushing.'])],
    [
      'a usage line',
      () => tp.write('.claude/echoes/usage.jsonl', '{"ts":"2026-05-01T00:00:00Z","session":"s","event":"injected","ids":[]}\n'),
    ],
    ['an archive log', () => tp.write('.claude/echoes/memories/archive-log-001.md', '# Archive log 001\n')],
    ['a solution', () => tp.write('docs/solutions/build/pin-node.md', '---\ntitle: Pin node\n---\n')],
  ];
  let last = before;
  for (const [what, change] of changes) {
    await change();
    const now = key();
    if (what === 'another hand-off' || what === 'another day') continue;
    assert.notEqual(now, last, `${what} changes the key`);
    last = now;
    const fresh = await prepareDigest(tp.paths, tp.config, 'Last session: fixed the build', NOW);
    assert.equal(fresh.cached, false, what);
  }
});
