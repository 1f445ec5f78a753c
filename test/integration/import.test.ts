// `rune-echoes import` on temporary projects (issue 12): the real memory files
// of ../shared/realdata (read in place; never copied into this repository),
// the sources of a project and its user found on their own, bad input, and
// the properties: a re-run imports nothing twice, and no byte of a source
// ever changes.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { claudeProjectSlug } from '../../src/store/adopt/memory-sources.ts';
import { cliJson, runCli } from '../helpers/cli-run.ts';
import { REPO } from '../helpers/run-bundle.ts';
import { diffSnapshots, makeTempProject, snapshotTree, type TempProject } from '../helpers/temp-project.ts';

const REAL = join(REPO, '..', 'shared', 'realdata', 'memory');
const FIX = join(REPO, 'test', 'fixtures', 'adopt');
const NOW = new Date('2026-11-23T10:00:00Z');
const home = (tp: TempProject) => join(tp.dir, 'home');
const env = (tp: TempProject) => ({ CLAUDE_PROJECT_DIR: tp.dir, HOME: home(tp) });
const cli = (tp: TempProject, argv: string[]) => runCli(tp, argv, { now: NOW, env: env(tp) });
const json = (tp: TempProject, argv: string[]) => cliJson(tp, argv, { now: NOW, env: env(tp) });

function write(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

test('every real memory file imports, and search then finds a fact from each', async (t) => {
  if (!existsSync(REAL)) return t.skip('realdata not present');
  const tp = makeTempProject(t);
  const files = readdirSync(REAL)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const before = new Map(files.map((f) => [f, readFileSync(join(REAL, f))]));
  const table: string[] = [];
  for (const [i, file] of files.entries()) {
    const role = `real-${i}`;
    const dry = await json(tp, ['import', join(REAL, file), '--role', role, '--dry-run']);
    const got = await json(tp, ['import', join(REAL, file), '--role', role]);
    const src = got.sources[0];
    assert.equal(src.unreadable, undefined);
    assert.equal(src.fresh, dry.sources[0].fresh, 'the dry run showed what the real run did');
    const added = got.roles.find((r: { role: string }) => r.role === role)?.added.length ?? 0;
    const merged = got.roles.find((r: { role: string }) => r.role === role)?.merged ?? 0;
    assert.ok(added > 0, `${file}: nothing imported`);
    assert.equal(added + merged, src.fresh);
    table.push(`| ${file} | ${src.kind} | ${src.entries} | ${added} | ${merged} | ${src.verbatimParts} | ${src.verbatimLines} |`);
    // A fact from the file: its first imported entry's title, searched for in that role.
    const memory = tp.read(`.claude/echoes/${role}/MEMORY.md`)!;
    const title = /^### (?:\[[^\]]*\] )?(?:[^:\n]{1,40}: )?(.+)$/m.exec(memory)![1]!;
    const words = title
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 3)
      .slice(0, 4)
      .join(' ');
    const found = await json(tp, ['search', '--role', role, words || title]);
    assert.ok(
      found.hits.some((h: { path: string; id?: string }) => h.path === `.claude/echoes/${role}/MEMORY.md` && h.id !== undefined),
      `${file}: search "${words}" found nothing in ${role}`,
    );
  }
  t.diagnostic(`| file | format | entries read | added | merged | verbatim parts | verbatim lines |\n${table.join('\n')}`);
  for (const f of files) assert.deepEqual(readFileSync(join(REAL, f)), before.get(f), `${f} changed`);
  // Re-running every import brings in nothing.
  for (const [i, file] of files.entries()) {
    const again = await json(tp, ['import', join(REAL, file), '--role', `real-${i}`]);
    assert.equal(again.sources[0].fresh, 0, file);
  }
});

