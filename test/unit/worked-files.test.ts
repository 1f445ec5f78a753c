// The files the work keeps coming back to and the commands it keeps running (SPEC §6a): counted per
// working session, weighted to the recent, named at a start once two sessions touched or ran them, less
// what the hand-off already names.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildDigest, WORKED_FILES_LINE, WORKED_LINE } from '../../src/core/recall/digest.ts';
import {
  commandsComingBack,
  countsAsWorked,
  emptyWorkedFiles,
  filesComingBack,
  filesOfRecentSessions,
  MAX_COMMANDS,
  MAX_NAMED,
  MAX_RECENT,
  namesCommand,
  parseWorkedFiles,
  ranCommands,
  updateWorkedFiles,
} from '../../src/core/recall/worked-files.ts';
import type { SummaryCommand } from '../../src/core/session/summary-model.ts';

const none = () => false;

test('a file is named once two sessions touched it; one session read twice (a compaction, then the end) counts once', () => {
  let ledger = updateWorkedFiles(emptyWorkedFiles(), ['src/a.ts', 'src/b.ts'], 's1');
  ledger = updateWorkedFiles(ledger, ['src/a.ts', 'src/b.ts', 'src/c.ts'], 's1');
  assert.equal(ledger.seq, 1);
  assert.equal(ledger.files['src/a.ts']!.sessions, 1);
  assert.deepEqual(filesComingBack(ledger, none), [], 'one session is not a habit');
  ledger = updateWorkedFiles(ledger, ['src/a.ts'], 's2');
  assert.equal(ledger.seq, 2);
  assert.deepEqual(filesComingBack(ledger, none), ['src/a.ts']);
  assert.deepEqual(
    filesComingBack(ledger, (p) => p === 'src/a.ts'),
    [],
    'the hand-off names it already',
  );
});

test('recent sessions weigh more than old ones; deleted files leave; system, temporary and Claude Code’s own files and the memory itself never count', () => {
  let ledger = emptyWorkedFiles();
  // old.ts: three early sessions; new.ts: the last two.
  for (const s of ['s1', 's2', 's3']) ledger = updateWorkedFiles(ledger, ['src/old.ts'], s);
  for (const s of ['s4', 's5', 's6', 's7', 's8', 's9', 's10']) ledger = updateWorkedFiles(ledger, ['README.md'], s);
  for (const s of ['s11', 's12']) ledger = updateWorkedFiles(ledger, ['src/new.ts'], s);
  assert.deepEqual(filesComingBack(ledger, none), ['README.md', 'src/new.ts', 'src/old.ts']);
  ledger = updateWorkedFiles(ledger, [], 's13', ['src/new.ts']);
  assert.deepEqual(filesComingBack(ledger, none), ['README.md', 'src/old.ts'], 'a deleted file is not named');
  for (const p of [
    '/etc/hosts',
    '/tmp/out.log',
    '/var/folders/xy/T/a.txt',
    'C:/Users/u/AppData/Local/Temp/x.txt',
    '../other/x.ts',
    'C:\\x\\y.ts',
    '.claude/echoes/team/MEMORY.md',
    '/home/u/.claude/EPHEMERAL.md',
    '/home/u/.claude/memories/archive-log-001.md',
    '/home/u/.claude/plans/p.md',
    '/home/u/.claude/projects/-home-u-app/5d1c2a7e.jsonl',
    '/home/u/.claude/projects/-home-u-app/5d1c2a7e/tool-results/x.txt',
    'C:/Users/u/.claude/projects/d--work/memory/MEMORY.md',
    '/home/u/.claude/todos/t.json',
    '.claude/rules/testing.md',
    '.claude/agent-memory/reviewer/MEMORY.md',
    '/home/u/.claude/agent-memory-local/planner/notes.md',
    '/home/u/.claude/plugins/cache/mkt/plugin/README.md',
    '.claude/claude.md',
    'CLAUDE.md',
    'docs/CLAUDE.md',
    '.claude/CLAUDE.md',
    'src/a\nteam#retry-cap\n/twin_service.py',
    'src/tab\there.ts',
  ])
    assert.equal(countsAsWorked(p), false, p);
  // The work may live beside the project (a sibling folder, a home config): named as it was spelled. So may a
  // skill, the project's Claude Code settings and an auto-memory topic file, which sessions read when they need them.
  for (const p of [
    'src/CLAUDE-notes.md',
    'X:/03_ACG/Custom_Addons/ticket_system/models/ticket.py',
    '/home/u/work/lib/a.py',
    '~/.zshrc',
    '.claude/skills/bug-analysis/SKILL.md',
    '.claude/settings.json',
    '/home/u/.claude/agents/reviewer.md',
    'C:/Users/u/.claude/projects/d--work/memory/okki_lessons.md',
    '/home/u/.claude/projects/-home-u-app/memory/topics/db.md',
    // A file whose name only begins like one of Claude Code's folders is the project's.
    '.claude/ideas.md',
    '.claude/plans.md',
    '.claude/debugging-notes.md',
  ])
    assert.equal(countsAsWorked(p), true, p);
});

