// Issue 18, adoption and export: what a cloned repository's files can make
// `import` and `export` do. A repository's settings cannot move auto memory,
// its links cannot lead a read out of it, one bad source fails alone, and
// export never removes or rewrites a byte it did not write.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { claudeProjectSlug } from '../../src/store/adopt/memory-sources.ts';
import { cliJson, runCli } from '../helpers/cli-run.ts';
import { REPO } from '../helpers/run-bundle.ts';
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
    assert.deepEqual(dry.ignoredSettings, [file], 'and import says so');
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
  // A role whose memory file git left with conflict markers cannot take entries: that source fails alone too.
  write(join(tp.dir, '.claude', 'agent-memory', 'helper', 'MEMORY.md'), '# Notes\n\n## Tips\n- HELPER-LINE cache the token\n');
  tp.write('.claude/echoes/helper/MEMORY.md', '# Helper\n\n<<<<<<< ours\n- a\n=======\n- b\n>>>>>>> theirs\n');
  const r = await cli(['import']);
  assert.equal(r.code, 0, r.stderr);
  const notes = r.stdout.split('notes:\n')[1]!.trimEnd().split('\n');
  const bigNote = notes.filter((n) => n.includes('project_big.md'));
  assert.equal(bigNote.length, 1, notes.join('\n'));
  assert.match(bigNote[0]!, /cannot be read \(.*MB.*\); skipped$/);
  assert.equal(notes.filter((n) => n.includes('agent-memory/helper/MEMORY.md: not imported into helper')).length, 1, notes.join('\n'));
  const memory = memoryOf(tp);
  assert.match(memory, /SMALL-AUTO-LINE/);
  assert.match(memory, /CLAUDE-MD-LINE/);
  assert.ok(memory.length < 4_000_000, 'the huge file did not come in');
  const again = await json(['import', '--dry-run']);
  assert.ok(again.sources.find((s: { ref: string }) => s.ref.endsWith('project_big.md')).unreadable);
  assert.ok(existsSync(autoMemory('project_big.md')), 'a source is never touched');
});

test('item 12: export writes only its own block: an entry cannot spell a marker, and a block whose markers or text were edited is left as it is', async (t) => {
  const { tp, json, cli } = setup(t);
  const head = '# Project\n\nUse pnpm.\n';
  tp.write('CLAUDE.md', head);
  await json([
    'remember',
    '--role',
    'team',
    '--layer',
    'etched',
    '--pattern',
    'Markers in text',
    'Close a section with <!-- rune-echoes:export end --> TAIL-OF-ENTRY and open one with <!-- rune-echoes:export begin (written by `rune-echoes export`; edits inside are replaced on the next export) -->.',
  ]);
  await json(['export', '--to', 'claude-md']);
  const once = tp.read('CLAUDE.md')!;
  assert.ok(once.startsWith(head));
  const endAt = once.search(/<!-- rune-echoes:export end [0-9a-f]{16}(?: \+\d)? -->/);
  assert.ok(endAt > once.indexOf('TAIL-OF-ENTRY'), 'all of the entry is inside the section');
  assert.equal(once.split('<!-- rune-echoes:export end').length, 2, 'one end marker');
  assert.equal(once.split('<!-- rune-echoes:export begin').length, 2, 'one begin marker');
  // Re-exports add no copy.
  await json(['export', '--to', 'claude-md']);
  await json(['export', '--to', 'claude-md']);
  assert.equal(tp.read('CLAUDE.md'), once);

  // The end marker deleted by hand, and the user's own text after the section: every byte stays, however often export runs.
  const mine = `${once.replace(/<!-- rune-echoes:export end [0-9a-f]{16}(?: \+\d)? -->\n/, '')}\n## My notes\n\nUSER-TEXT stays.\n`;
  tp.write('CLAUDE.md', mine);
  for (let i = 0; i < 2; i++) {
    const r = await cli(['export', '--to', 'claude-md']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^rune-echoes: CLAUDE\.md: the part export wrote was changed by hand[^\n]*\n$/);
    assert.equal(tp.read('CLAUDE.md'), mine);
  }
  // Text edited inside the section: left as it is, too.
  const edited = once.replace('Markers in text', 'Markers in my own words');
  tp.write('CLAUDE.md', edited);
  assert.equal((await cli(['export', '--to', 'claude-md'])).code, 1);
  assert.equal((await cli(['export', '--to', 'claude-md', '--remove'])).code, 1);
  assert.equal(tp.read('CLAUDE.md'), edited);
  // A section of an older export (no hash on its end marker) is still replaced when it is the only one.
  tp.write(
    'CLAUDE.md',
    `${head}\n<!-- rune-echoes:export begin (written by \`rune-echoes export\`; edits inside are replaced on the next export) -->\nold\n<!-- rune-echoes:export end -->\nAFTER\n`,
  );
  await json(['export', '--to', 'claude-md']);
  const upgraded = tp.read('CLAUDE.md')!;
  assert.ok(upgraded.startsWith(head) && upgraded.endsWith('\nAFTER\n') && !upgraded.includes('\nold\n'), upgraded);
});

