// The replay benchmark's measures on small hand-made inputs: what counts as
// naming a file, a command or an error; need coverage and its ceiling;
// injection use; captured entries judged against labels; and what the replay
// reads from a history folder and a session's lines.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { handOffPart, loadHistory, neededCommand, projectPath, sessionActivity } from '../helpers/history-replay.ts';
import {
  type CaptureLabels,
  capturePrecision,
  coverageSummary,
  type Injection,
  judgeEntry,
  lessonsFound,
  mentionsCommand,
  mentionsError,
  mentionsFile,
  needItems,
  type SessionTrace,
  type Use,
  useItems,
  useSummary,
} from '../helpers/replay-metrics.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

test('a file is named by its path or its name with its folder, never inside a longer name', () => {
  assert.ok(mentionsFile('- edited: src/auth/client.ts', 'src/auth/client.ts'));
  assert.ok(mentionsFile('see `auth/client.ts:12`', 'src/auth/client.ts'));
  assert.ok(mentionsFile('Files: package.json.', 'package.json'));
  assert.ok(!mentionsFile('the client.ts file', 'src/auth/client.ts'));
  assert.ok(!mentionsFile('edited src/auth/client.tsx', 'src/auth/client.ts'));
  assert.ok(!mentionsFile('edited myauth/client.ts', 'src/auth/client.ts'));
});

test('a command family is named as a whole: npm run build is not npm run build:prod', () => {
  assert.ok(mentionsCommand('- `npm run build` (×2)', 'npm run build'));
  assert.ok(mentionsCommand('run npm  run build first', 'npm run build'));
  assert.ok(!mentionsCommand('- `npm run build:prod`', 'npm run build'));
  assert.ok(!mentionsCommand('pnpm run build', 'npm run build'));
  assert.ok(!mentionsCommand('anything', ''));
});

test('an error is named by its line, its key, or every word of its key on one line', () => {
  const err = {
    key: "npm error cannot read properties of null reading 'matches'",
    line: "npm error Cannot read properties of null (reading 'matches')",
  };
  assert.ok(mentionsError("Fix: npm error Cannot read properties of null (reading 'matches') → rm -rf node_modules", err));
  assert.ok(mentionsError("when npm cannot read properties of null ('matches'), reinstall: reading the lock fails", err));
  assert.ok(!mentionsError('npm error: cannot read the file', err));
  // The words must stand on one line.
  assert.ok(!mentionsError("npm cannot read properties\nof null, reading 'matches'", err));
});

const use = (kind: Use['kind'], key: string, at: number, line?: string): Use => ({ kind, key, at, ...(line ? { line } : {}) });
const inject = (at: number, text: string, extra: Partial<Injection> = {}): Injection => ({
  at,
  via: at < 0 ? 'session-start' : 'prompt',
  text,
  handOff: '',
  entries: [],
  ...extra,
});
const session = (id: string, uses: Use[], injections: Injection[] = [], worked = true, said: SessionTrace['said'] = []): SessionTrace => ({
  id,
  worked,
  uses,
  injections,
  said,
});

test('need coverage: what an earlier session used, named before its first use; the ceiling is the previous working session', () => {
  const sessions = [
    session('a', [
      use('file', 'src/a.ts', 3),
      use('command', 'npm test', 5),
      use('error', 'boom went the build', 6, 'Boom went the build'),
    ]),
    session('idle', [], [], false),
    session(
      'b',
      [
        use('file', 'src/a.ts', 4),
        use('command', 'npm test', 2),
        use('command', 'npm run lint', 8),
        use('error', 'boom went the build', 9),
      ],
      [inject(-1, 'Files:\n- edited: src/a.ts'), inject(7, 'Boom went the build: run it twice')],
    ),
    session('c', [use('command', 'npm run lint', 1), use('file', 'src/a.ts', 2)], [inject(1, 'npm run lint')]),
  ];
  const items = needItems(sessions);
  const got = items.map((i) => `${i.session} ${i.kind} ${i.key} ${i.covered ? 'covered' : 'missed'} ${i.inPrevious ? 'prev' : ''}`.trim());
  assert.deepEqual(got, [
    'b file src/a.ts covered prev',
    'b command npm test missed prev',
    'b error boom went the build covered prev',
    // Injected at line 1, used at line 1: not before its use.
    'c command npm run lint missed prev',
    'c file src/a.ts missed prev',
  ]);
  const s = coverageSummary(items);
  assert.deepEqual(s.all, { hit: 2, of: 5 });
  assert.deepEqual(s.ceiling, { hit: 5, of: 5 });
  assert.deepEqual(s.byKind.command.covered, { hit: 0, of: 2 });
  assert.deepEqual(s.byKind.error.covered, { hit: 1, of: 1 });
});

