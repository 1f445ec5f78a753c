// What a user types after /rune:echoes, through the real Claude Code CLI
// (issue 9): backticks, $(…), quotes, the old here-document delimiter and line
// breaks reach the CLI byte for byte and nothing of it runs; a secret typed
// into a lesson leaves no piece in the title, the id or any file.
//
// The hooks and the CLI run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { makeClaudeHome, removeDirs } from './claude-harness.ts';
import { type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import {
  describeRun,
  ensureBundles,
  errorLogLines,
  makeScenarioProject,
  type RuneRun,
  runRune,
  type ScenarioProject,
  walkFiles,
} from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;

let server: FakeAnthropic;
let home: string;
let project: ScenarioProject;

before(async () => {
  ensureBundles();
  server = await startFakeAnthropic({ rules: defaultRules() });
  home = await makeClaudeHome();
  project = await makeScenarioProject('typed');
  await project.write({ '.git/HEAD': 'ref: refs/heads/main\n' });
});

after(async () => {
  await server.close();
  await removeDirs(home, project.dir);
});

async function slash(args: string): Promise<{ run: RuneRun; output: string }> {
  const run = await runRune({ project, home, server, args: ['-p', `/rune:echoes ${args}`] });
  assert.equal(run.code, 0, describeRun(run));
  const prompt = run.calls[0]?.promptText ?? '';
  assert.match(prompt, /<command-name>\/rune:echoes<\/command-name>/, describeRun(run));
  // The CLI's output sits between the command's context line and "## Your task".
  const output = prompt.slice(prompt.indexOf('never through a shell):'), prompt.indexOf('## Your task'));
  return { run, output };
}

const team = () => documentEntries(parseEchoDocument(project.read('.claude/echoes/team/MEMORY.md') ?? ''));

describe('9. /rune:echoes arguments arrive as typed', () => {
  const typed = [
    'Use `npm ci` in CI, never `npm install`;',
    'keep $(touch pwned-subst) and `touch pwned-tick` and !`touch pwned-bang` as \'single\' and "double" text',
    'RUNE_ECHOES_ARGS',
    '```!',
    'touch pwned-fence',
    '```',
  ].join('\n');
  let remembered: { run: RuneRun; output: string };

  before(async () => {
    remembered = await slash(`remember ${typed}`);
  });

  test('backticks, $(…), quotes, the delimiter line and a fenced block are stored as typed, and nothing ran', {
    timeout: testTimeout,
  }, () => {
    assert.match(remembered.output, /remembered team\//, remembered.output);
    const entry = team().find((e) => e.learning.includes('npm ci'));
    assert.ok(entry, `the lesson is in team/MEMORY.md:\n${project.read('.claude/echoes/team/MEMORY.md')}`);
    // One line in the file: line breaks become spaces, every other character stays.
    assert.equal(entry.learning, typed.replace(/\s+/g, ' '));
    for (const file of ['pwned-subst', 'pwned-tick', 'pwned-bang', 'pwned-fence'])
      assert.ok(!existsSync(project.path(file)), `${file} was created`);
    assert.ok(walkFiles(project.path('.claude/echoes/.state')).length > 0, 'the store has its state folder');
    assert.deepEqual(walkFiles(project.path('.claude/echoes/.state/slash')), [], 'the kept arguments were taken');
  });

  test('evidence in backticks and quotes reaches the entry whole', { timeout: testTimeout }, async () => {
    const { output } = await slash('remember --evidence "`app.py:1-10` — entry point" The entry point is app.py');
    assert.match(output, /remembered team\//, output);
    const entry = team().find((e) => e.learning === 'The entry point is app.py');
    assert.equal(entry?.evidence, '`app.py:1-10` — entry point');
  });

  test('text that looks like an option is text', { timeout: testTimeout }, async () => {
    const { output } = await slash('remember Tests are run with python3 -m pytest -x');
    assert.match(output, /remembered team\//, output);
    assert.ok(team().some((e) => e.learning === 'Tests are run with python3 -m pytest -x'));
  });

  test('a search for a word in backticks runs and finds it', { timeout: testTimeout }, async () => {
    const { output } = await slash('search `npm`');
    assert.doesNotMatch(output, /Shell command failed|rune-echoes:/, output);
    assert.match(output, /npm ci/, output);
  });

  test('a secret typed into a lesson leaves no piece in the title, the id, show, search or any file', {
    timeout: testTimeout,
  }, async () => {
    const token = ['ghp_', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef1234'].join('');
    const { output } = await slash(`remember the deploy token is ${token} and rotates monthly`);
    assert.match(output, /remembered team\//, output);
    const show = (await slash('show team')).output;
    const search = (await slash('search deploy token')).output;
    const pieces = Array.from({ length: token.length - 7 }, (_, i) => token.slice(i, i + 8));
    for (const [where, text] of [
      ['remember output', output],
      ['show', show],
      ['search', search],
      ...walkFiles(project.echoes).map((f) => [f, readFileSync(join(project.echoes, f), 'latin1')] as const),
    ]) {
      const leaked = pieces.find((p) => text.includes(p));
      assert.equal(leaked, undefined, `${where} holds a piece of the token`);
    }
    const entry = team().find((e) => e.learning.includes('rotates monthly'));
    assert.ok(entry?.learning.includes('[REDACTED:github-token]'));
    assert.doesNotMatch(entry!.id, /ghp|abcdef/i);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});