test('at most a few files are named, and the ledger stays bounded', () => {
  let ledger = emptyWorkedFiles();
  const files = Array.from({ length: 400 }, (_, i) => `src/f${i}.ts`);
  for (const s of ['s1', 's2']) ledger = updateWorkedFiles(ledger, files, s);
  assert.ok(Object.keys(ledger.files).length <= 300);
  assert.equal(filesComingBack(ledger, none).length, MAX_NAMED);
});

test('a torn or foreign ledger reads as empty, and bad records are dropped', () => {
  assert.deepEqual(parseWorkedFiles('{"seq": 3, "files": {"a'), emptyWorkedFiles());
  assert.deepEqual(parseWorkedFiles('[]'), emptyWorkedFiles());
  const mixed = parseWorkedFiles(
    JSON.stringify({ seq: 2, files: { 'a.ts': { sessions: 2, weight: 1.8, seq: 2, last: 's2' }, 'b.ts': { sessions: 'x' } } }),
  );
  assert.deepEqual(Object.keys(mixed.files), ['a.ts']);
});

test('the digest names them in one line after the last session, whole names as many as fit', () => {
  const long = `src/${'deep/'.repeat(30)}file.ts`;
  const digest = buildDigest({
    lastSession: '# Last session — 2026-11-27\n## Asked\n- fix the importer',
    etched: [],
    lessons: [],
    counts: { entries: 0, archiveLogs: 1, solutions: 0 },
    budgetTokens: 1500,
    workedFiles: ['src/importer.ts', long, ...Array.from({ length: 30 }, (_, i) => `src/module-${i}/index.ts`)],
  });
  const line = digest.text.split('\n').find((l) => l.startsWith('Files the work keeps coming back to:'));
  assert.ok(line, digest.text);
  assert.match(line, /src\/importer\.ts, src\/…\/(?:deep\/)+file\.ts, /, 'a long path is shortened in its middle');
  assert.ok(line.length <= WORKED_FILES_LINE);
  assert.ok(digest.text.indexOf('fix the importer') < digest.text.indexOf(line), 'after the last session');
  assert.equal(digest.withoutSession?.text.includes('keeps coming back'), false, 'a resumed session had them already');
});

test('the other files of the last few sessions: not named by the hand-off or the line of files coming back, the latest first, in room left', () => {
  let ledger = emptyWorkedFiles();
  ledger = updateWorkedFiles(ledger, ['src/old.ts', 'src/shared.ts'], 's1');
  ledger = updateWorkedFiles(ledger, ['src/two-back.ts', 'src/shared.ts', 'src/also-two-back.ts'], 's2');
  ledger = updateWorkedFiles(ledger, ['src/one-back.ts'], 's3');
  ledger = updateWorkedFiles(ledger, ['src/last.ts', 'src/last-unnamed.ts'], 's4');
  const coming = filesComingBack(ledger, none);
  assert.deepEqual(coming, ['src/shared.ts']);
  const handOff = (p: string) => p === 'src/last.ts';
  assert.deepEqual(filesOfRecentSessions(ledger, handOff, coming), [
    'src/last-unnamed.ts',
    'src/one-back.ts',
    'src/also-two-back.ts',
    'src/two-back.ts',
  ]);
  assert.ok(!filesOfRecentSessions(ledger, handOff, coming).includes('src/old.ts'), 'three sessions before the last: too old');
  const many = Array.from({ length: 20 }, (_, i) => `src/file-${i}.ts`);
  assert.equal(filesOfRecentSessions(updateWorkedFiles(ledger, many, 's5'), none, []).length, MAX_RECENT);

  const input = {
    lastSession: '# Last session — 2026-11-27\n## Asked\n- fix the importer',
    etched: [],
    lessons: [],
    counts: { entries: 0, archiveLogs: 1, solutions: 0 },
    budgetTokens: 1500,
    workedFiles: ['src/shared.ts'],
    recentFiles: ['src/one-back.ts', 'src/two-back.ts'],
  };
  const digest = buildDigest(input);
  const line = digest.text.split('\n').find((l) => l.startsWith('Other files the last few sessions worked on:'));
  assert.equal(line, 'Other files the last few sessions worked on: src/one-back.ts, src/two-back.ts');
  assert.deepEqual(digest.namedFiles, ['src/shared.ts', 'src/one-back.ts', 'src/two-back.ts'], 'prompt recall names them no more');
  assert.equal(digest.withoutSession?.text.includes('Other files'), false, 'a resumed session had them already');
  const full = buildDigest({
    ...input,
    lastSession: `# Last session — 2026-11-27\n## Asked\n${'- a long request about the importer and its tests\n'.repeat(200)}`,
    budgetTokens: 400,
  });
  assert.ok(!full.text.includes('Other files'), 'no room left: the line gives way, never the hand-off');
});

