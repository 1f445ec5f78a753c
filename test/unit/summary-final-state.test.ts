// The pieces the hand-off's final state rests on, as tables: path spelling,
// what a shell command's text says, checks and what settles them, writes,
// compaction summaries, and claims the results contradict.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkOf, covers, emptyCheckState, mergeCheckStates, recordCheck } from '../../src/core/session/summary-checks.ts';
import { mergeSummaries } from '../../src/core/session/summary-merge.ts';
import { emptySummary, type SessionSummary } from '../../src/core/session/summary-model.ts';
import { readRecap } from '../../src/core/session/summary-recap.ts';
import { settleSummary } from '../../src/core/session/summary-settle.ts';
import { writeFailure } from '../../src/core/session/summary-writes.ts';
import { normalizePath, projectDir, projectPath, relativeInCommand } from '../../src/core/transcript/path-spelling.ts';
import { shellEffects } from '../../src/core/transcript/shell-effects.ts';

test('a path is resolved against the folder it was used in and spelled relative to the project', () => {
  const cases: Array<[path: string, dir: string | null, root: string, expected: string]> = [
    ['build.js', '/repo/assets', '/repo', 'assets/build.js'],
    ['./js/../js/app.js', '/repo/assets', '/repo', 'assets/js/app.js'],
    ['/repo/src//a.ts', '/repo', '/repo', 'src/a.ts'],
    ['../lib/x.ex', '/repo/assets', '/repo', 'lib/x.ex'],
    ['/etc/hosts', '/repo', '/repo', '/etc/hosts'],
    ['~/.zshrc', '/repo', '/repo', '~/.zshrc'],
    ['/repo', '/repo', '/repo', '.'],
  ];
  for (const [path, dir, root, expected] of cases) assert.equal(projectPath(path, dir, root), expected, `${path} in ${dir}`);
  assert.equal(normalizePath('a/./b/../../..'), '..');
  assert.deepEqual([projectDir('/repo/assets', '/repo'), projectDir('/repo', '/repo'), projectDir('/tmp', '/repo')], ['assets', '', null]);
});

test('a transcript written on Windows spells its paths the same way, on any machine: forward slashes, relative to the project, case aside', () => {
  const root = 'X:\\03_ACG\\Odoo_Docs';
  const cases: Array<[path: string, dir: string | null, expected: string]> = [
    ['X:\\03_ACG\\Odoo_Docs\\ticket_system\\models\\ticket.py', root, 'ticket_system/models/ticket.py'],
    ['x:\\03_acg\\odoo_docs\\scripts\\run.py', root, 'scripts/run.py'],
    ['X:/03_ACG/Odoo_Docs/scripts/run.py', root, 'scripts/run.py'],
    ['models\\ticket.py', `${root}\\ticket_system`, 'ticket_system/models/ticket.py'],
    ['X:\\03_ACG\\Custom_Addons\\ticket_system\\__init__.py', root, 'X:/03_ACG/Custom_Addons/ticket_system/__init__.py'],
    ['\\\\server\\share\\a\\..\\b.txt', root, '//server/share/b.txt'],
  ];
  for (const [path, dir, expected] of cases) assert.equal(projectPath(path, dir, root), expected, `${path} in ${dir}`);
  assert.deepEqual([projectDir(`${root}\\sub`, root), projectDir(root.toLowerCase(), root), projectDir('D:\\x', root)], ['sub', '', null]);
  assert.equal(
    relativeInCommand('python X:\\03_ACG\\Odoo_Docs\\sub\\t.py X:\\03_ACG\\Odoo_Docs\\o.txt', `${root}\\sub`, root),
    'python t.py ../o.txt',
  );
  assert.equal(
    relativeInCommand('C:\\Program Files\\Git\\bin\\bash.exe -c x', root, root),
    'C:\\Program Files\\Git\\bin\\bash.exe -c x',
    'a path outside the project is left as it was written',
  );
});

test('absolute paths in a command become relative to the folder it ran in, and only whole folder names are replaced', () => {
  assert.equal(relativeInCommand('node /repo/assets/build.js --out /repo/priv', '/repo/assets', '/repo'), 'node build.js --out ../priv');
  assert.equal(relativeInCommand('cat /repo/a /repo2/b /repo', '/repo', '/repo'), 'cat a /repo2/b .');
});

