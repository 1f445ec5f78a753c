import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { EchoesError } from '../../src/core/errors.ts';
import { isSafeName } from '../../src/core/text.ts';
import { appendLine, createFileExclusive, writeFileAtomic } from '../../src/store/fs/atomic-file.ts';
import { assertSafeName, assertWritable, echoPaths, findingsFile, memoryFile, roleDir } from '../../src/store/fs/echo-paths.ts';
import { makeTempProject } from '../helpers/temp-project.ts';

const isCode = (code: string) => (err: unknown) => err instanceof EchoesError && err.code === code && !err.message.includes('\n');

/** A folder outside the project that a symlink may try to lead to. */
function outsideDir(t: { after(fn: () => void): void }): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'rune-echoes-outside-')));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('role and agent names of lower-case letters, digits and dashes are accepted', () => {
  for (const name of ['reviewer', 'team', 'a', '0', 'code-reviewer', 'qa2', 'x'.repeat(64), '9-lives']) {
    assert.equal(isSafeName(name), true, name);
    assert.equal(assertSafeName(name, 'role'), name);
  }
});

test('names that could leave the role folder or confuse the layout are refused with bad-name', () => {
  const bad = [
    '',
    '.',
    '..',
    '../x',
    'x/..',
    'a/b',
    'a\\b',
    'A B',
    'a b',
    'Reviewer',
    'REVIEWER',
    'a_b',
    '-lead',
    'x'.repeat(65),
    'reviewer\n',
    '\nreviewer',
    'rev\u0000iewer',
    'révieweur',
    '.hidden',
    'a.b',
    '~',
    ' reviewer',
  ];
  for (const name of bad) {
    assert.equal(isSafeName(name), false, JSON.stringify(name));
    assert.throws(() => assertSafeName(name, 'agent'), isCode('bad-name'), JSON.stringify(name));
  }
});

test('the refusal message says which kind of name and what to use instead', () => {
  assert.throws(
    () => assertSafeName('../x', 'role'),
    (err: unknown) => {
      assert.ok(err instanceof EchoesError);
      assert.match(err.message, /invalid role name "\.\.\/x"/);
      assert.match(err.message, /lower-case letters, digits and dashes/);
      return true;
    },
  );
});

test('path builders refuse bad role and agent names before building a path', () => {
  const p = echoPaths('/project', defaultConfig());
  assert.throws(() => roleDir(p, '../x'), isCode('bad-name'));
  assert.throws(() => memoryFile(p, 'A B'), isCode('bad-name'));
  assert.throws(() => findingsFile(p, 'reviewer', '../../etc'), isCode('bad-name'));
  assert.equal(findingsFile(p, 'reviewer', 'scout'), '/project/.claude/echoes/reviewer/scout-findings.md');
});

test('project scope keeps everything under .claude/echoes; user scope moves only session files to ~/.claude', () => {
  const project = echoPaths('/work/p', defaultConfig(), '/home/u');
  assert.equal(project.echoes, '/work/p/.claude/echoes');
  assert.equal(project.ephemeral, '/work/p/.claude/echoes/EPHEMERAL.md');
  assert.equal(project.archiveIndex, '/work/p/.claude/echoes/ARCHIVE.md');
  assert.equal(project.memoriesDir, '/work/p/.claude/echoes/memories');
  assert.equal(project.usageLog, '/work/p/.claude/echoes/usage.jsonl');
  assert.equal(project.configFile, '/work/p/.claude/rune-config.yml');
  assert.equal(project.solutionsDir, '/work/p/docs/solutions');
  assert.equal(project.gitignore, '/work/p/.gitignore');

  const user = echoPaths('/work/p', { sessionScope: 'user' }, '/home/u');
  assert.equal(user.ephemeral, '/home/u/.claude/EPHEMERAL.md');
  assert.equal(user.archiveIndex, '/home/u/.claude/ARCHIVE.md');
  assert.equal(user.memoriesDir, '/home/u/.claude/memories');
  assert.equal(user.usageLog, '/work/p/.claude/echoes/usage.jsonl', 'the usage log stays with the project');
  assert.equal(memoryFile(user, 'reviewer'), '/work/p/.claude/echoes/reviewer/MEMORY.md');
});

test('writes inside the memory folders, the config file and .gitignore are allowed, even before they exist', (t) => {
  const tp = makeTempProject(t);
  const { paths, dir } = tp;
  for (const rel of [
    '.claude/echoes/reviewer/MEMORY.md',
    '.claude/echoes/reviewer/archive/pruned.md',
    '.claude/echoes/usage.jsonl',
    '.claude/echoes',
    'docs/solutions/build-errors/slug.md',
    '.claude/rune-config.yml',
    '.gitignore',
  ]) {
    assert.equal(assertWritable(paths, join(dir, rel)), join(dir, rel), rel);
  }
});

