// Team memory with real git: what `team init` sets up and untracks, what
// `status` says about a clone, the merge driver's contract as git runs it,
// `team off`, relevance that stays personal, and a memory file that still
// holds conflict markers from a pull before the driver was installed.
// Hooks run in-process (executeHook); git and the merge driver run for real.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { preCompact } from '../../src/hooks/pre-compact-handler.ts';
import { executeHook, type HookHandler } from '../../src/hooks/run-hook.ts';
import { sessionEnd } from '../../src/hooks/session-end-handler.ts';
import { sessionStart } from '../../src/hooks/session-start-handler.ts';
import { turnEnd } from '../../src/hooks/turn-end.ts';
import { ignoringRules } from '../../src/store/team/git-repo.ts';
import { BUILT_CLI, type Run, runCli } from '../helpers/cli-run.ts';
import { type Clone, gitIn, makeOrigin, type Origin } from '../helpers/git-clones.ts';
import { diffSnapshots, snapshotTree, type TempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const NOW = new Date('2026-05-01T10:00:00Z');

function setup(t: { after(fn: () => void): void }): Origin {
  const origin = makeOrigin();
  t.after(() => origin.cleanup());
  return origin;
}

async function cli(origin: Origin, clone: Clone | string, ...argv: string[]): Promise<Run> {
  const dir = typeof clone === 'string' ? clone : clone.dir;
  return runCli({ dir } as TempProject, argv, { env: { CLAUDE_PROJECT_DIR: dir, HOME: origin.env.HOME }, now: NOW });
}

async function ok(origin: Origin, clone: Clone, ...argv: string[]): Promise<string> {
  const r = await cli(origin, clone, ...argv);
  assert.equal(r.code, 0, `${argv.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

async function hook(origin: Origin, clone: Clone, name: string, handler: HookHandler, input: Record<string, unknown>): Promise<string> {
  return executeHook(
    hookSpec(name),
    handler,
    { cwd: clone.dir, ...input },
    // SessionEnd's budget raised as Claude Code's setting does: its steps finish however busy the machine is.
    { HOME: origin.env.HOME, CLAUDE_PROJECT_DIR: clone.dir, CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' },
    clone.dir,
    { now: NOW },
  );
}

/** A whole session as the hooks see it: start, a compaction, end (and the next start). Leaves EPHEMERAL.md, an archive log, ARCHIVE.md and usage.jsonl. */
async function session(origin: Origin, clone: Clone, id: string, request: string, next = true): Promise<string> {
  const transcript = join(origin.root, `${id}.jsonl`);
  new TranscriptBuilder(transcript, id, clone.dir)
    .user(request)
    .tool('Read', { file_path: join(clone.dir, 'README.md') })
    .assistant('Done: the retry is capped.');
  const input = { session_id: id, transcript_path: transcript };
  const start = await hook(origin, clone, 'session-start', sessionStart, { ...input, source: 'startup' });
  await hook(origin, clone, 'pre-compact', preCompact, { ...input, trigger: 'manual' });
  await hook(origin, clone, 'session-end', sessionEnd, { ...input, reason: 'other' });
  // The next start is given the hand-off (an empty store gave nothing) and logs it in usage.jsonl.
  if (next)
    await hook(origin, clone, 'session-start', sessionStart, {
      session_id: `${id}-next`,
      transcript_path: `${transcript}.next`,
      source: 'startup',
    });
  return start;
}

function seed(origin: Origin, config = 'echoes:\n  version_controlled: true\n'): Clone {
  const a = origin.clone('a');
  a.write('README.md', '# Project\n');
  a.write('.claude/rune-config.yml', config);
  a.git('add', '-A');
  a.git('commit', '--quiet', '-m', 'start');
  a.git('push', '--quiet', 'origin', 'main');
  return a;
}

const commitAll = (c: Clone, message: string) => {
  c.git('add', '-A');
  c.git('commit', '--quiet', '-m', message);
};

const OLD_STORE_GITIGNORE = '# Rune Echoes bookkeeping\n.state/\n.locks/\n.log\nmemories/.locks/\n';

test('two clones that each ran one session no longer conflict on the first pull: session state is never committed', async (t) => {
  const origin = setup(t);
  const a = seed(origin);
  // A store committed under the old rules: its .gitignore kept only the hooks' bookkeeping out.
  a.write('.claude/echoes/.gitignore', OLD_STORE_GITIGNORE);
  commitAll(a, 'old store');
  a.git('push', '--quiet', 'origin', 'main');

  // The failure the issue measured, replayed: the same sessions, committed the way the old rules allowed.
  const [oldA, oldB, newA, newB] = ['old-a', 'old-b', 'new-a', 'new-b'].map((n) => origin.clone(n)) as [Clone, Clone, Clone, Clone];
  for (const [c, request] of [
    [oldA, 'Fix the login bug'],
    [oldB, 'Tidy the changelog'],
  ] as const) {
    await session(origin, c, `sess-old-${c.name}`, request);
    c.write('.claude/echoes/.gitignore', OLD_STORE_GITIGNORE);
    commitAll(c, `session in ${c.name}`);
  }
  const failed = oldB.tryGit('pull', '--no-edit', oldA.dir, 'main');
  const conflicted = [...failed.out.matchAll(/CONFLICT \(add\/add\): Merge conflict in (\S+)/g)].map((m) => m[1]).sort();
  assert.deepEqual(conflicted, [
    '.claude/echoes/ARCHIVE.md',
    '.claude/echoes/EPHEMERAL.md',
    '.claude/echoes/memories/archive-log-001.md',
    '.claude/echoes/usage.jsonl',
  ]);

  // Now, from the same start: the hooks bring the store's .gitignore up to date, so the same sessions commit nothing personal.
  await session(origin, newA, 'sess-a', 'Fix the login bug', false);
  await session(origin, newB, 'sess-b', 'Tidy the changelog', false);
  for (const c of [newA, newB]) {
    assert.ok(existsSync(join(c.dir, '.claude/echoes/memories/archive-log-001.md')), `${c.name} has its archive log`);
    assert.ok(readFileSync(join(c.dir, '.claude/echoes/.gitignore'), 'utf8').startsWith(OLD_STORE_GITIGNORE), 'old lines kept');
    commitAll(c, `session in ${c.name}`);
    assert.deepEqual(
      c.git('show', '--name-only', '--format=', 'HEAD').split('\n').filter(Boolean),
      ['.claude/echoes/.gitignore'],
      'only the updated .gitignore is committed',
    );
  }
  newA.git('push', '--quiet', 'origin', 'main');
  const pulled = newB.tryGit('pull', '--no-edit', 'origin', 'main');
  assert.equal(pulled.code, 0, pulled.out);
  assert.doesNotMatch(pulled.out, /CONFLICT/);
  assert.match(readFileSync(join(newA.dir, '.claude/echoes/EPHEMERAL.md'), 'utf8'), /login bug/);
  assert.match(readFileSync(join(newB.dir, '.claude/echoes/EPHEMERAL.md'), 'utf8'), /changelog/);
});

test('team init untracks personal files an older store committed, keeps them on disk, and says so', async (t) => {
  const origin = setup(t);
  const a = seed(origin);
  await session(origin, a, 'sess-1', 'Fix the login bug');
  a.write('.claude/echoes/.gitignore', '.state/\n.locks/\n.log\n');
  commitAll(a, 'everything, as before');
  const before = a.git('ls-files', '.claude/echoes').split('\n').filter(Boolean);
  assert.ok(before.includes('.claude/echoes/EPHEMERAL.md'));

  const out = await ok(origin, a, 'team', 'init');
  const untracked = [
    '.claude/echoes/ARCHIVE.md',
    '.claude/echoes/EPHEMERAL.md',
    '.claude/echoes/memories/archive-log-001.md',
    '.claude/echoes/usage.jsonl',
  ];
  for (const f of untracked) {
    assert.ok(out.includes(f), `the report names ${f}`);
    assert.ok(existsSync(join(a.dir, f)), `${f} stays on disk`);
  }
  assert.match(out, /no longer tracked by git \(committed before; your copies stay on disk\)/);
  assert.equal(a.git('ls-files', '.claude/echoes/EPHEMERAL.md', '.claude/echoes/usage.jsonl', '.claude/echoes/memories'), '');
  const gitignore = readFileSync(join(a.dir, '.claude/echoes/.gitignore'), 'utf8');
  assert.ok(gitignore.startsWith('.state/\n.locks/\n.log\n'), 'the old lines keep their bytes');
  assert.match(gitignore, /^\/EPHEMERAL\.md$/m);

  const json = JSON.parse((await cli(origin, a, 'team', 'init', '--json')).stdout);
  assert.deepEqual(json.untracked, [], 'a second run has nothing left to untrack');
  assert.equal(json.switchedOn, false);
  assert.equal(json.driver.previous, json.driver.command);
});

test('team init outside a git work tree refuses in one line and writes nothing', async (t) => {
  const origin = setup(t);
  const dir = join(origin.root, 'plain');
  mkdirSync(dir);
  writeFileSync(join(dir, 'notes.md'), 'x\n');
  const before = snapshotTree(dir);
  const r = await cli(origin, dir, 'team', 'init');
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^rune-echoes: .* is not inside a git work tree; team memory shares through git/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  assert.deepEqual(diffSnapshots(before, snapshotTree(dir)), []);
  const bad = await cli(origin, dir, 'team', 'join');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /team takes one action: init/);
});

test('team init switches the option on in an existing config, keeping its comments and other keys', async (t) => {
  const origin = setup(t);
  const a = seed(origin, '# our settings\necho:\n  x: 1\nechoes:\n  budget_tokens: 900 # small\n  version_controlled: false\n');
  const out = await ok(origin, a, 'team', 'init');
  assert.match(out, /echoes\.version_controlled switched on/);
  assert.equal(
    readFileSync(join(a.dir, '.claude/rune-config.yml'), 'utf8'),
    '# our settings\necho:\n  x: 1\nechoes:\n  budget_tokens: 900 # small\n  version_controlled: true\n',
  );
});

test('status says when this clone lacks the merge driver, when its path is gone, and when it is installed', async (t) => {
  const origin = setup(t);
  const a = seed(origin);
  await ok(origin, a, 'team', 'init');
  commitAll(a, 'share');
  a.git('push', '--quiet', 'origin', 'main');
  const b = origin.clone('b');
  let status = await ok(origin, b, 'status');
  assert.match(status, /^team: on · merge driver: MISSING in this clone — run `rune-echoes team init` once/m);
  assert.equal(JSON.parse((await cli(origin, b, 'status', '--json')).stdout).team.driver.state, 'missing');

  await ok(origin, b, 'team', 'init');
  status = await ok(origin, b, 'status');
  assert.match(status, /^team: on · merge driver: installed$/m);

  b.git('config', 'merge.rune-echoes.driver', `'${process.execPath}' '/nowhere/rune/dist/cli.mjs' merge-file %O %A %B %P`);
  status = await ok(origin, b, 'status');
  assert.match(
    status,
    /^team: on · merge driver: BROKEN: \/nowhere\/rune\/dist\/cli\.mjs no longer exists — run `rune-echoes team init` again$/m,
  );

  // A clone whose memory is private says nothing about teams.
  const solo = origin.clone('solo');
  solo.write('.claude/rune-config.yml', 'echoes:\n  version_controlled: false\n');
  solo.git('rm', '-r', '--cached', '--quiet', '.claude/echoes');
  assert.doesNotMatch(await ok(origin, solo, 'status'), /^team:/m);
});

test('the merge driver as git runs it: merged into %A with exit 0; hand-written conflicts in %A with exit 1', async (t) => {
  const origin = setup(t);
  const dir = join(origin.root, 'driver');
  mkdirSync(dir);
  const header = '<!-- echo-schema: v2 -->\n# Team Memory\n\n## Notes\nshared\n\n';
  const entry = (id: string) =>
    `### [2026-04-01] Pattern: ${id}\n- **id**: ${id}\n- **layer**: inscribed\n- **confidence**: 0.8\n- **verified**: 2026-04-01\n- About ${id}.\n`;
  const files = (o: string, a: string, b: string) => {
    writeFileSync(join(dir, '.merge_file_O'), o);
    writeFileSync(join(dir, '.merge_file_A'), a);
    writeFileSync(join(dir, '.merge_file_B'), b);
  };
  const driver = (...extra: string[]) =>
    spawnSync(process.execPath, [BUILT_CLI, 'merge-file', '.merge_file_O', '.merge_file_A', '.merge_file_B', ...extra], {
      cwd: dir,
      encoding: 'utf8',
      env: origin.env,
    });
  files(header + entry('one'), `${header + entry('one')}\n${entry('two')}`, `${header + entry('one')}\n${entry('three')}`);
  let r = driver('.claude/echoes/team/MEMORY.md');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr, '');
  const merged = readFileSync(join(dir, '.merge_file_A'), 'utf8');
  assert.deepEqual(
    documentEntries(parseEchoDocument(merged)).map((e) => e.id),
    ['one', 'two', 'three'],
  );
  assert.ok(merged.startsWith(`${header + entry('one')}\n${entry('two')}`), 'ours keeps its bytes; theirs follows');

  files(header, header.replace('shared', 'ours'), header.replace('shared', 'theirs'));
  r = driver('.claude/echoes/team/MEMORY.md');
  assert.equal(r.status, 1);
  assert.match(
    r.stderr,
    /^rune-echoes: \.claude\/echoes\/team\/MEMORY\.md: hand-written text changed differently on both sides: between conflict markers from line 5$/m,
  );
  assert.match(readFileSync(join(dir, '.merge_file_A'), 'utf8'), /^<<<<<<< ours\nours\n=======\ntheirs\n>>>>>>> theirs\n$/m);

  // A version that is not text: %A is left as it was and git is told there is a conflict.
  files(header, header, Buffer.from([0xff, 0xfe, 0x00, 0x01]).toString('latin1'));
  writeFileSync(join(dir, '.merge_file_B'), Buffer.from([0xff, 0xfe, 0x00, 0x01]));
  r = driver();
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^rune-echoes: the their version is not UTF-8 text/);
  assert.equal(readFileSync(join(dir, '.merge_file_A'), 'utf8'), header);

  r = spawnSync(process.execPath, [BUILT_CLI, 'merge-file', 'only-one'], { cwd: dir, encoding: 'utf8', env: origin.env });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^rune-echoes: merge-file takes the files git names: %O %A %B/);
});

