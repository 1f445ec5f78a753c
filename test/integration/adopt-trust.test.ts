// Issue 18, adoption and export: what a cloned repository's files can make
// `import` and `export` do. A repository's settings cannot move auto memory,
// its links cannot lead a read out of it, one bad source fails alone, and
// export never removes or rewrites a byte it did not write.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { claudeProjectSlug } from '../../src/store/adopt/memory-sources.ts';
import { cliJson, runCli } from '../helpers/cli-run.ts';
import { makeTempProject, snapshotTree, type TempProject } from '../helpers/temp-project.ts';

const NOW = new Date('2026-11-23T10:00:00Z');

function write(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** A project and a home folder outside it (as on a real machine: the clone is not the home). */
function setup(t: { after(fn: () => void): void }) {
  const tp = makeTempProject(t);
  const outside = makeTempProject(t, 'rune-echoes-home-');
  const home = join(outside.dir, 'home');
  mkdirSync(home, { recursive: true });
  const env = { CLAUDE_PROJECT_DIR: tp.dir, HOME: home };
  const json = (argv: string[]) => cliJson(tp, argv, { now: NOW, env });
  const cli = (argv: string[]) => runCli(tp, argv, { now: NOW, env });
  const autoMemory = (...p: string[]) => join(home, '.claude', 'projects', claudeProjectSlug(tp.dir), 'memory', ...p);
  return { tp, outside, home, json, cli, autoMemory };
}

const memoryOf = (tp: TempProject) =>
  readdirSync(join(tp.dir, '.claude', 'echoes'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('MEMORY.md'))
    .map((f) => readFileSync(join(tp.dir, '.claude', 'echoes', f), 'utf8'))
    .join('\n');

test("item 8: a project's settings cannot move auto memory (import reads nothing there, export writes nothing there)", async (t) => {
  const { tp, outside, home, json, autoMemory } = setup(t);
  write(join(home, 'notes.md'), '# Notes\n\n- HOME-PRIVATE-NOTE the bank PIN hint\n');
  write(join(home, 'MEMORY.md'), '# Memory\n\n- HOME-MEMORY-LINE\n');
  write(join(outside.dir, 'x', 'MEMORY.md'), '# Memory\n\n- SIBLING-LINE\n');
  write(autoMemory('MEMORY.md'), '# Memory\n\n## Notes\n- REAL-AUTO-LINE where Claude Code keeps it\n');
  await json(['remember', '--role', 'team', '--layer', 'etched', '--pattern', 'Queue writes', 'All writes go through the queue.']);
  const rel = (p: string) => join('..', ...p.split('/')).replace(/\\/g, '/');
  for (const [file, value] of [
    ['.claude/settings.json', '~'],
    ['.claude/settings.json', '~/'],
    ['.claude/settings.json', rel(`${outside.dir.split('/').pop()}/x`)],
    ['.claude/settings.json', join(outside.dir, 'x')],
    ['.claude/settings.local.json', '~'],
  ] as const) {
    tp.write(file, JSON.stringify({ autoMemoryDirectory: value }));
    const dry = await json(['import', '--dry-run']);
    const refs = dry.sources.map((s: { ref: string }) => s.ref);
    assert.ok(
      refs.every((r: string) => !/notes\.md$|^~\/MEMORY\.md$|x\/MEMORY\.md$/.test(r)),
      `${file} = ${value}: ${refs.join(', ')}`,
    );
    assert.ok(
      dry.sources.some((s: { fresh: number; ref: string }) => s.ref.endsWith('/memory/MEMORY.md') && s.fresh === 1),
      'the real auto memory is read',
    );
    const before = snapshotTree(outside.dir);
    await json(['export', '--to', 'auto-memory']);
    const changed = [...snapshotTree(outside.dir).keys()].filter((k) => before.get(k) === undefined);
    assert.ok(
      changed.every((k) => k.startsWith(`home/.claude/projects/${claudeProjectSlug(tp.dir)}/memory`)),
      `${file} = ${value}: export wrote ${changed.join(', ')}`,
    );
    assert.equal(readFileSync(join(home, 'MEMORY.md'), 'utf8'), '# Memory\n\n- HOME-MEMORY-LINE\n');
    tp.write(file, '{}');
  }
  await json(['import']);
  const memory = memoryOf(tp);
  for (const marker of ['HOME-PRIVATE-NOTE', 'HOME-MEMORY-LINE', 'SIBLING-LINE']) assert.ok(!memory.includes(marker), marker);
  assert.match(memory, /REAL-AUTO-LINE/);

  // The user's own settings still choose the folder, taken as Claude Code takes it.
  write(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: '~/my-memory' }));
  write(join(home, 'my-memory', 'MEMORY.md'), '# Memory\n\n- USER-CONFIGURED-LINE\n');
  const mine = await json(['import', '--dry-run']);
  assert.ok(mine.sources.some((s: { ref: string; fresh: number }) => s.ref === '~/my-memory/MEMORY.md' && s.fresh === 1));
  for (const value of ['~', '~/..', 'relative/dir', '']) {
    write(join(home, '.claude', 'settings.json'), JSON.stringify({ autoMemoryDirectory: value }));
    const got = await json(['import', '--dry-run']);
    assert.ok(
      got.sources.every((s: { ref: string }) => !/^~\/(?:notes|MEMORY)\.md$/.test(s.ref)),
      `user setting ${JSON.stringify(value)}`,
    );
  }
});