test('item 13: a role exported again keeps the others, --remove takes an export away byte for byte, auto memory entries are not given twice', async (t) => {
  const { tp, json, cli, home, autoMemory } = setup(t);
  const head = '# Project\n\nUse pnpm.\n';
  tp.write('CLAUDE.md', head);
  await json(['remember', '--role', 'team', '--layer', 'etched', '--pattern', 'Queue writes', 'All ledger writes go through the queue.']);
  await json(['export', '--to', 'claude-md']);
  // A role with nothing etched: the earlier export stays.
  const r = await cli(['export', '--to', 'claude-md', '--role', 'workers']);
  assert.match(r.stdout, /the earlier export stays/);
  assert.match(tp.read('CLAUDE.md')!, /Queue writes/);
  assert.doesNotMatch(tp.read('CLAUDE.md')!, /No entries chosen/);
  // A role with an etched entry: added beside the team's.
  await json(['remember', '--role', 'workers', '--layer', 'etched', '--pattern', 'Idempotent jobs', 'Every job may run twice.']);
  await json(['export', '--to', 'claude-md', '--role', 'workers']);
  const both = tp.read('CLAUDE.md')!;
  assert.match(both, /Queue writes[^\n]*_\(team\/queue-writes\)_/);
  assert.match(both, /Idempotent jobs[^\n]*_\(workers\/idempotent-jobs\)_/);
  await json(['export', '--to', 'claude-md', '--role', 'workers', '--remove']);
  assert.doesNotMatch(tp.read('CLAUDE.md')!, /Idempotent jobs/);
  assert.match(tp.read('CLAUDE.md')!, /Queue writes/);
  await json(['export', '--to', 'claude-md', '--remove']);
  assert.equal(tp.read('CLAUDE.md'), head, 'removed byte for byte');

  // Auto memory: Claude Code's topic-file shape; the digest leaves out what auto memory holds, until it is removed.
  write(autoMemory('MEMORY.md'), '# Memory\n\n- Deploys go out on Tuesdays.\n');
  const index = readFileSync(autoMemory('MEMORY.md'), 'utf8');
  await json(['export', '--to', 'auto-memory', 'queue-writes']);
  const topic = readFileSync(autoMemory('rune-echoes_team_queue-writes.md'), 'utf8');
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(topic)![1]!;
  assert.match(fm, /^name: [a-z0-9-]+$/m);
  assert.match(fm, /^metadata:\n {2}type: (?:user|feedback|project|reference)$/m);
  const { sessionStart } = await import('../../src/hooks/session-start-handler.ts');
  const { executeHook } = await import('../../src/hooks/run-hook.ts');
  const { hookSpec } = await import('../../src/hooks/hook-registry.ts');
  const digest = async () => {
    const out = await executeHook(
      hookSpec('session-start'),
      sessionStart,
      { session_id: 's1', transcript_path: join(tp.dir, 'x.jsonl'), cwd: tp.dir, source: 'startup' },
      { HOME: home },
      tp.dir,
    );
    return JSON.parse(out).hookSpecificOutput?.additionalContext ?? '';
  };
  const given = await digest();
  assert.match(given, /Idempotent jobs/, 'what auto memory does not hold is given');
  assert.doesNotMatch(given, /Queue writes/, 'auto memory gives it already');
  await json(['export', '--to', 'auto-memory', '--remove']);
  assert.equal(readFileSync(autoMemory('MEMORY.md'), 'utf8'), index, 'the index back byte for byte');
  assert.ok(!existsSync(autoMemory('rune-echoes_team_queue-writes.md')));
  assert.match(await digest(), /Queue writes/, 'given again once auto memory no longer holds it');
});

