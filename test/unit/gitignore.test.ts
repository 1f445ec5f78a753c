import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { EchoesError } from '../../src/core/errors.ts';
import { MANAGED_LINE, planGitignore, syncGitignore } from '../../src/store/gitignore.ts';
import { makeTempProject } from '../helpers/temp-project.ts';

test('the managed line is the store folder', () => {
  assert.equal(MANAGED_LINE, '.claude/echoes/');
});

test('a missing or empty .gitignore gets exactly the one managed line', () => {
  assert.equal(planGitignore(null, false), '.claude/echoes/\n');
  assert.equal(planGitignore('', false), '.claude/echoes/\n');
});

test('the line is appended after the existing lines, which stay byte for byte', () => {
  const before = 'node_modules/\n# build output\ndist/\n\n*.log\n';
  const after = planGitignore(before, false)!;
  assert.equal(after, `${before}.claude/echoes/\n`);
  assert.ok(after.startsWith(before));
});

test('a file without a final newline gets one before the managed line, and nothing else changes', () => {
  assert.equal(planGitignore('node_modules/', false), 'node_modules/\n.claude/echoes/\n');
  assert.equal(planGitignore('a\nb', false), 'a\nb\n.claude/echoes/\n');
});

test('CRLF files keep CRLF line ends', () => {
  assert.equal(planGitignore('node_modules/\r\ndist/\r\n', false), 'node_modules/\r\ndist/\r\n.claude/echoes/\r\n');
  assert.equal(planGitignore('node_modules/\r\ndist/', false), 'node_modules/\r\ndist/\r\n.claude/echoes/\r\n');
});

test('nothing to do when the line is already there (also with surrounding spaces or CRLF)', () => {
  for (const text of [
    '.claude/echoes/\n',
    'a\n.claude/echoes/\nb\n',
    'a\r\n.claude/echoes/\r\n',
    '.claude/echoes/',
    'x\n  .claude/echoes/  \n',
  ]) {
    assert.equal(planGitignore(text, false), null, JSON.stringify(text));
  }
});

test('version_controlled with no managed line changes nothing, even with no file', () => {
  assert.equal(planGitignore(null, true), null);
  assert.equal(planGitignore('', true), null);
  assert.equal(planGitignore('node_modules/\n', true), null);
});

test('version_controlled removes only the managed line and keeps every other byte', () => {
  assert.equal(planGitignore('node_modules/\n.claude/echoes/\ndist/\n', true), 'node_modules/\ndist/\n');
  assert.equal(planGitignore('.claude/echoes/\n', true), '');
  assert.equal(planGitignore('a\r\n.claude/echoes/\r\nb\r\n', true), 'a\r\nb\r\n');
  assert.equal(planGitignore('a\n.claude/echoes/', true), 'a\n');
  assert.equal(planGitignore('a\n\t.claude/echoes/ \nb', true), 'a\nb');
});

test("lines that only look like the managed one are the user's and are never touched", () => {
  const user = '.claude/echoes\n/.claude/echoes/\n!.claude/echoes/\n.claude/echoes/reviewer/\n# .claude/echoes/\n.claude/echoes/*\n';
  // Not the managed line: adding puts the managed line after them, unchanged.
  assert.equal(planGitignore(user, false), `${user}.claude/echoes/\n`);
  // And removal takes out only the exact managed line.
  assert.equal(planGitignore(`${user}.claude/echoes/\n`, true), user);
});

test('a line with other whitespace around it (no-break space, lone CR at the end) is either removed or not counted, never half of each', () => {
  const nbsp = 'x\n.claude/echoes/\u00a0\n';
  assert.equal(planGitignore(nbsp, true), null, 'not the managed line, so nothing to remove');
  assert.equal(planGitignore(nbsp, false), `${nbsp}.claude/echoes/\n`);
  assert.equal(planGitignore('a\n.claude/echoes/\r', true), 'a\n');
});

test('a line repeated by hand is removed everywhere when version control is turned on', () => {
  assert.equal(planGitignore('.claude/echoes/\nx\n.claude/echoes/\n', true), 'x\n');
});

test('add then remove gives back the original file when it ended with a newline', () => {
  for (const original of ['', 'node_modules/\n', 'a\r\nb\r\n', '\n\n# comment\n']) {
    const added = planGitignore(original, false)!;
    assert.equal(planGitignore(added, true), original, JSON.stringify(original));
    assert.equal(planGitignore(added, false), null, 'adding twice is a no-op');
  }
});

test('syncGitignore writes the file only when it changes and reports whether it did', (t) => {
  const tp = makeTempProject(t);
  mkdirSync(join(tp.dir, '.git'));
  assert.equal(syncGitignore(tp.paths, false), true);
  assert.equal(tp.read('.gitignore'), '.claude/echoes/\n');
  assert.equal(syncGitignore(tp.paths, false), false);
  tp.write('.gitignore', 'node_modules/\r\n.claude/echoes/\r\n');
  assert.equal(syncGitignore(tp.paths, true), true);
  assert.equal(tp.read('.gitignore'), 'node_modules/\r\n');
  assert.equal(syncGitignore(tp.paths, true), false);
  assert.deepEqual(
    tp.files().filter((f) => !f.startsWith('.claude/')),
    ['.gitignore'],
    'no temp files left beside it',
  );
  assert.match(tp.read('.claude/echoes/.gitignore') ?? '', /^\.state\/$/m, 'hook bookkeeping is never committed');
});

test('syncGitignore leaves a folder that is not a git project without a .gitignore', (t) => {
  const tp = makeTempProject(t);
  assert.equal(syncGitignore(tp.paths, false), false);
  assert.deepEqual(tp.files(), []);
});

test('syncGitignore refuses a .gitignore that is a symlink out of the project and leaves its target alone', (t) => {
  const tp = makeTempProject(t);
  const out = realpathSync(mkdtempSync(join(tmpdir(), 'rune-echoes-outside-')));
  t.after(() => rmSync(out, { recursive: true, force: true }));
  writeFileSync(join(out, 'shared-gitignore'), 'node_modules/\n');
  symlinkSync(join(out, 'shared-gitignore'), join(tp.dir, '.gitignore'));
  assert.throws(
    () => syncGitignore(tp.paths, false),
    (e: unknown) => e instanceof EchoesError && e.code === 'unsafe-path',
  );
  assert.equal(readFileSync(join(out, 'shared-gitignore'), 'utf8'), 'node_modules/\n');
});

test('property: a plan is either null or a real change, and applying it settles (a second plan is null)', () => {
  const piece = fc.constantFrom('.claude/echoes/', 'node_modules/', ' ', '\t', '\r', '\n', '\r\n', '\u00a0', '#', '.claude/echoes', 'x');
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 12 }).map((a) => a.join('')),
      fc.boolean(),
      (text, vc) => {
        const next = planGitignore(text, vc);
        if (next === null) return;
        assert.notEqual(next, text, 'a non-null plan changes the file');
        assert.equal(planGitignore(next, vc), null, 'a second run has nothing to do');
        if (!vc) assert.ok(next.startsWith(text), 'adding only appends');
      },
    ),
    { numRuns: 2000 },
  );
});
