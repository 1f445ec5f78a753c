// `rune-echoes migrate` and `rune-echoes export` on temporary projects
// (issue 12): backups first, a report of every change, nothing the second
// time; export writes only its marked part and its own topic files, updates
// them in place, and import never brings them back.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { claudeProjectSlug } from '../../src/store/adopt/memory-sources.ts';
import { cliJson, runCli } from '../helpers/cli-run.ts';
import { REPO } from '../helpers/run-bundle.ts';
import { diffSnapshots, makeTempProject, snapshotTree, type TempProject } from '../helpers/temp-project.ts';

const REAL = join(REPO, '..', 'shared', 'realdata', 'memory');
const NOW = new Date('2026-11-23T10:00:00Z');
const env = (tp: TempProject) => ({ CLAUDE_PROJECT_DIR: tp.dir, HOME: join(tp.dir, 'home') });
const cli = (tp: TempProject, argv: string[]) => runCli(tp, argv, { now: NOW, env: env(tp) });
const json = (tp: TempProject, argv: string[]) => cliJson(tp, argv, { now: NOW, env: env(tp) });

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

test('migrate --dry-run reports every change and writes nothing; the real run backs up first; a second run changes nothing', async (t) => {
  if (!existsSync(REAL)) return t.skip('realdata not present');
  const tp = makeTempProject(t);
  const original = readFileSync(join(REAL, 'vinhnxv__rune__.claude__echoes__planner__MEMORY.md'), 'utf8');
  tp.write('.claude/echoes/planner/MEMORY.md', original);
  tp.write('.claude/rune-config.yml', 'echoes:\n  renames:\n    rune:devise: rune:plan\n');
  await cli(tp, ['status']); // the parsed config is cached once, by any command
  const before = snapshotTree(tp.dir);
  const dry = await cli(tp, ['migrate', '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.deepEqual(diffSnapshots(before, snapshotTree(tp.dir)), [], 'the dry run wrote nothing');
  assert.match(dry.stdout, /^Migrate \(dry run: nothing written\) — schema v2, renames: rune:devise → rune:plan$/m);
  assert.match(dry.stdout, /^planner\/MEMORY\.md: 31 changes \(would back up first\)$/m);
  assert.match(dry.stdout, /^ {2}line 1: added schema header <!-- echo-schema: v2 -->$/m);
  assert.match(
    dry.stdout,
    /^ {2}line 33 \(dual-figma-mcp-provider-integration\): source "`rune:devise 20260301-155151`" → "`rune:plan 20260301-155151`"$/m,
  );

  const real = await json(tp, ['migrate']);
  assert.equal(real.files.length, 1);
  assert.equal(real.files[0].backup, 'planner/archive/MEMORY-2026-11-23-migrate.md');
  assert.equal(tp.read('.claude/echoes/planner/archive/MEMORY-2026-11-23-migrate.md'), original, 'the backup is the file as it was');
  const migrated = tp.read('.claude/echoes/planner/MEMORY.md')!;
  assert.ok(migrated.startsWith('<!-- echo-schema: v2 -->\n# Planner Echoes\n'));
  assert.doesNotMatch(migrated, /rune:devise/);
  // Only id lines, the header and renamed source lines differ; every learning line is as it was.
  const removed = original.split('\n').filter((l) => !migrated.split('\n').includes(l));
  assert.ok(
    removed.every((l) => /^\*\*Source\*\*: `rune:devise/.test(l)),
    removed.join('\n'),
  );

  const afterFirst = snapshotTree(tp.dir);
  const again = await cli(tp, ['migrate']);
  assert.match(again.stdout, /Everything is up to date: nothing to change\./);
  assert.deepEqual(diffSnapshots(afterFirst, snapshotTree(tp.dir)), [], 'the second run wrote nothing, not even a backup');
});

test('migrate renames in the archives too, never in backups; a bad --rename is refused and nothing is written', async (t) => {
  const tp = makeTempProject(t);
  const entry = (source: string) =>
    `### [2026-03-01] Pattern: Retry loop\n- **id**: retry-loop\n- **layer**: inscribed\n- **source**: ${source}\n- **confidence**: 0.8\n- forge-warden saw it.\n`;
  tp.write('.claude/echoes/reviewer/MEMORY.md', `<!-- echo-schema: v2 -->\n# Reviewer Memory\n\n${entry('forge-warden')}`);
  tp.write('.claude/echoes/reviewer/archive/pruned.md', `# Reviewer Memory — archived entries\n\n${entry('forge-warden')}`);
  tp.write('.claude/echoes/reviewer/archive/MEMORY-2026-01-01.md', entry('forge-warden'));
  const before = snapshotTree(tp.dir);
  for (const argv of [
    ['migrate', '--rename', 'forge-warden'],
    ['migrate', '--rename', 'a=b', '--rename', 'b=c'],
  ]) {
    const r = await cli(tp, argv);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^rune-echoes: [^\n]+\n$/);
  }
  assert.deepEqual(diffSnapshots(before, snapshotTree(tp.dir)), []);
  const report = await json(tp, ['migrate', '--rename', 'forge-warden=forge-keeper']);
  assert.deepEqual(
    report.files.map((f: { file: string }) => f.file),
    ['reviewer/MEMORY.md', 'reviewer/archive/pruned.md'],
  );
  assert.match(tp.read('.claude/echoes/reviewer/MEMORY.md')!, /- \*\*source\*\*: forge-keeper\n/);
  assert.match(tp.read('.claude/echoes/reviewer/MEMORY.md')!, /- forge-warden saw it\./, 'the learning keeps its words');
  assert.match(tp.read('.claude/echoes/reviewer/archive/pruned.md')!, /- \*\*source\*\*: forge-keeper\n/);
  assert.match(
    tp.read('.claude/echoes/reviewer/archive/MEMORY-2026-01-01.md')!,
    /- \*\*source\*\*: forge-warden\n/,
    'backups are left as saved',
  );
});

test('export --to claude-md writes a marked section, updates it in place, and leaves every other byte', async (t) => {
  const tp = makeTempProject(t);
  await json(tp, [
    'remember',
    '--role',
    'team',
    '--layer',
    'etched',
    '--pattern',
    'Node 20 only',
    'The service runs on Node 20; do not use newer APIs.',
  ]);
  await json(tp, ['remember', '--role', 'team', '--pattern', 'Flaky login test', 'Start the clock inside the test.']);
  const head = '# Project\n\nUse pnpm.\n';
  const tail = '\n## Commands\n\n- pnpm test\n';
  tp.write('CLAUDE.md', head);
  const dry = await cli(tp, ['export', '--to', 'claude-md', '--dry-run']);
  assert.match(dry.stdout, /would be updated: CLAUDE\.md/);
  assert.equal(tp.read('CLAUDE.md'), head);
  const first = await json(tp, ['export', '--to', 'claude-md']);
  assert.deepEqual(
    first.entries.map((e: { id: string }) => e.id),
    ['node-20-only'],
    'etched entries by default',
  );
  const text = tp.read('CLAUDE.md')!;
  assert.ok(text.startsWith(head));
  assert.match(text, /^## Team memory \(Rune Echoes, 2026-11-23\)$/m);
  assert.match(text, /^- \*\*Node 20 only\*\* — The service runs on Node 20; do not use newer APIs\. _\(team\/node-20-only\)_$/m);
  assert.doesNotMatch(text, /Flaky login test/);
  // The user adds text after the section; a re-run with more entries replaces the section only.
  tp.write('CLAUDE.md', `${text}${tail}`);
  await json(tp, ['export', '--to', 'claude-md', '--layer', 'inscribed']);
  const again = tp.read('CLAUDE.md')!;
  assert.ok(again.startsWith(head) && again.endsWith(tail), again);
  assert.equal(again.split('rune-echoes:export begin').length, 2, 'one section, replaced in place');
  assert.match(again, /Flaky login test/);
  assert.doesNotMatch(again, /Node 20 only/);
  // Import never brings the section back.
  const imported = await json(tp, ['import', 'claude-md', '--dry-run']);
  assert.equal(imported.sources[0].entries, 0);
});

test('export --to auto-memory writes topic files and index lines, removes its own stale ones, and import skips them', async (t) => {
  const tp = makeTempProject(t);
  const dir = join(tp.dir, 'home', '.claude', 'projects', claudeProjectSlug(tp.dir), 'memory');
  write(join(dir, 'MEMORY.md'), '# Memory\n\n## Notes\n- Deploys go out on Tuesdays.\n');
  write(join(dir, 'feedback_logger.md'), '---\nname: Logger\ndescription: Use the Logger\ntype: feedback\n---\n\nNo console.log.\n');
  const userTopic = readFileSync(join(dir, 'feedback_logger.md'));
  await json(tp, ['import']);
  await json(tp, [
    'remember',
    '--role',
    'team',
    '--layer',
    'etched',
    '--pattern',
    'Queue ledger writes',
    'All ledger writes go through the queue.',
  ]);
  await json(tp, ['remember', '--role', 'team', '--layer', 'etched', '--pattern', 'UTC everywhere', 'Store and compare times in UTC.']);
  const out = await json(tp, ['export', '--to', 'auto-memory']);
  assert.equal(out.entries.length, 2);
  const names = readdirSync(dir).sort();
  assert.deepEqual(names, [
    'MEMORY.md',
    'feedback_logger.md',
    'rune-echoes_team_queue-ledger-writes.md',
    'rune-echoes_team_utc-everywhere.md',
  ]);
  const index = readFileSync(join(dir, 'MEMORY.md'), 'utf8');
  assert.ok(index.startsWith('# Memory\n\n## Notes\n- Deploys go out on Tuesdays.\n'));
  assert.match(
    index,
    /^- \[Queue ledger writes\]\(rune-echoes_team_queue-ledger-writes\.md\) — All ledger writes go through the queue\.$/m,
  );
  assert.match(
    readFileSync(join(dir, 'rune-echoes_team_utc-everywhere.md'), 'utf8'),
    // Claude Code's own shape (2.1.330): a kebab-case name, and the type under metadata.
    /^name: rune-echoes-team-utc-everywhere\ndescription: "Store and compare times in UTC\."\nmetadata:\n {2}type: project\n {2}rune_echoes_export: "team\/utc-everywhere"\n---\n\n# UTC everywhere\n/m,
  );
  assert.deepEqual(readFileSync(join(dir, 'feedback_logger.md')), userTopic, 'a topic file export did not write is never touched');
  // What export wrote is not memory to adopt, and import does not read it back.
  assert.doesNotMatch((await cli(tp, ['status'])).stdout, /memory to adopt/);
  const again = await json(tp, ['import', '--dry-run']);
  assert.ok(
    again.sources.every((s: { fresh: number }) => s.fresh === 0),
    JSON.stringify(again.sources),
  );
  // Only one entry chosen now: the other topic file goes, the index block shrinks in place.
  const second = await json(tp, ['export', '--to', 'auto-memory', 'utc']);
  assert.deepEqual(
    second.files.map((f: { action: string }) => f.action),
    ['unchanged', 'removed', 'updated'],
  );
  assert.ok(!existsSync(join(dir, 'rune-echoes_team_queue-ledger-writes.md')));
  assert.doesNotMatch(readFileSync(join(dir, 'MEMORY.md'), 'utf8'), /Queue ledger writes/);
});

test('export refuses what it cannot do with one line and writes nothing', async (t) => {
  const tp = makeTempProject(t);
  await json(tp, ['remember', '--role', 'team', '--layer', 'etched', 'Node 20 only.']);
  const before = snapshotTree(tp.dir);
  for (const argv of [
    ['export'],
    ['export', '--to', 'wiki'],
    ['export', '--to', 'claude-md', 'no-such-id'],
    ['export', '--to', 'claude-md', '--layer', 'gold'],
  ]) {
    const r = await cli(tp, argv);
    assert.equal(r.code, 1, argv.join(' '));
    assert.match(r.stderr, /^rune-echoes: [^\n]+\n$/);
  }
  assert.deepEqual(diffSnapshots(before, snapshotTree(tp.dir)), []);
});

test('export with nothing chosen creates no CLAUDE.md and no auto memory; an existing CLAUDE.md keeps its section', async (t) => {
  const tp = makeTempProject(t);
  await json(tp, ['remember', '--role', 'team', 'Not etched, so not exported.']);
  const report = await json(tp, ['export', '--to', 'claude-md']);
  assert.deepEqual(report.files, []);
  assert.equal(existsSync(join(tp.dir, 'CLAUDE.md')), false);
  await json(tp, ['export', '--to', 'auto-memory']);
  assert.equal(existsSync(join(tp.dir, 'home', '.claude', 'projects', claudeProjectSlug(tp.dir), 'memory', 'MEMORY.md')), false);
});