test('item 9: committed links out of the project are not followed, whichever file or folder on the way is the link', async (t) => {
  const { tp, outside, home, json } = setup(t);
  const secret = (name: string) => {
    const p = join(outside.dir, 'elsewhere', name);
    write(p, `# Private\n\n## Learnings\n- OUTSIDE-${name.replace(/\W/g, '-')} never to be read\n`);
    return p;
  };
  write(join(home, '.claude', 'agent-memory', 'helper', 'MEMORY.md'), '# Memory\n\n## Notes\n- USER-AGENT-PRIVATE\n');
  // The project's files as links: CLAUDE.md, the agent memory folder itself, a continuity file, a folder on the way.
  symlinkSync(secret('claude.md'), join(tp.dir, 'CLAUDE.md'));
  symlinkSync(secret('local.md'), join(tp.dir, 'CLAUDE.local.md'));
  mkdirSync(join(tp.dir, '.claude'), { recursive: true });
  symlinkSync(join(home, '.claude', 'agent-memory'), join(tp.dir, '.claude', 'agent-memory'));
  symlinkSync(secret('continuity.md'), join(tp.dir, 'continuity.md'));
  const lessonsDir = join(outside.dir, 'elsewhere', 'archeflow');
  write(
    join(lessonsDir, 'memory', 'lessons.jsonl'),
    `${JSON.stringify({ id: 'l1', description: 'OUTSIDE-LESSON from another project', type: 'pattern' })}\n`,
  );
  symlinkSync(lessonsDir, join(tp.dir, '.archeflow'));
  mkdirSync(join(tp.dir, 'memory'));
  symlinkSync(join(outside.dir, 'elsewhere'), join(tp.dir, '.agent'));
  write(join(outside.dir, 'elsewhere', 'continuity.md'), '# Continuity\n\n## Key Decisions\n\n- OUTSIDE-AGENT-CONTINUITY\n');
  // A link that stays in the project is fine.
  write(join(tp.dir, 'docs', 'AGENTS.md'), '# Agents\n\n## Learnings\n- IN-PROJECT-LINK-LINE keep commits small\n');
  symlinkSync(join(tp.dir, 'docs', 'AGENTS.md'), join(tp.dir, '.claude', 'CLAUDE.md'));

  const dry = await json(['import', '--dry-run']);
  const refs: string[] = dry.sources.map((s: { ref: string }) => s.ref);
  assert.deepEqual(
    refs.filter((r) => !r.startsWith('~/')),
    ['.claude/CLAUDE.md'],
    refs.join(', '),
  );
  await json(['import']);
  const memory = memoryOf(tp);
  assert.ok(!/OUTSIDE-/.test(memory), memory);
  assert.match(memory, /IN-PROJECT-LINK-LINE/);
  // The user's own subagent memory is read as theirs (role helper), once.
  assert.equal(memory.split('USER-AGENT-PRIVATE').length, 2);
});

test('item 10: a huge or hostile source fails alone with a one-line note; every other source is imported', async (t) => {
  const { tp, json, cli, autoMemory } = setup(t);
  const big = `---\nname: big\ndescription: big\ntype: project\n---\n\n${'- a line of notes that goes on\n'.repeat(600_000)}`;
  write(autoMemory('project_big.md'), big);
  // Under the size limit but one long line with no sentence end: read, not a stack overflow.
  write(autoMemory('project_long_line.md'), `---\nname: long\ntype: project\n---\n\n${'word '.repeat(600_000)}\n`);
  write(autoMemory('MEMORY.md'), '# Memory\n\n## Notes\n- SMALL-AUTO-LINE deploys on Tuesdays\n');
  write(join(tp.dir, 'CLAUDE.md'), '# Project\n\n## Learnings\n- CLAUDE-MD-LINE run the linter first\n');
  const r = await cli(['import']);
  assert.equal(r.code, 0, r.stderr);
  const notes = r.stdout.split('notes:\n')[1]!.trimEnd().split('\n');
  const bigNote = notes.filter((n) => n.includes('project_big.md'));
  assert.equal(bigNote.length, 1, notes.join('\n'));
  assert.match(bigNote[0]!, /cannot be read \(.*MB.*\); skipped$/);
  const memory = memoryOf(tp);
  assert.match(memory, /SMALL-AUTO-LINE/);
  assert.match(memory, /CLAUDE-MD-LINE/);
  assert.ok(memory.length < 4_000_000, 'the huge file did not come in');
  const again = await json(['import', '--dry-run']);
  assert.ok(again.sources.find((s: { ref: string }) => s.ref.endsWith('project_big.md')).unreadable);
  assert.ok(existsSync(autoMemory('project_big.md')), 'a source is never touched');
});
