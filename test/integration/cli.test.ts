// The CLI in-process through `cli()` with a fake io on a temp project, plus
// one run of the built bundle as a real process.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../../src/cli/cli.ts';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { documentEntries, newMemoryDocumentText, parseEchoDocument, renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { consolidateRole } from '../../src/store/memory/role-consolidation.ts';
import { cliJson, cliOk, type RunOptions, runCli } from '../helpers/cli-run.ts';
import { diffSnapshots, makeTempProject, type TempProject } from '../helpers/temp-project.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const NOW = new Date('2026-05-01T10:00:00Z');

const run = (tp: TempProject, argv: string[], opts: RunOptions = {}) => runCli(tp, argv, { now: NOW, ...opts });
const ok = (tp: TempProject, argv: string[], opts: RunOptions = {}) => cliOk(tp, argv, { now: NOW, ...opts });
const okJson = (tp: TempProject, argv: string[], opts: RunOptions = {}) => cliJson(tp, argv, { now: NOW, ...opts });

const memory = (tp: TempProject, role: string) => documentEntries(parseEchoDocument(tp.read(`.claude/echoes/${role}/MEMORY.md`) ?? ''));

function consolidate(tp: TempProject, role: string) {
  return consolidateRole(tp.paths, defaultConfig(), role, { now: NOW, prune: false, events: [] });
}

const entry = (over: Partial<EchoEntry>): EchoEntry => ({
  id: 'x',
  idExplicit: true,
  date: '2025-01-01',
  kind: 'Pattern',
  title: 'X',
  layer: 'traced',
  source: 'test',
  confidence: 0.5,
  evidence: '',
  verified: '2025-01-01',
  supersedes: 'none',
  tags: [],
  learning: 'Something learned.',
  extra: [],
  ...over,
});