test('a session uses each thing once: only its first use counts, and a first session needs nothing', () => {
  assert.deepEqual(needItems([session('a', [use('file', 'x.ts', 1)])]), []);
});

test('injection use: a lesson is used when the session then uses what it names or names it; a hand-off item or a file a prompt named when the session uses it', () => {
  const lesson = {
    key: 'team#build-first',
    id: 'build-first',
    title: 'Build before linking',
    text: 'Run `npm run build` before `npm link`',
  };
  const other = { key: 'team#nvm', id: 'nvm', title: 'The user switches Node with nvm', text: 'uses nvm' };
  const named = { key: 'team#deploy-notes', id: 'deploy-notes', title: 'Deploy from the main branch only', text: 'deploys' };
  const sessions = [
    session('a', [use('file', 'README.md', 1), use('command', 'npm run build', 2)]),
    session(
      'b',
      [use('command', 'npm run build', 5), use('file', 'src/x.ts', 6)],
      [
        inject(-1, 'digest', { entries: [lesson, other, named], handOff: 'Files:\n- edited: README.md\nCommands:\n- `npm run build`' }),
        inject(3, 'recall', { entries: [lesson], files: ['src/x.ts', 'src/y.ts'] }),
        inject(4, 'recall', { files: ['src/x.ts'] }),
      ],
      true,
      [{ at: 7, text: 'As deploy-notes says, deploy from main.' }],
    ),
  ];
  const items = useItems(sessions);
  assert.deepEqual(
    items.map((i) => `${i.group} ${i.name} ${i.used}`),
    [
      'lesson team#build-first true',
      'lesson team#nvm false',
      'lesson team#deploy-notes true',
      'hand-off file:README.md false',
      'hand-off command:npm run build true',
      'file file:src/x.ts true',
      'file file:src/y.ts false',
    ],
    'a file a prompt named counts once, used when the session then reads or edits it',
  );
  assert.deepEqual(useSummary(items), { lessons: { hit: 2, of: 3 }, handOff: { hit: 1, of: 2 }, files: { hit: 1, of: 2 } });
});

test('captured entries are judged against the labels: a must-not wins, unmatched ones count against precision', () => {
  const labels: CaptureLabels = {
    history: 'h',
    expected: [{ id: 'typecheck', kind: 'commands', description: 'd', match: ['npm run typecheck'] }],
    mustNot: [{ description: 'pasted log', match: ['hostedtoolcache'] }],
  };
  const verdicts = [
    judgeEntry('## Pattern: Checks\n- **captured**: commands\nRun `npm run typecheck`.', labels),
    judgeEntry('npm run typecheck failed in /opt/hostedtoolcache/node', labels),
    judgeEntry('The weather was nice', labels),
  ];
  assert.deepEqual(verdicts, [
    { verdict: 'expected', lesson: 'typecheck' },
    { verdict: 'must-not', reason: 'pasted log' },
    { verdict: 'unmatched' },
  ]);
  assert.deepEqual(capturePrecision(verdicts), { hit: 1, of: 3 });
  assert.deepEqual(lessonsFound(verdicts), ['typecheck']);
});

test('an entry is about what its title says: a lesson matched there wins over one its evidence mentions', () => {
  const labels: CaptureLabels = {
    history: 'h',
    expected: [
      { id: 'tests', kind: 'commands', description: 'd', match: ['npm run test:run'] },
      { id: 'nvm', kind: 'correction', description: 'd', match: ['\\bnvm\\b'] },
    ],
    mustNot: [],
  };
  assert.deepEqual(judgeEntry('yes and be aware I use nvm\nsession 1: refused `npm run test:run`', labels), {
    verdict: 'expected',
    lesson: 'nvm',
  });
});