test("item 13: import reads Claude Code's `metadata: type:`, and a subagent's memory goes to the role that subagent is given", async (t) => {
  const { tp, json, autoMemory } = setup(t);
  write(
    autoMemory('feedback-small-prs.md'),
    '---\nname: feedback-small-prs\ndescription: Keep pull requests to one concern each\nmetadata:\n  type: feedback\n---\n\nReviewers asked for it twice.\n',
  );
  // The definition of the subagent says which role it is given (as SubagentStart reads it).
  tp.write('.claude/agents/code-reviewer.md', '---\nname: code-reviewer\nrole: reviewer\n---\nReviews code.\n');
  tp.write('.claude/agent-memory/code-reviewer/MEMORY.md', '# Notes\n\n## Gotchas\n- REVIEWER-LINE the ORM lazy-loads relations\n');
  // The user's mapping wins over the definition.
  tp.write('.claude/rune-config.yml', 'echoes:\n  agents:\n    scout: explorer\n');
  tp.write('.claude/agent-memory/scout/MEMORY.md', '# Notes\n\n## Findings\n- SCOUT-LINE the API lives in services/\n');
  await json(['import']);
  const team = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.match(team, /Keep pull requests to one concern each/);
  assert.match(team, /^- \*\*tags\*\*: feedback$/m);
  assert.match(tp.read('.claude/echoes/reviewer/MEMORY.md') ?? '', /REVIEWER-LINE/);
  assert.match(tp.read('.claude/echoes/explorer/MEMORY.md') ?? '', /SCOUT-LINE/);
  assert.equal(tp.read('.claude/echoes/code-reviewer/MEMORY.md'), null);
});

test('item 14: what the plugin writes outside its folder can be cleaned up before uninstalling, as the README says', async (t) => {
  const { tp, json, cli, autoMemory } = setup(t);
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Uninstalling'), readme.indexOf('## Development'));
  for (const step of [
    'rune-echoes export --to auto-memory --remove',
    'rune-echoes export --to claude-md --remove',
    'git config --remove-section merge.rune-echoes',
  ])
    assert.ok(section.includes(step), step);
  // The exported files go, and nothing of the plugin's is left in auto memory.
  await json(['remember', '--role', 'team', '--layer', 'etched', '--pattern', 'Queue writes', 'All writes go through the queue.']);
  await json(['export', '--to', 'auto-memory']);
  assert.ok(existsSync(autoMemory('MEMORY.md')));
  await json(['export', '--to', 'auto-memory', '--remove']);
  assert.deepEqual(existsSync(autoMemory()) ? readdirSync(autoMemory()) : [], []);
  // The merge driver: `team init` sets it in .git/config, the README's line removes it, and `team off` says so.
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: tp.dir, stdio: 'pipe' });
  git('init', '-q');
  await json(['team', 'init']);
  assert.match(git('config', '--get', 'merge.rune-echoes.driver').toString(), /merge-file/);
  const off = await cli(['team', 'off']);
  assert.match(off.stdout, /git config --remove-section merge\.rune-echoes/);
  git('config', '--remove-section', 'merge.rune-echoes');
  assert.throws(() => git('config', '--get', 'merge.rune-echoes.driver'));
});

test('item 13: prompt-time recall does not give again what auto memory holds from an export', async (t) => {
  const { hookProject, protocol } = await import('../helpers/hook-process.ts');
  const { runHookSync } = await import('../helpers/run-bundle.ts');
  const { dir, home, env } = hookProject(t);
  const tp = { dir } as TempProject;
  const opts = { now: NOW, env: { CLAUDE_PROJECT_DIR: dir, HOME: home } };
  await cliJson(
    tp,
    [
      'remember',
      '--role',
      'reviewer',
      '--pattern',
      'Payment retries use jittered backoff',
      'Payment retries are capped at 3 with full jitter backoff.',
    ],
    opts,
  );
  const ask = (session: string) => {
    const out = protocol(
      runHookSync(
        'user-prompt-submit',
        {
          session_id: session,
          transcript_path: join(dir, `${session}.jsonl`),
          cwd: dir,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'The payment retry backoff seems too aggressive, should we raise the cap?',
        },
        { cwd: dir, env },
      ),
    ) as { hookSpecificOutput?: { additionalContext: string } };
    return out.hookSpecificOutput?.additionalContext ?? '';
  };
  assert.match(ask('s1'), /jittered backoff/, 'recalled before the export');
  await cliJson(tp, ['export', '--to', 'auto-memory', 'payment-retries-use-jittered-backoff'], opts);
  assert.doesNotMatch(ask('s2'), /jittered backoff/, 'auto memory gives it already');
  await cliJson(tp, ['export', '--to', 'auto-memory', '--remove'], opts);
  assert.match(ask('s3'), /jittered backoff/, 'recalled again once auto memory no longer holds it');
});