const cmd = (command: string, failed = false): SummaryCommand => ({ command, failed, count: 1 });

test('the commands that count: passed, neither a look nor a file chore (sh, cmd or PowerShell); each by its key, shown up to a quote or pipe', () => {
  const ran = ranCommands([
    cmd('npm run typecheck'),
    cmd('pip install requests', true),
    cmd('ls -la src'),
    cmd('git status'),
    cmd('cd web && npm run build'),
    cmd('rm -rf dist'),
    cmd('mkdir -p out'),
    cmd('git commit -m "fix: the importer"'),
    cmd("python3 -c 'import sys; print(sys.path)'"),
    cmd(`node scripts/${'long-name-'.repeat(12)}.js --all`),
    cmd('cat <<EOF > notes.md'),
    cmd('npm run lint 2>&1 | head -100'),
    cmd('curl -s http://localhost:3000/api/health 2>/dev/null || echo down'),
    cmd('git add \\ …'),
    cmd('npm test; echo done'),
    cmd('docker compose up -d db'),
    cmd('Remove-Item -Recurse -Force dist'),
    cmd('Copy-Item a.txt b.txt'),
    cmd('del /q out\\*.log'),
    cmd('& "C:\\Program Files\\nodejs\\npm.cmd" run build'),
    cmd('gh auth login --with-token [REDACTED:github-token]'),
    cmd('tool "[REDACTED:openai-key]"'),
  ]);
  assert.deepEqual(
    ran.map((r) => r.key),
    [
      'npm run typecheck',
      'npm run build',
      'git commit',
      'python3',
      `node scripts/${'long-name-'.repeat(12)}.js`,
      'npm run lint',
      'curl http://localhost:3000/api/health',
      'git add',
      'npm test',
      'docker compose up',
      'npm run build',
    ],
  );
  const shown = (key: string) => ran.find((r) => r.key === key)!.shown;
  assert.equal(shown('npm run lint'), 'npm run lint', 'what only shapes its output is left out');
  assert.equal(shown('curl http://localhost:3000/api/health'), 'curl -s http://localhost:3000/api/health');
  assert.equal(shown('git add'), 'git add', 'a line continued');
  assert.equal(shown('npm test'), 'npm test');
  assert.equal(shown('git commit'), 'git commit -m …', 'a message is not shown');
  assert.equal(shown('python3'), 'python3 -c …');
  assert.ok(ran.find((r) => r.key.startsWith('node '))!.shown.length <= 80);
  assert.equal(
    ran
      .filter((r) => r.key === 'npm run build')
      .map((r) => r.shown)
      .join(' | '),
    'cd web && npm run build | npm run build',
    'a program by its path is named by its name',
  );
});

test('a run is one habit by its program and what it runs: another script of the same interpreter is another habit', () => {
  let ledger = emptyWorkedFiles();
  ledger = updateWorkedFiles(ledger, [], 's1', [], ranCommands([cmd('node scripts/migrate-2024.js'), cmd('docker compose up -d db')]));
  ledger = updateWorkedFiles(ledger, [], 's2', [], ranCommands([cmd('node scripts/fix-typo.js'), cmd('docker compose down -v')]));
  assert.deepEqual(commandsComingBack(ledger, none), [], 'two scripts run once each, `up` once and `down` once: no habit');
  ledger = updateWorkedFiles(ledger, [], 's3', [], ranCommands([cmd('node scripts/fix-typo.js --dry-run'), cmd('docker compose up db')]));
  assert.deepEqual(commandsComingBack(ledger, none).sort(), ['docker compose up db', 'node scripts/fix-typo.js --dry-run']);
});