test('a shell command tells where it ran and which files it wrote or deleted', () => {
  const cases: Array<
    [string, { cd: string | null; writes: string[]; deletes: string[]; reverts?: string[]; revertsAll?: boolean; commits?: boolean }]
  > = [
    ['cd assets && node build.js', { cd: 'assets', writes: [], deletes: [] }],
    ["cat > types/state.ts << 'EOF'\nexport {}\nEOF", { cd: null, writes: ['types/state.ts'], deletes: [] }],
    ['npm test 2>&1 | tee out/test.log > /dev/null', { cd: null, writes: ['out/test.log'], deletes: [] }],
    ['echo "a > b" >> notes.md', { cd: null, writes: ['notes.md'], deletes: [] }],
    ["sed -i '' 's/a/b/' src/x.ts src/y.ts", { cd: null, writes: ['src/x.ts', 'src/y.ts'], deletes: [] }],
    ['sed -i -e "s/a/b/" cfg.yml', { cd: null, writes: ['cfg.yml'], deletes: [] }],
    ['rm -rf dist/ && rm "a b.txt"', { cd: null, writes: [], deletes: ['dist/', 'a b.txt'] }],
    ['git rm --cached secrets.env', { cd: null, writes: [], deletes: [] }],
    ['git rm old.ts', { cd: null, writes: [], deletes: ['old.ts'] }],
    ['rm $TMPDIR/x "$(pwd)/y"', { cd: null, writes: [], deletes: [] }],
    ['cd app', { cd: null, writes: [], deletes: [] }],
    ['FOO=1 sudo touch marker', { cd: null, writes: ['marker'], deletes: [] }],
    ['git mv a/x.go b/x.go', { cd: null, writes: ['b/x.go'], deletes: ['a/x.go'] }],
    ['mv *.log logs/', { cd: null, writes: [], deletes: [] }],
    ['mv docs/TODAY.md docs/plans/', { cd: null, writes: ['docs/plans/TODAY.md'], deletes: ['docs/TODAY.md'] }],
    ['mv a.md b/c.md archive', { cd: null, writes: ['archive/a.md', 'archive/c.md'], deletes: ['a.md', 'b/c.md'] }],
    ['mv old/ new/', { cd: null, writes: [], deletes: [] }],
    ['mv notes.md waves qa plans/', { cd: null, writes: ['plans/notes.md'], deletes: ['notes.md'] }],
    ['cp .env.example .env', { cd: null, writes: ['.env'], deletes: [] }],
    ['# clean up first\nrm -rf dist', { cd: null, writes: [], deletes: ['dist'] }],
    ['cd web && # build it\nnpm run build > build.log', { cd: 'web', writes: ['build.log'], deletes: [] }],
    ['cp a.png b.png shots/', { cd: null, writes: ['shots/a.png', 'shots/b.png'], deletes: [] }],
    ['cp -r templates site', { cd: null, writes: [], deletes: [] }],
    ['git clean -fd build/tmp', { cd: null, writes: [], deletes: ['build/tmp'] }],
    ['git clean -n', { cd: null, writes: [], deletes: [] }],
    ['git checkout -- src/a.ts src/b.ts', { cd: null, writes: [], deletes: [], reverts: ['src/a.ts', 'src/b.ts'] }],
    ['git checkout main', { cd: null, writes: [], deletes: [] }],
    ['git restore --staged src/a.ts', { cd: null, writes: [], deletes: [] }],
    ['git restore src/a.ts', { cd: null, writes: [], deletes: [], reverts: ['src/a.ts'] }],
    ['git restore .', { cd: null, writes: [], deletes: [], revertsAll: true }],
    ['git reset --hard HEAD~1', { cd: null, writes: [], deletes: [], revertsAll: true }],
    ['git add -A && git commit -m "wip"', { cd: null, writes: [], deletes: [], commits: true }],
  ];
  for (const [command, expected] of cases)
    assert.deepEqual(shellEffects(command), { reverts: [], revertsAll: false, commits: false, ...expected }, command);
  // Without `--`, what git printed says whether the words were files or a branch.
  const put = shellEffects('git checkout src/a.ts src/b.ts', 'Updated 2 paths from the index');
  assert.deepEqual(put.reverts, ['src/a.ts', 'src/b.ts']);
  assert.deepEqual(shellEffects('git checkout HEAD~1 src/a.ts', 'Updated 1 path from 3f2a1b4').reverts, ['src/a.ts']);
  assert.deepEqual(shellEffects('git checkout feature/login.ts', "Switched to branch 'feature/login.ts'").reverts, []);
  assert.equal(shellEffects('git checkout .', 'Updated 4 paths from the index').revertsAll, true);
});

test('a check is the program and subcommand, the folder and the files named; git add and inspection are none', () => {
  const build = checkOf('node assets/build.js', '', 'node assets/build.js');
  const inAssets = checkOf('node build.js', 'assets', 'cd assets && node build.js');
  assert.equal(build?.kind, 'build');
  assert.deepEqual(inAssets?.paths, ['assets/build.js']);
  assert.ok(build && inAssets && covers(inAssets, build), 'the same script run from its folder settles the run from the root');
  assert.equal(checkOf('git add test/a.ts src/b.ts', '', 'x'), null, 'a path with "test" in it does not make git add a test');
  assert.equal(checkOf('ls test/', '', 'x'), null);
  assert.equal(checkOf('python scripts/seed.py', '', 'x'), null, 'a script is judged by its name');
  assert.equal(checkOf('mix test | grep -E "(tests|failures)"', '', 'x')?.kind, 'test');
  const file = checkOf('mix test test/a_test.exs', '', 'x')!;
  const suite = checkOf('mix test', '', 'x')!;
  const elsewhere = checkOf('mix test', 'apps/web', 'x')!;
  assert.ok(covers(suite, file) && !covers(file, suite) && !covers(elsewhere, file));
  assert.equal(checkOf('git add -A && git commit -m …', '', 'x')?.kind, 'commit');
  assert.equal(checkOf('git push --set-upstream origin main', '', 'x')?.family, 'git push');
});