/** A project whose memory lives where Claude Code, its subagents, agent-memory, ArcheFlow and recall-echo keep it. */
function adoptableProject(t: { after(fn: () => void): void }): TempProject {
  const tp = makeTempProject(t);
  const auto = join(home(tp), '.claude', 'projects', claudeProjectSlug(tp.dir), 'memory');
  write(
    join(auto, 'MEMORY.md'),
    '# Memory\n\n## Feedback\n- [Logger over console.log](feedback_logger.md) — use Logger categories\n- [Small PRs](feedback_small_prs.md) — one concern per PR\n',
  );
  write(
    join(auto, 'feedback_logger.md'),
    '---\nname: feedback_logger\ndescription: Use the Logger, never console.log, in production code\ntype: feedback\n---\n\nConsole output cannot be switched off.\n',
  );
  write(
    join(tp.dir, '.claude', 'agent-memory', 'code-reviewer', 'MEMORY.md'),
    '# Reviewer notes\n\n## Gotchas\n- The ORM lazy-loads relations: watch for N+1 in list endpoints.\n',
  );
  write(
    join(tp.dir, 'memory', 'continuity.md'),
    '# Continuity\n\n## Project State\n\n- **project:** demo\n\n## Key Decisions\n\n- Queue every ledger write\n  <!-- id: queue-ledger-writes | created: 2026-04-01 | last_used: 2026-05-01 | uses: 3 | tier: active -->\n',
  );
  write(join(tp.dir, '.archeflow', 'memory', 'lessons.jsonl'), readFileSync(join(FIX, 'lessons.jsonl')));
  write(join(tp.dir, 'CLAUDE.md'), readFileSync(join(FIX, 'claude-md-with-learnings.md')));
  cpSync(join(FIX, 'recall-echo', '.claude'), join(home(tp), '.claude'), { recursive: true });
  return tp;
}