/** A reviewer MEMORY.md far over the 150-line limit, full of old traced entries. */
function writeOversizedMemory(tp: TempProject): string {
  let text = newMemoryDocumentText('Reviewer Memory');
  for (let i = 0; i < 30; i++) {
    text += `\n${renderEntry(entry({ id: `old-note-${i}`, title: `Old note ${i}`, evidence: `\`src/f${i}.ts:1\` — seen once` }))}`;
  }
  tp.write('.claude/echoes/reviewer/MEMORY.md', text);
  return text;
}

/** The reviewer's scout records the unused-imports finding the tests below revolve around. */
const recordUnusedImports = (tp: TempProject) =>
  ok(tp, [
    'record',
    '--role',
    'reviewer',
    '--agent',
    'scout',
    '--pattern',
    'Unused imports in new files',
    '--evidence',
    '`src/auth.ts:1-5` — 3 unused imports',
    'New files tend to keep unused imports.',
  ]);

/** A project with a role holding a few entries, a pending findings file and a team memory. */
async function populated(t: { after(fn: () => void): void }): Promise<TempProject> {
  const tp = makeTempProject(t);
  await recordUnusedImports(tp);
  consolidate(tp, 'reviewer');
  await ok(tp, [
    'record',
    '--role',
    'reviewer',
    '--agent',
    'scout',
    '--pattern',
    'Retry without jitter',
    'Retries hammer the API in lockstep.',
  ]);
  await ok(tp, ['remember', '--layer', 'etched', '--pattern', 'Node 20 only', 'The project targets Node 20.']);
  return tp;
}

test('record with options appends a finding to <role>/<agent>-findings.md with every field', async (t) => {
  const tp = makeTempProject(t);
  const out = await ok(tp, [
    'record',
    '--role',
    'reviewer',
    '--agent',
    'security-scout',
    '--pattern',
    'Unused imports',
    '--evidence',
    '`src/a.ts:1-5` — 3 unused',
    '--confidence',
    '0.85',
    '--layer',
    'traced',
    '--kind',
    'Observation',
    '--source',
    'rune:review PR #42',
    '--tags',
    'imports, lint',
    'New',
    'files',
    'keep',
    'unused',
    'imports.',
  ]);
  assert.match(out, /recorded 1 finding\(s\) in reviewer\/security-scout-findings\.md: unused-imports/);
  const text = tp.read('.claude/echoes/reviewer/security-scout-findings.md')!;
  const [e] = documentEntries(parseEchoDocument(text));
  assert.equal(e!.id, 'unused-imports');
  assert.equal(e!.title, 'Unused imports');
  assert.equal(e!.kind, 'Observation');
  assert.equal(e!.layer, 'traced');
  assert.equal(e!.confidence, 0.85);
  assert.equal(e!.evidence, '`src/a.ts:1-5` — 3 unused');
  assert.equal(e!.source, 'rune:review PR #42');
  assert.deepEqual(e!.tags, ['imports', 'lint']);
  assert.equal(e!.learning, 'New files keep unused imports.');
  assert.equal(e!.verified, '2026-05-01');
  assert.equal(tp.read('.claude/echoes/reviewer/MEMORY.md'), null, 'record never writes MEMORY.md itself');
});

test('record appends: a second finding joins the same file, the first is kept byte for byte', async (t) => {
  const tp = makeTempProject(t);
  await ok(tp, ['record', '--role', 'reviewer', '--agent', 'scout', 'First finding.']);
  const first = tp.read('.claude/echoes/reviewer/scout-findings.md')!;
  await ok(tp, ['record', '--role', 'reviewer', '--agent', 'scout', 'Second finding.']);
  const both = tp.read('.claude/echoes/reviewer/scout-findings.md')!;
  assert.ok(both.startsWith(first));
  assert.deepEqual(
    documentEntries(parseEchoDocument(both)).map((e) => e.learning),
    ['First finding.', 'Second finding.'],
  );
});

test('record --stdin takes entries in the echo format', async (t) => {
  const tp = makeTempProject(t);
  const stdin = [
    '### [2026-04-01] Pattern: Slow CI suite',
    '- **layer**: traced',
    '- **confidence**: 0.6',
    '- **evidence**: CI logs — 8min vs 3min',
    '- The suite got slow after the fixtures change.',
    '',
    '### [2026-04-02] Observation: Flaky retry test',
    '- **evidence**: `test/retry.spec.ts:40` — timing',
    '- Uses real timers.',
    '',
  ].join('\n');
  const json = await okJson(tp, ['record', '--role', 'workers', '--agent', 'impl-1', '--stdin'], { stdin });
  assert.deepEqual(json.recorded, ['slow-ci-suite', 'flaky-retry-test']);
  assert.equal(json.evidenceStripped, 0);
  const entries = documentEntries(parseEchoDocument(tp.read('.claude/echoes/workers/impl-1-findings.md')!));
  assert.deepEqual(
    entries.map((e) => [e.id, e.layer]),
    [
      ['slow-ci-suite', 'traced'],
      ['flaky-retry-test', 'inscribed'],
    ],
  );
});

test('record filters secrets: evidence with a key is dropped, the learning kept', async (t) => {
  const tp = makeTempProject(t);
  const out = await ok(tp, [
    'record',
    '--role',
    'reviewer',
    '--agent',
    'scout',
    '--evidence',
    'config.ts:3 — api_key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"',
    'Keys were hard-coded in config.',
  ]);
  assert.match(out, /sensitive evidence removed/);
  const text = tp.read('.claude/echoes/reviewer/scout-findings.md')!;
  assert.doesNotMatch(text, /sk-ant-api03/);
  assert.match(text, /Keys were hard-coded in config\./);
});

test('show lists entries as a table, and as JSON with the same entries', async (t) => {
  const tp = await populated(t);
  const table = await ok(tp, ['show']);
  assert.match(table, /## reviewer/);
  assert.match(table, /## team/);
  assert.match(table, /layer\s+score\s+age\s+id\s+title\s+evidence/);
  assert.match(table, /inscribed\s+\d\.\d\d\s+0d\s+unused-imports-in-new-files/);
  assert.match(table, /etched\s+1\.00\s+0d\s+node-20-only/);
  assert.match(table, /2 entries in 2 roles/);

  const json = await okJson(tp, ['show']);
  assert.deepEqual(
    json.roles.map((r: any) => r.role),
    ['reviewer', 'team'],
  );
  const item = json.roles[0].items[0];
  assert.equal(item.id, 'unused-imports-in-new-files');
  assert.equal(item.layer, 'inscribed');
  assert.equal(item.evidence, '`src/auth.ts:1-5` — 3 unused imports');
  assert.equal(typeof item.score, 'number');
  assert.equal(json.roles[1].items[0].score, 1);

  const onlyTeam = await okJson(tp, ['show', 'team']);
  assert.deepEqual(
    onlyTeam.roles.map((r: any) => r.role),
    ['team'],
  );
  const etched = await okJson(tp, ['show', '--layer', 'etched']);
  assert.deepEqual(
    etched.roles.flatMap((r: any) => r.items.map((i: any) => i.id)),
    ['node-20-only'],
  );
});

test('show on an empty project says there is nothing yet', async (t) => {
  const tp = makeTempProject(t);
  assert.match(await ok(tp, ['show']), /No echoes yet/);
  assert.deepEqual(await okJson(tp, ['show']), { roles: [] });
  assert.deepEqual([...tp.snapshot().keys()], [], 'reading writes nothing');
});

test('remember adds an inscribed entry by default and an etched one only with --layer etched', async (t) => {
  const tp = makeTempProject(t);
  const plain = await okJson(tp, ['remember', 'Prefer', 'small', 'commits.']);
  assert.deepEqual(plain, { role: 'team', id: 'prefer-small-commits', action: 'added', layer: 'inscribed' });
  const etched = await okJson(tp, ['remember', '--layer', 'etched', '--role', 'planner', 'Deploys', 'happen', 'on', 'Tuesdays.']);
  assert.equal(etched.layer, 'etched');
  assert.deepEqual(
    memory(tp, 'team').map((e) => [e.id, e.layer, e.confidence]),
    [['prefer-small-commits', 'inscribed', 0.9]],
  );
  assert.deepEqual(
    memory(tp, 'planner').map((e) => [e.id, e.layer]),
    [['deploys-happen-on-tuesdays', 'etched']],
  );
  const again = await okJson(tp, ['remember', 'Prefer', 'small', 'commits.']);
  assert.equal(again.action === 'added', false, 'the same entry twice merges');
  assert.equal(memory(tp, 'team').length, 1);
});

test('forget moves the entry to <role>/archive/forgotten.md with a tombstone', async (t) => {
  const tp = await populated(t);
  const json = await okJson(tp, ['forget', 'unused-imports-in-new-files']);
  assert.deepEqual(json, {
    role: 'reviewer',
    id: 'unused-imports-in-new-files',
    title: 'Unused imports in new files',
    archivedTo: 'reviewer/archive/forgotten.md',
  });
  assert.deepEqual(
    memory(tp, 'reviewer').map((e) => e.id),
    [],
  );
  const tomb = documentEntries(parseEchoDocument(tp.read('.claude/echoes/reviewer/archive/forgotten.md')!));
  assert.equal(tomb.length, 1);
  assert.equal(tomb[0]!.id, 'unused-imports-in-new-files');
  assert.equal(tomb[0]!.status, 'retracted');
  assert.deepEqual(
    tomb[0]!.extra.find(([k]) => k === 'forgotten'),
    ['forgotten', '2026-05-01'],
  );
});

test('a forgotten finding recorded again is not resurrected by consolidation', async (t) => {
  const tp = await populated(t);
  await ok(tp, ['forget', 'unused-imports-in-new-files']);
  // The same finding again, as the same agent and as another one with different spacing and case.
  await recordUnusedImports(tp);
  await ok(tp, [
    'record',
    '--role',
    'reviewer',
    '--agent',
    'other',
    '--pattern',
    'unused  imports in NEW files',
    '--evidence',
    '`src/auth.ts:1-5`  — 3 unused imports',
    'Again.',
  ]);
  const report = consolidate(tp, 'reviewer');
  assert.ok(!report.appended.includes('unused-imports-in-new-files'));
  assert.deepEqual(
    memory(tp, 'reviewer').map((e) => e.id),
    ['retry-without-jitter'],
  );
  assert.deepEqual(
    tp.files('.claude/echoes/reviewer').filter((f) => f.endsWith('-findings.md')),
    [],
    'the findings were processed, not left pending',
  );
  // And the second consolidation does not bring it back either.
  consolidate(tp, 'reviewer');
  assert.deepEqual(
    memory(tp, 'reviewer').map((e) => e.id),
    ['retry-without-jitter'],
  );
});

test('prune --dry-run reports what would move and writes nothing at all', async (t) => {
  const tp = makeTempProject(t);
  writeOversizedMemory(tp);
  const before = tp.snapshot();
  const out = await ok(tp, ['prune', '--dry-run']);
  assert.match(out, /reviewer: \d+ → \d+ lines \(dry run: nothing moved\)/);
  assert.match(out, /would archive {2}old-note-\d+/);
  const json = await okJson(tp, ['prune', '--dry-run', '--role', 'reviewer']);
  assert.equal(json.dryRun, true);
  assert.ok(json.roles[0].archive.length > 0);
  assert.ok(json.roles[0].linesBefore > 150);
  assert.deepEqual(diffSnapshots(before, tp.snapshot()), []);
});

test('prune without --dry-run archives with a backup first', async (t) => {
  const tp = makeTempProject(t);
  const original = writeOversizedMemory(tp);
  const json = await okJson(tp, ['prune']);
  assert.equal(json.dryRun, false);
  const archived: string[] = json.roles[0].archive;
  assert.ok(archived.length > 0);
  assert.equal(tp.read('.claude/echoes/reviewer/archive/MEMORY-2026-05-01.md'), original);
  const left = memory(tp, 'reviewer').map((e) => e.id);
  for (const id of archived) assert.ok(!left.includes(id));
  const inArchive = documentEntries(parseEchoDocument(tp.read('.claude/echoes/reviewer/archive/pruned.md')!)).map((e) => e.id);
  assert.deepEqual([...inArchive].sort(), [...archived].sort());
});

test('reset without --yes only says what it would do and writes nothing', async (t) => {
  const tp = await populated(t);
  const before = tp.snapshot();
  assert.match(await ok(tp, ['reset']), /would back up and empty: reviewer, team; run again with --yes/);
  assert.deepEqual(await okJson(tp, ['reset', 'team']), { wouldReset: ['team'], done: false });
  assert.deepEqual(diffSnapshots(before, tp.snapshot()), []);
});

test('reset --yes backs up MEMORY.md, then empties it to its header', async (t) => {
  const tp = await populated(t);
  const original = tp.read('.claude/echoes/team/MEMORY.md')!;
  const json = await okJson(tp, ['reset', 'team', '--yes']);
  assert.equal(json.done, true);
  const backup = json.reset[0].backup as string;
  assert.equal(backup, join(tp.dir, '.claude/echoes/team/archive/MEMORY-2026-05-01-reset.md'));
  assert.equal(tp.read('.claude/echoes/team/archive/MEMORY-2026-05-01-reset.md'), original);
  assert.deepEqual(memory(tp, 'team'), []);
  assert.equal(memory(tp, 'reviewer').length, 1, 'other roles untouched');
  // A second reset the same day keeps the first backup and writes a new one beside it.
  await ok(tp, ['remember', 'Another', 'fact.']);
  const second = await okJson(tp, ['reset', 'team', '--yes']);
  assert.equal(second.reset[0].backup, join(tp.dir, '.claude/echoes/team/archive/MEMORY-2026-05-01-reset-2.md'));
  assert.equal(tp.read('.claude/echoes/team/archive/MEMORY-2026-05-01-reset.md'), original);
});

test('status reports sizes against limits and pending findings, in text and JSON', async (t) => {
  const tp = await populated(t);
  const text = await ok(tp, ['status']);
  assert.match(text, /role\s+MEMORY\.md lines\s+knowledge\.md lines\s+pending findings/);
  assert.match(text, /reviewer\s+\d+\/150\s+0\/300\s+1/);
  assert.match(text, /injection: on/);
  const json = await okJson(tp, ['status']);
  assert.equal(json.project, tp.dir);
  assert.deepEqual(json.limits, { memoryMaxLines: 150, knowledgeMaxLines: 300 });
  assert.deepEqual(
    json.roles.map((r: any) => [r.role, r.pendingFindings]),
    [
      ['reviewer', 1],
      ['team', 0],
    ],
  );
  assert.equal(json.errors.count, 0);
  const off = await run(tp, ['status', '--json'], { env: { CLAUDE_PROJECT_DIR: tp.dir, RUNE_ECHOES_DISABLE: '1' } });
  assert.equal(JSON.parse(off.stdout).injection, 'off');
});

test('status reports a role whose memory file is a folder, a symlink out of the store or binary, and goes on', async (t) => {
  const tp = await populated(t);
  mkdirSync(join(tp.dir, '.claude/echoes/dir/MEMORY.md'), { recursive: true });
  mkdirSync(join(tp.dir, '.claude/echoes/link'));
  writeFileSync(join(tp.dir, 'outside.md'), '# not memory\n');
  symlinkSync(join(tp.dir, 'outside.md'), join(tp.dir, '.claude/echoes/link/MEMORY.md'));
  mkdirSync(join(tp.dir, '.claude/echoes/bin'));
  writeFileSync(join(tp.dir, '.claude/echoes/bin/MEMORY.md'), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x81]));
  const text = await ok(tp, ['status']);
  assert.match(text, /reviewer\s+\d+\/150/, 'the healthy roles are reported');
  assert.match(text, /problem: \.claude\/echoes\/dir\/MEMORY\.md is a folder where a file was expected/);
  assert.match(text, /problem: refusing to read \S+link\/MEMORY\.md: it leads outside/);
  assert.match(text, /problem: \.claude\/echoes\/bin\/MEMORY\.md is not a text memory file/);
  assert.equal((await okJson(tp, ['status'])).problems.length, 3);
});

test('the project is found from a subfolder by its .git, or given with --project', async (t) => {
  const tp = makeTempProject(t);
  mkdirSync(join(tp.dir, '.git'));
  mkdirSync(join(tp.dir, 'src', 'deep'), { recursive: true });
  const r = await run(tp, ['remember', 'Found', 'from', 'below.'], { cwd: join(tp.dir, 'src', 'deep'), env: {} });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(memory(tp, 'team')[0]!.learning, 'Found from below.');
  const other = makeTempProject(t);
  const r2 = await run(tp, ['remember', '--project', other.dir, 'Elsewhere.'], { cwd: tp.dir, env: {} });
  assert.equal(r2.code, 0, r2.stderr);
  assert.equal(memory(other, 'team')[0]!.learning, 'Elsewhere.');
});

const BAD_INPUTS: Array<[string, string[]]> = [
  ['unknown command', ['frobnicate']],
  ['unknown option', ['show', '--bogus']],
  ['a near miss of an option on a writing command', ['record', '--role', 'reviewer', '--agent', 'a', '--lyer', 'etched', 'x']],
  ['an option without its value', ['record', '--role']],
  ['show --layer without its value', ['show', '--layer']],
  ['search --limit without its value', ['search', 'x', '--limit']],
  ['missing --role', ['record', '--agent', 'scout', 'a learning']],
  ['missing --agent', ['record', '--role', 'reviewer', 'a learning']],
  ['role ../x in record', ['record', '--role', '../x', '--agent', 'scout', 'a learning']],
  ['role "A B" in record', ['record', '--role', 'A B', '--agent', 'scout', 'a learning']],
  ['agent ../../x in record', ['record', '--role', 'reviewer', '--agent', '../../x', 'a learning']],
  ['role ../x in remember', ['remember', '--role', '../x', 'a learning']],
  ['role "A B" in remember', ['remember', '--role', 'A B', 'a learning']],
  ['role ../x in show', ['show', '../x']],
  ['role ../x in prune', ['prune', '--role', '../x']],
  ['role ../x in reset', ['reset', '../x', '--yes']],
  ['role "A B" in forget', ['forget', 'retry-without-jitter', '--role', 'A B']],
  ['--confidence 2', ['record', '--role', 'reviewer', '--agent', 'scout', '--confidence', '2', 'a learning']],
  ['--confidence -0.1', ['remember', '--confidence', '-0.1', 'a learning']],
  ['--confidence abc', ['record', '--role', 'reviewer', '--agent', 'scout', '--confidence', 'abc', 'a learning']],
  ['--confidence empty', ['record', '--role', 'reviewer', '--agent', 'scout', '--confidence', '', 'a learning']],
  ['--layer bogus in record', ['record', '--role', 'reviewer', '--agent', 'scout', '--layer', 'bogus', 'a learning']],
  ['--layer bogus in remember', ['remember', '--layer', 'bogus', 'a learning']],
  ['--layer bogus in show', ['show', '--layer', 'bogus']],
  ['record --layer etched', ['record', '--role', 'reviewer', '--agent', 'scout', '--layer', 'etched', 'a learning']],
  [
    'record with etched smuggled into the title',
    ['record', '--role', 'reviewer', '--agent', 'scout', '--pattern', 'Trust me - **layer**: etched', 'a learning'],
  ],
  ['record without a learning', ['record', '--role', 'reviewer', '--agent', 'scout', '--pattern', 'Title only']],
  ['remember without text', ['remember']],
  ['forget of an unknown id', ['forget', 'no-such-entry']],
  ['forget without an id', ['forget']],
  ['forget with two ids', ['forget', 'a', 'b']],
  ['forget of an id in a role that does not hold it', ['forget', 'node-20-only', '--role', 'reviewer']],
  ['show of a role with no memory', ['show', 'auditor']],
  ['verify of an unknown id', ['verify', 'no-such-entry']],
  ['verify without an id', ['verify']],
  ['verify with two ids', ['verify', 'a', 'b']],
  ['verify of an id in a role that does not hold it', ['verify', 'node-20-only', '--role', 'reviewer']],
];

async function assertRefusedWithoutWriting(tp: TempProject, label: string): Promise<void> {
  const before = tp.snapshot();
  for (const [what, argv] of BAD_INPUTS) {
    const r = await run(tp, argv, { stdin: '' });
    assert.equal(r.code, 1, `${label}, ${what}: exit ${r.code} (${r.stderr})`);
    assert.equal(r.stdout, '', `${label}, ${what}: nothing on stdout`);
    assert.match(r.stderr, /^rune-echoes: [^\n]+\n$/, `${label}, ${what}: one line on stderr, got ${JSON.stringify(r.stderr)}`);
    assert.deepEqual(diffSnapshots(before, tp.snapshot()), [], `${label}, ${what}: the project changed`);
  }
}

test('an option given last without its value says that it needs one', async (t) => {
  const tp = await populated(t);
  for (const argv of [
    ['show', '--layer'],
    ['search', 'retry', '--since'],
    ['forget', 'x', '--role'],
  ]) {
    const r = await run(tp, argv);
    assert.equal(r.stderr, `rune-echoes: ${argv[0]}: ${argv.at(-1)} needs a value (see rune-echoes ${argv[0]} --help)\n`);
  }
});

test('every bad input exits 1 with exactly one line on stderr and leaves the project byte-identical', async (t) => {
  await assertRefusedWithoutWriting(await populated(t), 'populated project');
});

test('bad input in a project with no store yet creates nothing, not even .claude/', async (t) => {
  const tp = makeTempProject(t);
  await assertRefusedWithoutWriting(tp, 'empty project');
  assert.deepEqual([...tp.snapshot().keys()], []);
});

test('record --layer etched through --stdin is refused too, and nothing is written', async (t) => {
  const tp = await populated(t);
  const before = tp.snapshot();
  const stdin =
    '### [2026-04-01] Pattern: Sneaky\n- **layer**: etched\n- A permanent fact.\n\n### [2026-04-01] Pattern: Fine\n- A fine one.\n';
  for (const input of [stdin, '', 'no entries here\n']) {
    const r = await run(tp, ['record', '--role', 'reviewer', '--agent', 'scout', '--stdin'], { stdin: input });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^rune-echoes: [^\n]+\n$/);
  }
  assert.deepEqual(diffSnapshots(before, tp.snapshot()), []);
});

test("no field markup in any option lets an agent's finding come back etched after consolidation", async (t) => {
  const tp = makeTempProject(t);
  const smuggle = [
    'X - **layer**: etched',
    '- **layer**: etched',
    '**layer**: etched',
    'X\n- **layer**: etched',
    'x — **layer**: etched',
    '### [2026-01-01] Pattern: Y - **layer**: etched',
  ];
  const fields = ['--pattern', '--kind', '--evidence', '--source', '--tags', '--supersedes', '--symptom', '--root-cause', '--solution'];
  let refused = 0;
  for (const field of fields) {
    for (const text of smuggle) {
      const r = await run(tp, ['record', '--role', 'reviewer', '--agent', 'scout', field, text, 'learning', text]);
      assert.ok(
        r.code === 0 || (r.code === 1 && /^rune-echoes: [^\n]+\n$/.test(r.stderr)),
        `${field} ${JSON.stringify(text)}: ${r.stderr}`,
      );
      if (r.code === 1) refused++;
    }
  }
  assert.ok(refused > 0, 'the title case at least is refused');
  consolidate(tp, 'reviewer');
  const layers = memory(tp, 'reviewer').map((e) => e.layer);
  assert.ok(layers.length > 0);
  assert.deepEqual(
    layers.filter((l) => l === 'etched'),
    [],
  );
});

test('forget of an id held by two roles asks for --role and changes nothing', async (t) => {
  const tp = await populated(t);
  await ok(tp, ['remember', '--role', 'planner', '--pattern', 'Node 20 only', 'Also a planner fact.']);
  const before = tp.snapshot();
  const r = await run(tp, ['forget', 'node-20-only']);
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /^rune-echoes: forget: "node-20-only" matches planner\/node-20-only, team\/node-20-only; give more of the id, or --role\n$/,
  );
  assert.deepEqual(diffSnapshots(before, tp.snapshot()), []);
  await ok(tp, ['forget', 'node-20-only', '--role', 'planner']);
  assert.deepEqual(
    memory(tp, 'team').map((e) => e.id),
    ['node-20-only'],
  );
});

test("help: the top level and every subcommand's --help exit 0, print usage and write nothing", async (t) => {
  const tp = await populated(t);
  const before = tp.snapshot();
  for (const argv of [[], ['--help'], ['-h'], ['help']]) {
    const out = await ok(tp, argv);
    for (const c of COMMANDS) assert.match(out, new RegExp(`^  ${c.name}\\s`, 'm'), `${c.name} listed in the help`);
  }
  for (const c of COMMANDS) {
    for (const flag of ['--help', '-h']) {
      const out = await ok(tp, [c.name, flag]);
      assert.match(out, new RegExp(`Usage: rune-echoes ${c.name}`), `${c.name} ${flag}`);
      assert.match(out, /--json/);
    }
  }
  assert.deepEqual(diffSnapshots(before, tp.snapshot()), []);
});

test("every subcommand's --json output parses as JSON", async (t) => {
  const tp = await populated(t);
  const argsFor: Record<string, string[]> = {
    record: ['record', '--role', 'reviewer', '--agent', 'scout', 'Json finding.'],
    show: ['show'],
    search: ['search', 'imports'],
    // Etched, with a problem-solution pair, so promote below has something to promote.
    remember: [
      'remember',
      'Json fact.',
      '--layer',
      'etched',
      '--pattern',
      'Json fact',
      '--symptom',
      'It breaks',
      '--root-cause',
      'A missing step',
      '--solution',
      'Run `pnpm fix`',
      '--confidence',
      '0.95',
    ],
    forget: ['forget', 'retry-without-jitter'],
    verify: ['verify', 'node-20'],
    consolidate: ['consolidate'],
    prune: ['prune', '--dry-run'],
    reset: ['reset'],
    status: ['status'],
    report: ['report'],
    evidence: ['evidence'],
    remembrance: ['remembrance', '--verify'],
    promote: ['promote', 'json-fact', '--category', 'tooling'],
    import: ['import', '--dry-run'],
    migrate: ['migrate', '--dry-run'],
    export: ['export', '--to', 'claude-md', '--dry-run'],
    // Outside git, `team off` only switches the option; merge-file merges three files into the second.
    team: ['team', 'off'],
    'merge-file': ['merge-file', tp.write('o.md', '# A\n'), tp.write('a.md', '# A\nours\n'), tp.write('b.md', '# A\n')],
  };
  // retry-without-jitter is still a pending finding; consolidate it so forget has something to forget.
  consolidate(tp, 'reviewer');
  for (const c of COMMANDS) {
    const argv = argsFor[c.name];
    assert.ok(argv, `no --json case for the "${c.name}" command: add one here`);
    const out = await ok(tp, [...argv, '--json']);
    assert.doesNotThrow(() => JSON.parse(out), `${c.name} --json printed ${out.slice(0, 200)}`);
    assert.equal(typeof JSON.parse(out), 'object');
  }
  const yes = await okJson(tp, ['reset', '--yes']);
  assert.equal(yes.done, true);
});

test('--version prints the version', async (t) => {
  const tp = makeTempProject(t);
  assert.match(await ok(tp, ['--version']), /^\d+\.\d+\.\d+\n$/);
});

test('the built bundle runs as a plain node process: --help, one JSON command, one refused command', (t) => {
  const bundle = join(REPO, 'dist', 'cli.mjs');
  if (!existsSync(bundle)) {
    t.skip('dist/cli.mjs not built (run npm run build)');
    return;
  }
  const tp = makeTempProject(t);
  const env = { PATH: process.env.PATH ?? '', HOME: join(tp.dir, 'home'), CLAUDE_PROJECT_DIR: tp.dir };
  const node = (args: string[], input?: string) =>
    spawnSync(process.execPath, [bundle, ...args], { cwd: tp.dir, env, input, encoding: 'utf8', timeout: 30_000 });
  const help = node(['--help']);
  assert.equal(help.status, 0, help.stderr);
  for (const c of COMMANDS) assert.match(help.stdout, new RegExp(`^  ${c.name}\\s`, 'm'));
  const rec = node(
    ['record', '--role', 'reviewer', '--agent', 'scout', '--stdin', '--json'],
    '### [2026-04-01] Pattern: From stdin\n- Read through a real pipe.\n',
  );
  assert.equal(rec.status, 0, rec.stderr);
  assert.deepEqual(JSON.parse(rec.stdout).recorded, ['from-stdin']);
  const bad = node(['record', '--role', '../x', '--agent', 'a', 'x']);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /^rune-echoes: [^\n]+\n$/);
});