test('check state: a pass settles the failures it covers; merged in order, a later part settles an earlier one', () => {
  const f = checkOf('mix test test/a_test.exs', '', 'mix test test/a_test.exs')!;
  const p = checkOf('mix test', '', 'mix test')!;
  const a = recordCheck(emptyCheckState(), f, true);
  assert.deepEqual(
    a.failing.map((c) => c.command),
    ['mix test test/a_test.exs'],
  );
  const b = recordCheck(emptyCheckState(), p, false);
  assert.deepEqual(mergeCheckStates(a, b).failing, []);
  const failsAgain = recordCheck(b, f, true);
  assert.deepEqual(
    mergeCheckStates(a, failsAgain).failing.map((c) => c.command),
    ['mix test test/a_test.exs'],
    'failing again after the pass is open again',
  );
  // Merging summaries does the same; parts without check state (older drafts) merge as before.
  const merged = mergeSummaries({ ...emptySummary(), checks: a }, { ...emptySummary(), checks: b });
  assert.deepEqual(merged.checks?.failing, []);
  assert.equal(mergeSummaries(emptySummary(), emptySummary()).checks, undefined);
});

test('a write tool error says in a few words why the write did not happen', () => {
  assert.equal(
    writeFailure("Claude requested permissions to write to /x, but you haven't granted it yet."),
    'refused: permission not granted',
  );
  assert.equal(writeFailure("The user doesn't want to proceed with this tool use."), 'refused by the user');
  assert.equal(
    writeFailure('<tool_use_error>File has not been read yet. Read it first.</tool_use_error>'),
    'failed: the file was not read first',
  );
  assert.equal(
    writeFailure('<tool_use_error>String to replace not found in file.</tool_use_error>'),
    'failed: the text to replace was not found',
  );
  assert.equal(writeFailure('EISDIR'), 'failed');
});

test('files across parts: a later write settles an earlier failed one; a later rm removes an earlier edit', () => {
  const a: SessionSummary = {
    ...emptySummary(),
    filesEdited: ['src/a.ts', 'src/b.ts'],
    failedWrites: [{ path: 'CLAUDE.md', why: 'refused: permission not granted' }],
    written: ['src/a.ts', 'src/b.ts'],
    filesDeleted: [],
  };
  const b: SessionSummary = { ...emptySummary(), filesEdited: ['CLAUDE.md'], written: ['CLAUDE.md'], filesDeleted: ['src/b.ts'] };
  const m = mergeSummaries(a, b);
  assert.deepEqual(m.failedWrites, []);
  assert.deepEqual(m.filesEdited, ['src/a.ts', 'CLAUDE.md']);
  assert.deepEqual(m.filesDeleted, ['src/b.ts']);
});

test('a compaction summary gives the quoted user messages (or the primary request) and the top-level pending tasks', () => {
  const recap = readRecap(
    [
      'Analysis:',
      '1. User asked for X (a numbered line of the analysis, not a section)',
      'Summary:',
      '1. Primary Request and Intent:',
      '   Add a metric for retry exhaustion.',
      '2. Key Technical Concepts:',
      '   - Prometheus',
      '6. All user messages:',
      '   - "Add a metric for retry exhaustion"',
      '   - (Plan mode approval - implicit)',
      '   - "continue"',
      '7. Pending Tasks:',
      '   - **metric-1** (in progress): name the counter',
      '     - a detail, not a task',
      '   - Document it',
      '8. Current Work:',
      '   Naming the counter.',
    ].join('\n'),
  );
  assert.deepEqual(recap, {
    requests: ['Add a metric for retry exhaustion', 'continue'],
    pending: ['metric-1 (in progress): name the counter', 'Document it'],
  });
  assert.deepEqual(readRecap('1. Primary Request and Intent:\n   Port the library to Rust.\n7. Pending Tasks:\n   - None')!, {
    requests: ['Port the library to Rust.'],
    pending: [],
  });
  assert.equal(readRecap('Just prose, no sections.'), null);
});

test('a claim about a file is contradicted only by that file: src/index.ts is not types/index.ts', () => {
  const s: SessionSummary = {
    ...emptySummary(),
    decisions: ['Created src/index.ts with the exports', 'Updated index.ts barrel file', 'Rewrote types/index.ts', 'Read the docs'],
    failedWrites: [{ path: 'types/index.ts', why: 'failed: the file was not read first' }],
  };
  const settled = settleSummary(s);
  assert.deepEqual(settled.decisions, ['Created src/index.ts with the exports', 'Read the docs']);
  assert.equal(settled.open.length, 1);
  assert.match(
    settled.open[0]!,
    /^`types\/index\.ts` not written \(failed: the file was not read first\) — yet reported done: "Rewrote types\/index\.ts"$/,
  );
});
