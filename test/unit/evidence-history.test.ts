import assert from 'node:assert/strict';
import { test } from 'node:test';
import { briefSummary, renderEvidenceBrief } from '../../src/cli/render/render-evidence.ts';
import { commitsAfter, type FileHistory, parseFileLog, renameTarget } from '../../src/core/lifecycle/evidence-history.ts';
import { makeEntry } from './entry-arbitrary.ts';

const LOG = [
  '\u0000c3c3c3c\t2026-04-02\tMove auth\tinto src/auth',
  '',
  'D\tsrc/auth.ts',
  '\u0000b2b2b2b\t2026-03-05\tTidy',
  '',
  'M\tsrc/auth.ts',
  '\u0000a1a1a1a\t2026-01-10\tAdd auth',
  '',
  'A\tsrc/auth.ts',
  '',
].join('\n');

test('a file log reads as commits, newest first, with the one that deleted the file', () => {
  const commits = parseFileLog(LOG, 'src/auth.ts');
  assert.deepEqual(
    commits.map((c) => [c.hash, c.day, c.subject, c.change]),
    [
      ['c3c3c3c', '2026-04-02', 'Move auth\tinto src/auth', 'deleted'],
      ['b2b2b2b', '2026-03-05', 'Tidy', undefined],
      ['a1a1a1a', '2026-01-10', 'Add auth', undefined],
    ],
  );
  assert.deepEqual(parseFileLog('', 'x'), []);
  assert.deepEqual(parseFileLog('\u0000not-a-hash\t2026-01-01\tx\n', 'x'), [], 'a line that is not a commit is no commit');
  const renamed = parseFileLog('\u0000d4d4d4d\t2026-04-02\tMove\n\nR100\tsrc/auth.ts\tsrc/auth/index.ts\n', 'src/auth.ts');
  assert.equal(renamed[0]?.change, 'renamed');
  assert.equal(renamed[0]?.to, 'src/auth/index.ts');
});

test('the commit that removed a file names where a rename took it', () => {
  assert.equal(renameTarget('M\tsrc/a.ts\nR097\tsrc/auth.ts\tsrc/auth/session.ts\n', 'src/auth.ts'), 'src/auth/session.ts');
  assert.equal(renameTarget('D\tsrc/auth.ts\n', 'src/auth.ts'), null);
});

test('the commits a brief lists are those after the verified day; a missing file keeps the one that removed it', () => {
  const history: FileHistory = {
    file: 'src/auth.ts',
    present: false,
    tracked: true,
    added: '2026-01-10',
    commits: parseFileLog(LOG, 'src/auth.ts'),
  };
  assert.deepEqual(
    commitsAfter(history, '2026-03-01', 5).map((c) => c.hash),
    ['c3c3c3c', 'b2b2b2b'],
  );
  assert.deepEqual(
    commitsAfter(history, '2026-03-01', 1).map((c) => c.hash),
    ['c3c3c3c'],
  );
  assert.deepEqual(
    commitsAfter({ ...history, present: true }, '2026-04-02', 5).map((c) => c.hash),
    [],
    'a change on the verified day itself is not after it',
  );
});

test('the brief gives each entry, its staleness and each cited file with its history', () => {
  const entry = makeEntry({
    id: 'auth-in-one-file',
    title: 'Auth lives in one file',
    evidence: '`src/auth.ts:1-20` — the session code',
    verified: '2026-03-01',
    learning: 'All auth code is in src/auth.ts.',
  });
  const files: FileHistory[] = [
    { file: 'src/auth.ts', present: false, tracked: true, added: '2026-01-10', commits: parseFileLog(LOG, 'src/auth.ts') },
    { file: 'docs/notes.md', present: true, tracked: false, added: null, commits: [] },
  ];
  files[0]!.commits[0]!.change = 'renamed';
  files[0]!.commits[0]!.to = 'src/auth/index.ts';
  const brief = [{ role: 'planner', entry, score: 0.5, staleSince: '2026-03-01', files }];
  const text = renderEvidenceBrief(brief, { day: '2026-05-01', command: 'rune-echoes evidence planner' });
  assert.match(text, /^## planner#auth-in-one-file — Auth lives in one file$/m);
  assert.match(text, /stale since 2026-03-01/);
  assert.match(
    text,
    /^- `src\/auth\.ts`: missing: renamed to `src\/auth\/index\.ts` in c3c3c3c 2026-04-02 Move auth into src\/auth; added 2026-01-10; other commits since 2026-03-01:$/m,
  );
  assert.match(text, /^ {2}- b2b2b2b 2026-03-05 Tidy$/m);
  assert.match(text, /^- `docs\/notes\.md`: present, no git history$/m);
  assert.equal(briefSummary(brief), '1 entry (1 stale, 1 cited file missing) from planner');
});