test('writes anywhere else are refused with unsafe-path', (t) => {
  const tp = makeTempProject(t);
  const { paths, dir } = tp;
  for (const target of [
    join(dir, 'src/index.ts'),
    join(dir, '.claude/settings.json'),
    join(dir, '.claude/echoes-other/x'),
    join(dir, '.claude/echoes/../settings.json'),
    join(dir, '.claude/echoes/reviewer/../../../README.md'),
    join(dir, '..', 'x'),
    '/etc/passwd',
    join(dir, 'docs/other.md'),
    join(dir, '.gitignore-other'),
    join(dir, 'home/.claude/EPHEMERAL.md'),
  ]) {
    assert.throws(() => assertWritable(paths, target), isCode('unsafe-path'), target);
  }
});

test('user scope allows exactly the recall-echo session paths under ~/.claude', (t) => {
  const tp = makeTempProject(t);
  const home = join(tp.dir, 'home');
  const paths = echoPaths(tp.dir, { sessionScope: 'user' }, home);
  for (const rel of ['.claude/EPHEMERAL.md', '.claude/ARCHIVE.md', '.claude/memories/archive-log-001.md']) {
    assert.equal(assertWritable(paths, join(home, rel)), join(home, rel));
  }
  for (const rel of ['.claude/settings.json', '.claude/CLAUDE.md', '.claude/projects/x.jsonl', '.bashrc']) {
    assert.throws(() => assertWritable(paths, join(home, rel)), isCode('unsafe-path'), rel);
  }
});