test('team off switches the option off, puts the .gitignore line back, moves nothing and says what git still tracks', async (t) => {
  const origin = setup(t);
  const a = seed(origin);
  await ok(origin, a, 'remember', 'Deploys go through the queue');
  await ok(origin, a, 'team', 'init');
  commitAll(a, 'share');
  const store = snapshotTree(join(a.dir, '.claude/echoes'));
  const out = await ok(origin, a, 'team', 'off');
  assert.match(out, /^Team memory is off: echoes\.version_controlled switched off/);
  assert.match(out, /git still tracks 3 files under \.claude\/echoes\//);
  assert.match(readFileSync(join(a.dir, '.claude/rune-config.yml'), 'utf8'), /version_controlled: false/);
  assert.match(readFileSync(join(a.dir, '.gitignore'), 'utf8'), /^\.claude\/echoes\/$/m);
  assert.deepEqual(diffSnapshots(store, snapshotTree(join(a.dir, '.claude/echoes'))), []);
  assert.match(await ok(origin, a, 'status'), /^team: off, but git still tracks 3 files under \.claude\/echoes\//m);
});

test('relevance stays personal: sessions that are given and use entries change no shared file', async (t) => {
  const origin = setup(t);
  const a = seed(origin);
  await ok(origin, a, 'remember', '--evidence', '`README.md:1` — the title', 'The README title names the product');
  await ok(origin, a, 'remember', '--layer', 'etched', 'Node 20 only');
  await ok(origin, a, 'team', 'init');
  commitAll(a, 'share');
  const start = await session(origin, a, 'sess-use', 'Update the README title');
  assert.match(start, /Node 20 only/, 'the entries were injected');
  const usage = readFileSync(join(a.dir, '.claude/echoes/usage.jsonl'), 'utf8');
  assert.match(usage, /"event":"injected"/);
  assert.match(usage, /"event":"used","ids":\["team#the-readme-title-names-the-product"\]/);
  assert.equal(a.git('status', '--porcelain'), '', 'no shared file changed');
});

test('a memory file with conflict markers from before the driver is read, reported with its lines, and left alone by consolidation', async (t) => {
  const origin = setup(t);
  const a = seed(origin);
  // Shared without the driver: the store committed, no merge attributes, no git config.
  await ok(origin, a, 'remember', 'Deploys go through the queue');
  commitAll(a, 'share');
  a.git('push', '--quiet', 'origin', 'main');
  const b = origin.clone('b');
  await ok(origin, a, 'remember', 'Clone A: retries are capped at three');
  await ok(origin, b, 'remember', 'Clone B: tests need a fake clock');
  commitAll(a, 'a');
  commitAll(b, 'b');
  a.git('push', '--quiet', 'origin', 'main');
  const pull = b.tryGit('pull', '--no-edit', 'origin', 'main');
  assert.match(pull.out, /CONFLICT \(content\): Merge conflict in \.claude\/echoes\/team\/MEMORY\.md/);
  // Someone commits the file as git left it.
  commitAll(b, 'merge, markers and all');
  const memoryPath = join(b.dir, '.claude/echoes/team/MEMORY.md');
  const conflicted = readFileSync(memoryPath, 'utf8');
  const lines = conflicted.split('\n');
  // git interleaves two appended entries line by line: several regions, entries cut in half.
  const regions = lines.flatMap((l, i) =>
    l.startsWith('<<<<<<<') ? [[i + 1, lines.findIndex((m, j) => j > i && m.startsWith('>>>>>>>')) + 1]] : [],
  );
  assert.ok(regions.length >= 1 && regions.every(([open, close]) => close! > open!), JSON.stringify(regions));

  // Read without crashing: both sides' entries are shown.
  const show = await ok(origin, b, 'show', '--json');
  const titles = JSON.parse(show).roles.flatMap((r: { items: Array<{ title: string }> }) => r.items.map((e) => e.title));
  assert.ok(
    titles.includes('Clone A: retries are capped at three') && titles.includes('Clone B: tests need a fake clock'),
    titles.join(', '),
  );

  // Reported by status, with the lines.
  const status = await ok(origin, b, 'status');
  for (const [open, close] of regions)
    assert.ok(
      status.includes(`conflict: .claude/echoes/team/MEMORY.md:${open} — unresolved merge conflict, lines ${open}–${close}`),
      status,
    );
  const json = JSON.parse((await cli(origin, b, 'status', '--json')).stdout);
  assert.deepEqual(
    json.conflicts.map((c: { file: string; line: number }) => [c.file, c.line]),
    regions.map(([open]) => ['.claude/echoes/team/MEMORY.md', open]),
  );

  // Not made worse: a pending finding waits, the file keeps its bytes, the hook logs why.
  const finding =
    '### [2026-05-01] Pattern: Flaky clock\n- **layer**: traced\n- **confidence**: 0.5\n- **evidence**: `test/a.ts:1`\n- Use a fake clock.\n';
  b.write('.claude/echoes/team/scout-findings.md', finding);
  await hook(origin, b, 'stop', (ctx) => turnEnd(ctx, true), { session_id: 's', stop_hook_active: false });
  await hook(origin, b, 'session-end', sessionEnd, { session_id: 's' });
  assert.equal(readFileSync(memoryPath, 'utf8'), conflicted);
  assert.equal(readFileSync(join(b.dir, '.claude/echoes/team/scout-findings.md'), 'utf8'), finding);
  assert.match(
    readFileSync(join(b.dir, '.claude/echoes/.log'), 'utf8'),
    /consolidation: team: .*MEMORY\.md has an unresolved merge conflict \(markers from lines? [\d, ]+\); nothing written/,
  );
  const remember = await cli(origin, b, 'remember', 'Another lesson');
  assert.equal(remember.code, 1);
  assert.match(remember.stderr, /^rune-echoes: .*has an unresolved merge conflict/);
  assert.equal(readFileSync(memoryPath, 'utf8'), conflicted);

  // Once a person resolves it, the waiting finding goes in.
  writeFileSync(memoryPath, lines.filter((l) => !/^(<{7}|={7}|>{7})/.test(l)).join('\n'));
  await hook(origin, b, 'stop', (ctx) => turnEnd(ctx, true), { session_id: 's', stop_hook_active: false });
  assert.match(readFileSync(memoryPath, 'utf8'), /Flaky clock/);
  assert.ok(!existsSync(join(b.dir, '.claude/echoes/team/scout-findings.md')));
});

test('conflict markers in an archive or knowledge.md do not hold up MEMORY.md: appends go after them, compression waits', async (t) => {
  const origin = setup(t);
  const a = seed(origin, 'echoes:\n  version_controlled: true\n  knowledge_max_lines: 12\n');
  await ok(origin, a, 'remember', 'Deploys go through the queue');
  await ok(origin, a, 'remember', 'Retries are capped at three');
  const tombstones = '<!-- echo-schema: v2 -->\n# Team Memory — forgotten entries\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> x\n';
  a.write('.claude/echoes/team/archive/forgotten.md', tombstones);
  const knowledge = `<!-- echo-schema: v2 -->\n# Team Memory — knowledge\n\n<<<<<<< HEAD\n${'- a knowledge line\n'.repeat(12)}=======\n- theirs\n>>>>>>> x\n`;
  a.write('.claude/echoes/team/knowledge.md', knowledge);

  await ok(origin, a, 'forget', 'deploys-go-through-the-queue');
  const after = readFileSync(join(a.dir, '.claude/echoes/team/archive/forgotten.md'), 'utf8');
  assert.ok(after.startsWith(tombstones), 'the conflicted text is left as it was');
  assert.match(after.slice(tombstones.length), /- \*\*id\*\*: deploys-go-through-the-queue/);
  await ok(origin, a, 'prune');
  assert.equal(readFileSync(join(a.dir, '.claude/echoes/team/knowledge.md'), 'utf8'), knowledge, 'compression waits for the person');
  const status = await ok(origin, a, 'status');
  assert.match(status, /^conflict: \.claude\/echoes\/team\/archive\/forgotten\.md:4 — /m);
  assert.match(status, /^conflict: \.claude\/echoes\/team\/knowledge\.md:4 — /m);
});

test('team init says so when a .gitignore still keeps all of .claude/ out of git', async (t) => {
  const origin = setup(t);
  const a = seed(origin);
  a.write('.gitignore', '.claude/\nnode_modules/\n');
  const out = await ok(origin, a, 'team', 'init');
  assert.match(out, /Warning: git still ignores the shared memory files, so nothing would be shared: \.gitignore:1:\.claude\//);
  const json = JSON.parse((await cli(origin, a, 'team', 'init', '--json')).stdout);
  assert.deepEqual(json.blockedBy, ['.gitignore:1:.claude/']);
  // The fix the warning gives works.
  a.write('.gitignore', '.claude/*\n!.claude/echoes/\n!.claude/rune-config.yml\nnode_modules/\n');
  assert.doesNotMatch(await ok(origin, a, 'team', 'init'), /Warning/);
});

test('a `!pattern` that re-includes a path is not reported as a rule holding it back', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rune-ignore-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  gitIn(dir, ['init', '--quiet']);
  writeFileSync(join(dir, '.gitignore'), '*.md\n!MEMORY.md\n*.log\n');
  assert.deepEqual(ignoringRules(dir, ['MEMORY.md']), []);
  assert.deepEqual(ignoringRules(dir, ['notes.md']), ['.gitignore:1:*.md']);
  assert.deepEqual(ignoringRules(dir, ['x.log']), ['.gitignore:3:*.log']);
});