test('a command is named once two sessions ran it, by its latest run, unless the hand-off names it', () => {
  let ledger = updateWorkedFiles(emptyWorkedFiles(), [], 's1', [], [{ key: 'npm run seed', shown: 'npm run seed -- --small' }]);
  // A second capture of the same session (a compaction, then the end) counts once.
  ledger = updateWorkedFiles(ledger, ['src/a.ts'], 's1', [], [{ key: 'npm run seed', shown: 'npm run seed -- --tiny' }]);
  assert.equal(ledger.seq, 1);
  assert.equal(ledger.commands!['npm run seed']!.sessions, 1);
  assert.equal(ledger.commands!['npm run seed']!.shown, 'npm run seed -- --tiny', 'its run brought up to date');
  assert.deepEqual(commandsComingBack(ledger, none), [], 'one session is not a habit');
  ledger = updateWorkedFiles(ledger, [], 's2', [], [{ key: 'npm run seed', shown: 'npm run seed' }]);
  assert.equal(ledger.seq, 2);
  assert.deepEqual(commandsComingBack(ledger, none), ['npm run seed'], 'its latest run');
  const handOff = '## Commands\n- `npm run seed` (×2)';
  assert.deepEqual(
    commandsComingBack(ledger, (f) => namesCommand(handOff, f)),
    [],
  );
  // Whole words in code: `node` is not in `node_modules`, `npm run build` is not `npm run build:prod`, prose names nothing.
  assert.equal(namesCommand('removed `node_modules`', 'node'), false);
  assert.equal(namesCommand('ran `npm run build:prod`', 'npm run build'), false);
  assert.equal(namesCommand('ran `node  scripts/x.js`', 'node'), true);
  assert.equal(namesCommand('make sure the importer runs', 'make'), false);
  assert.equal(namesCommand('- `cd web && npm run build` (×2)', 'npm run build'), true);
});

test('at most a few commands are named, the command ledger stays bounded, and a ledger from before commands reads', () => {
  let ledger = emptyWorkedFiles();
  const many = Array.from({ length: 150 }, (_, i) => ({ key: `make t${i}`, shown: `make t${i}` }));
  for (const s of ['s1', 's2']) ledger = updateWorkedFiles(ledger, [], s, [], many);
  assert.ok(Object.keys(ledger.commands ?? {}).length <= 100);
  assert.equal(commandsComingBack(ledger, none).length, MAX_COMMANDS);
  const old = parseWorkedFiles(JSON.stringify({ seq: 2, files: { 'a.ts': { sessions: 2, weight: 1.8, seq: 2, last: 's2' } } }));
  assert.equal(old.commands, undefined);
  assert.deepEqual(commandsComingBack(old, none), []);
  const torn = parseWorkedFiles(
    JSON.stringify({
      seq: 2,
      files: {},
      commands: { go: { sessions: 2, weight: 1, seq: 2, last: 's2' }, make: { sessions: 2, weight: 1, seq: 2, last: 's2', shown: 'make' } },
    }),
  );
  assert.deepEqual(Object.keys(torn.commands ?? {}), ['make'], 'a record without what it shows is dropped');
});

test('the digest names the commands in one line after the files, and a resumed session is not told again', () => {
  const digest = buildDigest({
    lastSession: '# Last session — 2026-11-27\n## Asked\n- fix the importer',
    etched: [],
    lessons: [],
    counts: { entries: 0, archiveLogs: 1, solutions: 0 },
    budgetTokens: 1500,
    workedFiles: ['src/importer.ts'],
    workedCommands: ['npm run seed', 'docker compose up -d db', ...Array.from({ length: 60 }, (_, i) => `make target-${i}`)],
  });
  const lines = digest.text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Commands the work keeps running:'));
  assert.ok(at > 0, digest.text);
  assert.match(lines[at]!, /^Commands the work keeps running: `npm run seed`, `docker compose up -d db`, `make target-0`/);
  assert.ok(lines[at]!.length <= WORKED_LINE);
  assert.ok(lines[at - 1]!.startsWith('Files the work keeps coming back to:'));
  assert.equal(digest.withoutSession?.text.includes('keeps running'), false);
});