test('a role folder that is a symlink out of .claude/echoes is refused', (t) => {
  const tp = makeTempProject(t);
  const out = outsideDir(t);
  mkdirSync(join(tp.dir, '.claude/echoes'), { recursive: true });
  symlinkSync(out, join(tp.dir, '.claude/echoes/reviewer'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md')), isCode('unsafe-path'));
  assert.throws(() => writeFileAtomic(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md'), 'x'), isCode('unsafe-path'));
  assert.deepEqual(readdirSync(out), []);
});

test('a role folder that is a symlink to another part of the project is refused too', (t) => {
  const tp = makeTempProject(t);
  tp.write('src/keep.ts', 'export {};\n');
  mkdirSync(join(tp.dir, '.claude/echoes'), { recursive: true });
  symlinkSync('../../src', join(tp.dir, '.claude/echoes/reviewer'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md')), isCode('unsafe-path'));
});

test('a file that is a symlink, out or even inside the store, is never written through', (t) => {
  const tp = makeTempProject(t);
  const out = outsideDir(t);
  writeFileSync(join(out, 'victim.txt'), 'original');
  tp.write('.claude/echoes/reviewer/real.md', 'real');
  symlinkSync(join(out, 'victim.txt'), join(tp.dir, '.claude/echoes/reviewer/MEMORY.md'));
  symlinkSync('real.md', join(tp.dir, '.claude/echoes/reviewer/knowledge.md'));
  const target = join(tp.dir, '.claude/echoes/reviewer/MEMORY.md');
  assert.throws(() => assertWritable(tp.paths, target), isCode('unsafe-path'));
  assert.throws(() => writeFileAtomic(tp.paths, target, 'new'), isCode('unsafe-path'));
  assert.throws(() => appendLine(tp.paths, target, 'new'), isCode('unsafe-path'));
  assert.throws(() => createFileExclusive(tp.paths, target, 'new'), isCode('unsafe-path'));
  assert.throws(() => writeFileAtomic(tp.paths, join(tp.dir, '.claude/echoes/reviewer/knowledge.md'), 'new'), isCode('unsafe-path'));
  assert.equal(readFileSync(join(out, 'victim.txt'), 'utf8'), 'original');
  assert.equal(tp.read('.claude/echoes/reviewer/real.md'), 'real');
});

test('.claude/echoes itself being a symlink to /tmp refuses every write in the store', (t) => {
  const tp = makeTempProject(t);
  const out = outsideDir(t);
  mkdirSync(join(tp.dir, '.claude'), { recursive: true });
  symlinkSync(out, join(tp.dir, '.claude/echoes'));
  for (const rel of ['.claude/echoes', '.claude/echoes/usage.jsonl', '.claude/echoes/reviewer/MEMORY.md', '.claude/echoes/.locks']) {
    assert.throws(() => assertWritable(tp.paths, join(tp.dir, rel)), isCode('unsafe-path'), rel);
  }
  assert.throws(() => appendLine(tp.paths, tp.paths.usageLog, '{}'), isCode('unsafe-path'));
  assert.deepEqual(readdirSync(out), []);
});

test('.claude/echoes being a symlink to another folder of the project is refused (writes would land outside the store)', (t) => {
  const tp = makeTempProject(t);
  mkdirSync(join(tp.dir, 'src'), { recursive: true });
  mkdirSync(join(tp.dir, '.claude'), { recursive: true });
  symlinkSync('../src', join(tp.dir, '.claude/echoes'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md')), isCode('unsafe-path'));
  assert.throws(() => writeFileAtomic(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md'), 'x'), isCode('unsafe-path'));
  assert.deepEqual(readdirSync(join(tp.dir, 'src')), []);
});

test('.claude being a symlink out of the project refuses the store and the config file', (t) => {
  const tp = makeTempProject(t);
  const out = outsideDir(t);
  symlinkSync(out, join(tp.dir, '.claude'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md')), isCode('unsafe-path'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.claude/rune-config.yml')), isCode('unsafe-path'));
  // .gitignore and docs/solutions do not pass through .claude and stay writable.
  assert.equal(assertWritable(tp.paths, join(tp.dir, '.gitignore')), join(tp.dir, '.gitignore'));
});

test('docs/solutions and .gitignore that are symlinks out are refused', (t) => {
  const tp = makeTempProject(t);
  const out = outsideDir(t);
  mkdirSync(join(tp.dir, 'docs'), { recursive: true });
  symlinkSync(out, join(tp.dir, 'docs/solutions'));
  writeFileSync(join(out, 'gitignore'), 'x\n');
  symlinkSync(join(out, 'gitignore'), join(tp.dir, '.gitignore'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, 'docs/solutions/tooling/a.md')), isCode('unsafe-path'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.gitignore')), isCode('unsafe-path'));
});

test('a dangling symlink that would lead out is refused, not judged by its name', (t) => {
  const tp = makeTempProject(t);
  const out = outsideDir(t);
  mkdirSync(join(tp.dir, '.claude/echoes'), { recursive: true });
  // Points to a folder that does not exist yet: following it must not count as "inside".
  symlinkSync(join(out, 'later'), join(tp.dir, '.claude/echoes/reviewer'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md')), isCode('unsafe-path'));
  assert.throws(() => writeFileAtomic(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md'), 'x'), isCode('unsafe-path'));
  assert.deepEqual(readdirSync(out), []);
});

test('a symlink inside the store that stays inside the store does not block the folders around it', (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/reviewer/MEMORY.md', 'x');
  symlinkSync('reviewer', join(tp.dir, '.claude/echoes/reviewer-alias'));
  // The real folder stays writable; the alias resolves inside the store, so a write through it stays inside too.
  assert.equal(
    assertWritable(tp.paths, join(tp.dir, '.claude/echoes/reviewer/MEMORY.md')),
    join(tp.dir, '.claude/echoes/reviewer/MEMORY.md'),
  );
  assert.equal(
    assertWritable(tp.paths, join(tp.dir, '.claude/echoes/reviewer-alias/new.md')),
    join(tp.dir, '.claude/echoes/reviewer-alias/new.md'),
  );
});

test('user scope: ~/.claude/memories as a symlink out is refused', (t) => {
  const tp = makeTempProject(t);
  const out = outsideDir(t);
  const home = join(tp.dir, 'home');
  mkdirSync(join(home, '.claude'), { recursive: true });
  symlinkSync(out, join(home, '.claude/memories'));
  const paths = echoPaths(tp.dir, { sessionScope: 'user' }, home);
  assert.throws(() => assertWritable(paths, join(home, '.claude/memories/archive-log-001.md')), isCode('unsafe-path'));
});

test('a symlink loop in the path is refused, not followed forever', (t) => {
  const tp = makeTempProject(t);
  mkdirSync(join(tp.dir, '.claude/echoes'), { recursive: true });
  symlinkSync('loop-b', join(tp.dir, '.claude/echoes/loop-a'));
  symlinkSync('loop-a', join(tp.dir, '.claude/echoes/loop-b'));
  assert.throws(() => assertWritable(tp.paths, join(tp.dir, '.claude/echoes/loop-a/MEMORY.md')), isCode('unsafe-path'));
});
