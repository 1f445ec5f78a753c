// The SessionStart digest is kept per state of the store (issue 14): the same
// state gives the cached digest, and any change the digest would show misses.
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { digestKey, prepareDigest } from '../../src/store/recall/digest-cache.ts';
import { cliOk } from '../helpers/cli-run.ts';
import { gitIn } from '../helpers/git-clones.ts';
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

test('a solution added two folders down is a new state of the store', async (t) => {
  const tp = makeTempProject(t);
  await cliOk(tp, ['remember', 'Pin the Node version in CI.']);
  tp.write('docs/solutions/performance/a.md', '---\ntitle: A\n---\n');
  const first = await prepareDigest(tp.paths, tp.config, '', NOW);
  tp.write('docs/solutions/performance/pdf/b.md', '---\ntitle: B\n---\n');
  const second = await prepareDigest(tp.paths, tp.config, '', NOW);
  assert.equal(second.cached, false);
  assert.match(second.digest.text, /2 solutions/);
  assert.match(first.digest.text, /1 solution\b/);
});

const LESSON = (id: string, file: string) =>
  `### [2026-03-01] Pattern: Lesson about ${file}\n- **id**: ${id}\n- **layer**: inscribed\n- **source**: user\n- **confidence**: 0.9\n- **evidence**: \`${file}:1\` — seen\n- **verified**: 2026-03-01\n- **supersedes**: none\n- What we learned about ${file}.\n`;

test('stale marks: an answer git cut short is never kept, and a commit since the digest was kept is a new state', async (t) => {
  const tp = makeTempProject(t);
  gitIn(tp.dir, ['init', '--quiet', '-b', 'main']);
  // No reflog: a commit then moves only the branch's loose ref.
  gitIn(tp.dir, ['config', 'core.logAllRefUpdates', 'false']);
  tp.write('src/a.ts', 'one\n');
  tp.write('src/b.ts', 'one\n');
  gitIn(tp.dir, ['add', 'src']);
  gitIn(tp.dir, ['commit', '--quiet', '-m', 'first'], '2026-02-20T10:00:00Z');
  tp.write(
    '.claude/echoes/reviewer/MEMORY.md',
    `<!-- echo-schema: v2 -->\n# Reviewer Memory\n\n${LESSON('lesson-a', 'src/a.ts')}\n${LESSON('lesson-b', 'src/b.ts')}`,
  );
  tp.write('src/a.ts', 'two\n');
  gitIn(tp.dir, ['commit', '--quiet', '-am', 'second'], '2026-03-10T10:00:00Z');

  // Git stopped for time (a git that takes 5 s, given 300 ms): nothing can be judged, and the digest without marks is not kept.
  const bin = join(tp.dir, '.slow-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'git'), '#!/bin/sh\nsleep 5\n', { mode: 0o755 });
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path}`;
  let cut: Awaited<ReturnType<typeof prepareDigest>>;
  try {
    cut = await prepareDigest(tp.paths, tp.config, '', NOW, { deadline: Date.now() + 300 });
  } finally {
    process.env.PATH = path;
  }
  assert.doesNotMatch(cut.digest.text, /evidence changed/);
  const whole = await prepareDigest(tp.paths, tp.config, '', NOW);
  assert.equal(whole.cached, false, 'the cut-short answer was not kept');
  assert.match(whole.digest.text, /Lesson about src\/a\.ts \(reviewer, [\d.]+\) \(evidence changed since 2026-03-01\)/);
  assert.equal((await prepareDigest(tp.paths, tp.config, '', NOW)).cached, true);

  // A commit to the other cited file: the kept digest no longer holds.
  tp.write('src/b.ts', 'two\n');
  gitIn(tp.dir, ['commit', '--quiet', '-am', 'third'], '2026-03-12T10:00:00Z');
  const after = await prepareDigest(tp.paths, tp.config, '', NOW);
  assert.equal(after.cached, false);
  assert.match(after.digest.text, /Lesson about src\/b\.ts \(reviewer, [\d.]+\) \(evidence changed since 2026-03-01\)/);
});

test('where git cannot answer at all (an empty .git folder), files are dated by mtime and the digest is still kept', async (t) => {
  const tp = makeTempProject(t);
  mkdirSync(join(tp.dir, '.git'), { recursive: true });
  tp.write('.claude/echoes/reviewer/MEMORY.md', `<!-- echo-schema: v2 -->\n# Reviewer Memory\n\n${LESSON('lesson-a', 'src/a.ts')}`);
  tp.write('src/a.ts', 'changed\n');
  utimesSync(join(tp.dir, 'src/a.ts'), new Date('2026-03-10T10:00:00Z'), new Date('2026-03-10T10:00:00Z'));
  const first = await prepareDigest(tp.paths, tp.config, '', NOW);
  assert.match(first.digest.text, /\(evidence changed since 2026-03-01\)/);
  assert.equal((await prepareDigest(tp.paths, tp.config, '', NOW)).cached, true);
});
