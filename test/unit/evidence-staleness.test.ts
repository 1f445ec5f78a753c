import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { citedFiles, lastCommitDays, staleEntries, staleNote, staleSince } from '../../src/core/lifecycle/evidence-staleness.ts';
import { digestCandidates } from '../../src/core/recall/digest.ts';
import { changeDays, staleFromStore } from '../../src/store/memory/evidence-changes.ts';
import { gitIn } from '../helpers/git-clones.ts';
import { makeTempProject } from '../helpers/temp-project.ts';
import { makeEntry } from './entry-arbitrary.ts';

test('the files an entry cites are its evidence paths that can be dated: relative, no globs, inside the project', () => {
  const e = makeEntry({ evidence: '`src/a.ts:1-5`, `test/**/*.spec.ts`, `/etc/hosts`, `../up.ts` and `app.yml:3` — seen' });
  assert.deepEqual(citedFiles(e), ['src/a.ts', 'app.yml']);
});

test('an entry is stale when a cited file changed on a day after it was verified (the day itself does not count)', () => {
  const e = makeEntry({ evidence: '`src/a.ts:1` — x', verified: '2026-03-01' });
  assert.equal(staleSince(e, new Map([['src/a.ts', '2026-03-02']])), '2026-03-01');
  assert.equal(staleSince(e, new Map([['src/a.ts', '2026-03-01']])), null);
  assert.equal(staleSince(e, new Map([['src/b.ts', '2026-05-01']])), null);
  assert.equal(staleSince({ ...e, verified: '', date: '2026-02-01' }, new Map([['src/a.ts', '2026-03-01']])), '2026-02-01');
  assert.equal(staleSince({ ...e, verified: '', date: '' }, new Map([['src/a.ts', '2026-03-01']])), null, 'no date, no judgement');
  assert.equal(staleNote('2026-03-01'), '(evidence changed since 2026-03-01)');
});

test('git log day lists give each file the day of its newest commit', () => {
  const log = '\u00002026-03-05\n\nsrc/a.ts\nsrc/b.ts\n\u00002026-03-01\n\nsrc/a.ts\nsrc/c.ts\n';
  assert.deepEqual(
    [...lastCommitDays(log)],
    [
      ['src/a.ts', '2026-03-05'],
      ['src/b.ts', '2026-03-05'],
      ['src/c.ts', '2026-03-01'],
    ],
  );
});

test('a stale entry is marked in the digest candidates and has no recency; superseded ones are not judged', () => {
  const items = [
    { role: 'reviewer', entry: makeEntry({ id: 'moved-on', evidence: '`src/a.ts:1`', verified: '2026-03-01' }) },
    { role: 'reviewer', entry: makeEntry({ id: 'fresh', evidence: '`src/b.ts:1`', verified: '2026-03-01' }) },
  ];
  const stale = staleEntries(items, new Map([['src/a.ts', '2026-03-10']]));
  assert.deepEqual([...stale], [['reviewer#moved-on', '2026-03-01']]);
  const c = digestCandidates(items, [], new Date('2026-03-15T00:00:00Z'), 20, stale);
  const [fresh, movedOn] = [c.lessons.find((d) => d.entry.id === 'fresh')!, c.lessons.find((d) => d.entry.id === 'moved-on')!];
  assert.equal(movedOn.staleSince, '2026-03-01');
  assert.equal(fresh.staleSince, undefined);
  assert.ok(movedOn.score < fresh.score, `${movedOn.score} < ${fresh.score}`);
});

test('in a repository a file is dated by its last commit, not by its mtime (a fresh checkout is not a change)', async (t) => {
  const tp = makeTempProject(t);
  gitIn(tp.dir, ['init', '--quiet', '-b', 'main']);
  tp.write('src/a.ts', 'one\n');
  tp.write('src/b.ts', 'one\n');
  gitIn(tp.dir, ['add', '.']);
  gitIn(tp.dir, ['commit', '--quiet', '-m', 'first'], '2026-03-01T10:00:00Z');
  tp.write('src/a.ts', 'two\n');
  gitIn(tp.dir, ['commit', '--quiet', '-am', 'second'], '2026-03-10T10:00:00Z');
  // Both files look brand new on disk, as after a clone.
  tp.write('untracked.md', 'notes\n');
  const days = await changeDays(tp.paths, ['src/a.ts', 'src/b.ts', 'untracked.md', 'missing.ts'], '2026-02-01');
  assert.equal(days.get('src/a.ts'), '2026-03-10');
  assert.equal(days.get('src/b.ts'), '2026-03-01');
  assert.equal(days.get('untracked.md'), new Date().toISOString().slice(0, 10), 'untracked files go by mtime');
  assert.equal(days.has('missing.ts'), false);

  const items = [
    { role: 'reviewer', entry: makeEntry({ id: 'a', evidence: '`src/a.ts:1`', verified: '2026-03-05' }) },
    { role: 'reviewer', entry: makeEntry({ id: 'b', evidence: '`src/b.ts:1`', verified: '2026-03-05' }) },
  ];
  assert.deepEqual([...(await staleFromStore(tp.paths, items))], [['reviewer#a', '2026-03-05']]);
  // Cached: the same answer without git, until the repository or a file moves.
  assert.ok(tp.read('.claude/echoes/.state/evidence-changes.json'));
  assert.deepEqual([...(await staleFromStore(tp.paths, items))], [['reviewer#a', '2026-03-05']]);
});

test('outside a repository files are dated by mtime', async (t) => {
  const tp = makeTempProject(t);
  const file = tp.write('lib/x.py', 'x\n');
  const at = new Date('2026-03-20T12:00:00Z');
  utimesSync(file, at, at);
  assert.equal((await changeDays(tp.paths, ['lib/x.py'], '2026-01-01')).get('lib/x.py'), '2026-03-20');
  assert.equal(
    (await changeDays(tp.paths, ['lib/x.py'], '2026-04-01')).has('lib/x.py'),
    false,
    'changes before the oldest check do not matter',
  );
  assert.ok(join(tp.dir, 'lib/x.py'));
});

test('a file git lists but cannot date (no commit yet) goes by mtime; a non-ASCII name is dated by its commit', async (t) => {
  const tp = makeTempProject(t);
  gitIn(tp.dir, ['init', '--quiet', '-b', 'main']);
  const staged = tp.write('src/staged.ts', 'x\n');
  gitIn(tp.dir, ['add', '.']);
  const at = new Date('2026-03-20T12:00:00Z');
  utimesSync(staged, at, at);
  assert.equal((await changeDays(tp.paths, ['src/staged.ts'], '2026-01-01')).get('src/staged.ts'), '2026-03-20');

  const other = makeTempProject(t);
  gitIn(other.dir, ['init', '--quiet', '-b', 'main']);
  other.write('docs/café.md', 'x\n');
  other.write('src/a.ts', 'x\n');
  gitIn(other.dir, ['add', '.']);
  gitIn(other.dir, ['commit', '--quiet', '-m', 'first'], '2026-03-01T10:00:00Z');
  const days = await changeDays(other.paths, ['docs/café.md', 'src/a.ts'], '2026-02-01');
  assert.equal(days.get('docs/café.md'), '2026-03-01');
  assert.equal(days.get('src/a.ts'), '2026-03-01');
});