test('import finds the sources of the project and its user, a dry run writes nothing, a re-run imports nothing twice', async (t) => {
  const tp = adoptableProject(t);
  const status = await cli(tp, ['status']);
  const adoptLines = status.stdout.split('\n').filter((l) => l.startsWith('memory to adopt'));
  assert.deepEqual(adoptLines, [
    'memory to adopt: 8 files of auto-memory, agent-memory, continuity, archeflow, claude-md, recall-echo not imported yet — see `rune-echoes import --dry-run`',
  ]);

  const before = snapshotTree(tp.dir);
  const dry = await cli(tp, ['import', '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual(diffSnapshots(before, snapshotTree(tp.dir)), [], 'the dry run wrote nothing');
  assert.match(dry.stdout, /^Import \(dry run: nothing written\) — 8 sources found$/m);
  assert.match(dry.stdout, /^~\/\.claude\/projects\/.+\/memory\/MEMORY\.md +auto-memory +team +1 +1 /m);
  assert.match(dry.stdout, /^\.claude\/agent-memory\/code-reviewer\/MEMORY\.md +agent-memory +code-reviewer +1 +1 /m);
  assert.match(dry.stdout, /^would add up to 15 entries: team 14, code-reviewer 1 /m);
  assert.match(dry.stdout, /^ {2}\.archeflow\/memory\/lessons\.jsonl:5: not a lesson/m);

  const real = await json(tp, ['import']);
  const team = real.roles.find((r: { role: string }) => r.role === 'team');
  assert.equal(team.added.length, 14);
  assert.ok(team.added.includes('queue-ledger-writes'), 'continuity ids are kept');
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.match(memory, /Use the Logger, never console\.log/);
  assert.match(memory, /Payments service/);
  assert.doesNotMatch(memory, /Exported lesson/);
  // Nothing else outside the store changed: the sources are only read.
  const changed = diffSnapshots(before, snapshotTree(tp.dir)).filter((d) => !d.includes('.claude/echoes'));
  assert.deepEqual(changed, [], 'only the store changed');

  const after = snapshotTree(join(tp.dir, '.claude', 'echoes'));
  const again = await json(tp, ['import']);
  assert.deepEqual(again.roles, []);
  assert.ok(again.sources.every((s: { fresh: number }) => s.fresh === 0));
  const afterAgain = snapshotTree(join(tp.dir, '.claude', 'echoes'));
  assert.deepEqual(
    diffSnapshots(after, afterAgain).filter((d) => !d.includes('.state')),
    [],
    'the second run changed no memory file',
  );
  const status2 = await cli(tp, ['status']);
  assert.doesNotMatch(status2.stdout, /memory to adopt/);
  // A source that changes is new again: only its new fact comes in.
  const continuity = join(tp.dir, 'memory', 'continuity.md');
  writeFileSync(continuity, `${readFileSync(continuity, 'utf8')}- Events are immutable\n`);
  assert.match((await cli(tp, ['status'])).stdout, /^memory to adopt: 1 file of continuity not imported yet/m);
  const third = await json(tp, ['import', 'continuity']);
  assert.equal(third.roles[0].added.length, 1);
});

test('bad input is a one-line note each, and the rest is imported', async (t) => {
  const tp = makeTempProject(t);
  const auto = join(home(tp), '.claude', 'projects', claudeProjectSlug(tp.dir), 'memory');
  write(join(auto, 'MEMORY.md'), '# Memory\n\n## Notes\n- Deploys go out on Tuesdays.\n');
  write(join(auto, 'deploys.md'), readFileSync(join(FIX, 'broken-frontmatter.md')));
  write(join(auto, 'binary.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0xff, 0xfe]));
  write(join(tp.dir, '.archeflow', 'memory', 'lessons.jsonl'), readFileSync(join(FIX, 'lessons.jsonl')));
  write(join(tp.dir, 'CLAUDE.md'), readFileSync(join(FIX, 'claude-md-without-learnings.md')));
  const r = await cli(tp, ['import']);
  assert.equal(r.code, 0, r.stderr);
  const notes = r.stdout.split('notes:\n')[1]!.trimEnd().split('\n');
  assert.equal(notes.length, 5, r.stdout);
  assert.match(notes.join('\n'), /binary\.md: cannot be read \(not text \(binary or not UTF-8\)\); skipped/);
  assert.match(notes.join('\n'), /deploys\.md: broken frontmatter/);
  assert.match(notes.join('\n'), /lessons\.jsonl:5: not a lesson/);
  assert.match(notes.join('\n'), /lessons\.jsonl:6: lesson m-006 has no description/);
  assert.match(notes.join('\n'), /CLAUDE\.md: no learnings section/);
  for (const n of notes) assert.ok(!n.includes('\n') && n.length < 200, n);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.match(memory, /Deploys go out on Tuesdays/);
  assert.match(memory, /Missing null checks on optional config values/);
});

test('import refuses what it cannot do with one line and writes nothing', async (t) => {
  const tp = adoptableProject(t);
  const before = snapshotTree(tp.dir);
  for (const argv of [
    ['import', 'no/such/file.md'],
    ['import', '--role', '../x'],
    ['import', '--bogus'],
  ]) {
    const r = await cli(tp, argv);
    assert.equal(r.code, 1, argv.join(' '));
    assert.match(r.stderr, /^rune-echoes: [^\n]+\n$/);
  }
  assert.deepEqual(diffSnapshots(before, snapshotTree(tp.dir)), []);
});

test('imported text passes the security filter on its way in', async (t) => {
  const tp = makeTempProject(t);
  write(
    join(tp.dir, 'CLAUDE.md'),
    '# x\n\n## Learnings\n- The staging key is AKIAIOSFODNN7EXAMPLE with password=hunter22; rotate it monthly.\n',
  );
  await json(tp, ['import']);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.doesNotMatch(memory, /AKIAIOSFODNN7EXAMPLE|hunter22/);
  assert.match(memory, /REDACTED/);
});

// ---------------------------------------------------------------- properties

const line = fc.oneof(
  fc.constantFrom('## Notes', '## Lessons learned', '- a fact', '- [Topic](topic_x.md) — a hook', '  more', '', '---', '```', '# Title'),
  fc.string({ minLength: 1, maxLength: 24 }).map((s) => `- ${s.replace(/[\r\n]/g, ' ')}`),
);
const doc = fc.array(line, { maxLength: 25 }).map((ls) => `${ls.join('\n')}\n`);

test('property: import is idempotent and never changes a byte of a source', async () => {
  let n = 0;
  await fc.assert(
    fc.asyncProperty(doc, doc, doc, async (autoText, claudeText, continuityText) => {
      const tp = makeTempProject(undefined, `rune-import-prop-${n++}-`);
      try {
        const auto = join(home(tp), '.claude', 'projects', claudeProjectSlug(tp.dir), 'memory');
        write(join(auto, 'MEMORY.md'), autoText);
        write(join(tp.dir, 'CLAUDE.md'), claudeText);
        write(join(tp.dir, 'memory', 'continuity.md'), continuityText);
        const sources = () =>
          [join(auto, 'MEMORY.md'), join(tp.dir, 'CLAUDE.md'), join(tp.dir, 'memory', 'continuity.md')].map((p) => readFileSync(p));
        const before = sources();
        const first = await cli(tp, ['import']);
        assert.equal(first.code, 0, first.stderr);
        const store = () => snapshotTree(join(tp.dir, '.claude', 'echoes'));
        const once = store();
        const second = await json(tp, ['import']);
        assert.deepEqual(second.roles, [], 'the second run added nothing');
        assert.deepEqual(
          diffSnapshots(once, store()).filter((d) => !d.includes('.state')),
          [],
        );
        assert.deepEqual(sources(), before, 'a source changed');
      } finally {
        tp.cleanup();
      }
    }),
    { numRuns: 25 },
  );
});

/** Claude Code's auto memory folder for this project under the test's HOME. */
const autoMemory = (tp: TempProject, ...p: string[]) => join(home(tp), '.claude', 'projects', claudeProjectSlug(tp.dir), 'memory', ...p);

test('a flat index, items under ### or after a rule, and links in subfolders, spaced or encoded, all arrive, each once', async (t) => {
  const tp = makeTempProject(t);
  write(
    autoMemory(tp, 'MEMORY.md'),
    [
      '- Tests need DATABASE_URL set FLAT1',
      '- Use pnpm, never npm FLAT2',
      '- [Deploy](deploy.md) — deploy only on Tuesdays FLAT3',
      '',
      '### Build',
      '- H3-FACT the build needs node 20',
      '',
      '## Index',
      '- [Notes x](./notes/x.md) — nested topic hook',
      '- [My topic](my%20topic.md) — encoded link hook',
      '- [Spaced](<spaced file.md>) — angle bracket link hook',
      '',
      '---',
      '',
      '- AFTER-RULE-FACT keep the changelog short',
      '',
    ].join('\n'),
  );
  const topic = (name: string, body: string) => `---\nname: ${name}\ndescription: ${name} in short\ntype: project\n---\n\n${body}\n`;
  write(autoMemory(tp, 'notes', 'x.md'), topic('nested', 'NESTED-BODY-LINE'));
  write(autoMemory(tp, 'my topic.md'), topic('encoded', 'ENCODED-BODY-LINE'));
  write(autoMemory(tp, 'spaced file.md'), topic('spaced', 'SPACED-BODY-LINE'));
  const got = await json(tp, ['import']);
  assert.equal(got.roles[0].role, 'team');
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  const learnings = documentEntries(parseEchoDocument(memory)).map((e) => e.learning);
  for (const fact of ['FLAT1', 'FLAT2', 'FLAT3', 'H3-FACT', 'AFTER-RULE-FACT', 'NESTED-BODY-LINE', 'ENCODED-BODY-LINE', 'SPACED-BODY-LINE'])
    assert.equal(learnings.filter((l) => l.includes(fact)).length, 1, `${fact} in one entry`);
  assert.equal(learnings.length, 8);
  for (const hook of ['nested topic hook', 'encoded link hook', 'angle bracket link hook'])
    assert.ok(!memory.includes(hook), `the index line of a topic file read on its own is not a second entry (${hook})`);
  assert.equal((await json(tp, ['import'])).roles.length, 0, 'a re-run imports nothing');
});

test('a secret in a section heading reaches no tag, id or title', async (t) => {
  const tp = makeTempProject(t);
  const token = `ghp_${'abcdefghijklmnopqrstuvwxyz0123456789'}`;
  const aws = `AKIA${'IOSFODNN7EXAMPLE'}`;
  write(autoMemory(tp, 'MEMORY.md'), `# M\n\n## Deploy token ${token}\n- push with it\n\n## ${aws} creds\n- aws\n`);
  await json(tp, ['import']);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!.toLowerCase();
  assert.ok(!memory.includes('abcdefghijklmnop'), memory);
  assert.ok(!memory.includes('iosfodnn7example'), memory);
  assert.match(memory, /- \*\*tags\*\*: deploy-token/);
});

test('a fact two subagents both keep reaches both roles; naming an imported file again, or a subagent file by path, adds nothing and keeps its role', async (t) => {
  const tp = makeTempProject(t);
  const fact = '# Memory\n\n## Commands\n- Run tests with `pnpm test -- --run`\n';
  write(join(tp.dir, '.claude', 'agent-memory', 'reviewer', 'MEMORY.md'), fact);
  write(join(tp.dir, '.claude', 'agent-memory', 'tester', 'MEMORY.md'), fact);
  const got = await json(tp, ['import']);
  assert.deepEqual(got.roles.map((r: { role: string }) => r.role).sort(), ['reviewer', 'tester']);
  const again = await json(tp, ['import', '.claude/agent-memory/tester/MEMORY.md']);
  assert.equal(again.sources[0].role, 'tester');
  assert.equal(again.sources[0].fresh, 0);
  assert.equal(again.roles.length, 0);
});

test('a link in a committed memory folder that leads out of it is not read', async (t) => {
  const tp = makeTempProject(t);
  write(join(home(tp), '.bash_history'), 'mysql -u root prod_db PRIVATE-HISTORY\n');
  write(join(tp.dir, '.claude', 'agent-memory', 'helper', 'MEMORY.md'), '# Memory\n\n## Notes\n- Lint before pushing\n');
  symlinkSync(join(home(tp), '.bash_history'), join(tp.dir, '.claude', 'agent-memory', 'helper', 'notes.md'));
  await json(tp, ['import']);
  assert.ok(!tp.read('.claude/echoes/helper/MEMORY.md')!.includes('PRIVATE-HISTORY'));
  assert.match(tp.read('.claude/echoes/helper/MEMORY.md')!, /Lint before pushing/);
});

test('a topic file whose frontmatter cannot be read keeps its lines', async (t) => {
  const tp = makeTempProject(t);
  write(autoMemory(tp, 'project_broken.md'), '---\nname: broken\ndescription: [unclosed\ntype: project\n---\nBROKEN-BODY\n');
  await json(tp, ['import']);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  for (const line of ['BROKEN-BODY', 'name: broken', 'description: [unclosed', 'type: project']) assert.ok(memory.includes(line), line);
});

test("auto memory is found where Claude Code keeps it: the main worktree's from a linked worktree, the configured folder, CLAUDE_CONFIG_DIR; and the user's subagent memory", async (t) => {
  const tp = makeTempProject(t);
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, stdio: 'pipe' });
  git(tp.dir, 'init', '-q');
  git(tp.dir, 'commit', '-q', '--allow-empty', '-m', 'start');
  const wt = join(tp.dir, 'wt');
  git(tp.dir, 'worktree', 'add', '-q', wt);
  write(autoMemory(tp, 'MEMORY.md'), '# Memory\n\n## Notes\n- WT-LINE shared by every worktree\n');
  const inWorktree = await cliJson({ ...tp, dir: wt }, ['import', '--dry-run'], {
    now: NOW,
    env: { CLAUDE_PROJECT_DIR: wt, HOME: home(tp) },
  });
  assert.equal(inWorktree.sources.find((s: { kind: string }) => s.kind === 'auto-memory')?.fresh, 1, 'the main worktree’s memory');

  // A configured folder, and Claude Code's folder moved by CLAUDE_CONFIG_DIR.
  const config = join(tp.dir, 'claude-config');
  // The user's settings (a project's own settings cannot move it: a clone must not point import at ~).
  write(join(config, 'settings.json'), JSON.stringify({ autoMemoryDirectory: join(tp.dir, '.claude', 'memory') }));
  write(join(tp.dir, '.claude', 'memory', 'MEMORY.md'), '# Memory\n\n## Notes\n- CONFIGURED-LINE kept where settings say\n');
  write(join(config, 'agent-memory', 'planner', 'MEMORY.md'), '# Memory\n\n## Notes\n- USER-AGENT-LINE the planner knows\n');
  const moved = await cliJson(tp, ['import'], { now: NOW, env: { CLAUDE_PROJECT_DIR: tp.dir, HOME: home(tp), CLAUDE_CONFIG_DIR: config } });
  assert.deepEqual(moved.roles.map((r: { role: string }) => r.role).sort(), ['planner', 'team']);
  assert.match(tp.read('.claude/echoes/team/MEMORY.md')!, /CONFIGURED-LINE/);
  assert.match(tp.read('.claude/echoes/planner/MEMORY.md')!, /USER-AGENT-LINE/);
});