test('the hand-off part of a SessionStart text runs from its title to the lessons or the footer', () => {
  const text = [
    '<rune-echoes note="x">',
    'Last session — 2026-05-06 20:08 → 20:16 (session 9e17ee25…):',
    'Files:',
    '- edited: a.ts',
    'Lessons (highest Echo Score first):',
    '- build first',
    'In memory in all: 1 entry',
    '</rune-echoes>',
  ].join('\n');
  assert.equal(handOffPart(text), 'Last session — 2026-05-06 20:08 → 20:16 (session 9e17ee25…):\nFiles:\n- edited: a.ts');
  assert.equal(handOffPart('<rune-echoes note="x">\nLessons (highest Echo Score first):\n- a\n</rune-echoes>'), '');
});

test('paths are spelled relative to the project, and commands by family with inspection and file utilities left out', () => {
  assert.equal(projectPath('/p/src/a.ts', '/p', '/p'), 'src/a.ts');
  assert.equal(projectPath('a.ts', '/p/src', '/p'), 'src/a.ts');
  assert.equal(projectPath('/etc/hosts', '/p', '/p'), '/etc/hosts');
  assert.equal(neededCommand('cd /p && npm run test:run -- --coverage 2>&1 | tail -20', '/p', '/p'), 'npm run test:run');
  assert.equal(neededCommand('ls -la', '/p', '/p'), '');
  assert.equal(neededCommand('git status', '/p', '/p'), '');
  assert.equal(neededCommand('cd src', '/p', '/p'), '');
  assert.equal(neededCommand('mkdir -p build && mv a.txt build/', '/p', '/p'), '');
  assert.equal(neededCommand('git commit -m "x"', '/p', '/p'), 'git commit');
});

test('a session’s activity: prompts, first uses in order, failed results as error signatures, copied lines left out', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rune-replay-unit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 's.jsonl');
  new TranscriptBuilder(path, 's', '/p')
    .user('old prompt')
    .user('fix the build')
    .tool('Read', { file_path: '/p/src/a.ts' })
    .bash('npm run build', 1, "src/a.ts(3,1): error TS2304: Cannot find name 'foo'.")
    .tool('Edit', { file_path: '/p/src/a.ts', old_string: 'a', new_string: 'b' })
    .bash('npm run build')
    .assistant('Fixed.');
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  const copied = lines.map((_, i) => i === 0);
  const a = sessionActivity(lines, copied, '/p');
  assert.deepEqual(
    a.prompts.map((p) => p.text),
    ['fix the build'],
  );
  assert.deepEqual(
    a.uses.map((u) => `${u.kind} ${u.key}`),
    ['file src/a.ts', 'command npm run build', "error <path> # # error ts2304 cannot find name 'foo'"],
  );
  assert.ok(a.said.some((s) => s.text === 'Fixed.'));
});

test('a history: sessions in the order they began, a resume’s copied past marked, subagent and empty files skipped', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rune-history-unit-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const line = (uuid: string, sessionId: string, ts: string, text: string) =>
    JSON.stringify({ type: 'user', uuid, sessionId, timestamp: ts, cwd: '/p', message: { role: 'user', content: text } });
  writeFileSync(join(dir, 'first.jsonl'), `${line('u1', 'first', '2026-01-01T10:00:00Z', 'one')}\n`);
  // The resume copies the first session's line, then goes on under its own id.
  writeFileSync(
    join(dir, 'resumed.jsonl'),
    `${line('u1', 'first', '2026-01-01T10:00:00Z', 'one')}\n${line('u2', 'resumed', '2026-01-01T12:00:00Z', 'two')}\n`,
  );
  writeFileSync(join(dir, 'between.jsonl'), `${line('u3', 'between', '2026-01-01T11:00:00Z', 'mid')}\n`);
  writeFileSync(join(dir, 'empty.jsonl'), '');
  writeFileSync(join(dir, 'agent-a1.jsonl'), `${line('u4', 'first', '2026-01-01T10:01:00Z', 'sub')}\n`);
  const h = loadHistory(dir);
  assert.deepEqual(
    h.sessions.map((s) => s.id),
    ['first', 'between', 'resumed'],
  );
  assert.deepEqual(h.sessions[2]!.copied, [true, false]);
  assert.equal(h.cwd, '/p');
  assert.deepEqual(h.skipped.map((s) => `${s.file} ${s.why}`).sort(), ['agent-a1.jsonl subagent transcript', 'empty.jsonl empty']);
});
