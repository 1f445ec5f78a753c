// Team memory end to end: two clones of one repository, each with its own
// sessions of the real Claude Code CLI (offline, scripted model). The agent
// sets each clone up with `rune-echoes team init` through the Bash tool; both
// sides remember an etched fact in the same file and commit; the second clone
// pulls (git runs the merge driver team init installed). The next session of
// each clone must start with the other clone's etched fact in its digest, and
// with its own hand-off, never the other's.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeClaudeHome, makeTempDir, removeDirs } from './claude-harness.ts';
import { collectToolResults, type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import {
  describeRun,
  ensureBundles,
  errorLogLines,
  type RuneRun,
  runeEchoesBlocks,
  runRune,
  type ScenarioProject,
} from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;

let server: FakeAnthropic;
let home: string;
let work: string;
let a: ScenarioProject;
let b: ScenarioProject;
const runs: Record<string, RuneRun> = {};
let pullOutput = '';

const gitEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: home,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'E2E',
  GIT_AUTHOR_EMAIL: 'e2e@example.invalid',
  GIT_COMMITTER_NAME: 'E2E',
  GIT_COMMITTER_EMAIL: 'e2e@example.invalid',
  LC_ALL: 'C',
});

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: gitEnv(), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function project(dir: string): ScenarioProject {
  const path = (rel: string) => join(dir, rel);
  return {
    dir,
    echoes: path('.claude/echoes'),
    path,
    read: (rel) => (existsSync(path(rel)) ? readFileSync(path(rel), 'utf8') : null),
    bytes: (rel) => (existsSync(path(rel)) ? readFileSync(path(rel)) : null),
    write: async () => {
      throw new Error('not used');
    },
  };
}

/** A session of the real claude in a clone; the agent may run rune-echoes through Bash. */
async function session(label: string, clone: ScenarioProject, prompt: string): Promise<RuneRun> {
  const run = await runRune({ project: clone, home, server, args: ['-p', prompt, '--allowedTools', 'Bash(rune-echoes:*)'] });
  assert.equal(run.timedOut, false, `${label} timed out: ${describeRun(run)}`);
  assert.equal(run.code, 0, `${label} failed: ${describeRun(run)}`);
  runs[label] = run;
  return run;
}

function commitAll(clone: ScenarioProject, message: string): void {
  git(clone.dir, 'add', '-A');
  git(clone.dir, 'commit', '--quiet', '-m', message);
}

const digestOf = (run: RuneRun) => runeEchoesBlocks(run.calls[0]?.systemMessagesText ?? '')[0] ?? '';

describe('team memory: two clones share etched lessons through git and keep their hand-offs', () => {
  before(async () => {
    ensureBundles();
    server = await startFakeAnthropic({ rules: defaultRules() });
    home = await makeClaudeHome();
    work = await makeTempDir('team');
    const origin = join(work, 'origin.git');
    git(work, 'init', '--quiet', '--bare', '--initial-branch=main', origin);
    git(work, 'clone', '--quiet', origin, 'a');
    a = project(join(work, 'a'));
    git(a.dir, 'symbolic-ref', 'HEAD', 'refs/heads/main');
    writeFileSync(join(a.dir, 'README.md'), '# Ledger service\n');
    commitAll(a, 'start');

    await session('a: team init', a, 'Set this clone up for team memory.\nRUN: rune-echoes team init');
    commitAll(a, 'Share Rune Echoes memory');
    git(a.dir, 'push', '--quiet', 'origin', 'main');

    git(work, 'clone', '--quiet', origin, 'b');
    b = project(join(work, 'b'));
    await session(
      'b: team init',
      b,
      'Task BRAVO-HANDOFF-3: document the zeta exporter. Set up team memory first.\nRUN: rune-echoes team init',
    );

    await session(
      'a: remember',
      a,
      'Task ALPHA-HANDOFF-7: cap the ledger retries.\nRUN: rune-echoes remember --layer etched "Ledger writes go through the alpha queue"',
    );
    commitAll(a, 'a: ledger lesson');
    git(a.dir, 'push', '--quiet', 'origin', 'main');

    await session(
      'b: remember',
      b,
      'Task BRAVO-HANDOFF-4: schedule the exports.\nRUN: rune-echoes remember --layer etched "Exports run nightly at two"',
    );
    commitAll(b, 'b: export lesson');
    pullOutput = execFileSync('sh', ['-c', 'git pull --no-rebase --no-edit origin main 2>&1'], {
      cwd: b.dir,
      env: gitEnv(),
      encoding: 'utf8',
    });
    git(b.dir, 'push', '--quiet', 'origin', 'main');
    await session('b: next', b, 'What should I know before I start?');

    git(a.dir, 'pull', '--quiet', '--no-rebase', '--no-edit', 'origin', 'main');
    await session('a: next', a, 'What should I know before I start?');
  });

  after(async () => {
    await server?.close();
    await removeDirs(home, work);
  });

  test('the agent set each clone up with rune-echoes team init through the Bash tool', { timeout: testTimeout }, () => {
    for (const label of ['a: team init', 'b: team init']) {
      const [result] = collectToolResults(runs[label]!.calls);
      assert.equal(result?.toolName, 'Bash');
      assert.equal(result?.isError, false, result?.text);
      assert.match(result!.text, /Team memory is on/);
    }
    for (const clone of [a, b])
      assert.match(
        git(clone.dir, 'config', '--get', 'merge.rune-echoes.driver'),
        /\/dist\/cli\.mjs'? merge-file %O %A %B %P \|\| .*git merge-file -L ours/,
      );
  });

  test('the pull merged both clones\u2019 changes to team/MEMORY.md without a conflict', { timeout: testTimeout }, () => {
    assert.match(pullOutput, /Auto-merging \.claude\/echoes\/team\/MEMORY\.md/);
    assert.doesNotMatch(pullOutput, /CONFLICT/);
    const memory = b.read('.claude/echoes/team/MEMORY.md') ?? '';
    assert.match(memory, /Ledger writes go through the alpha queue/);
    assert.match(memory, /Exports run nightly at two/);
    assert.equal(a.read('.claude/echoes/team/MEMORY.md'), memory, 'both clones hold the same file');
  });

  test("the second clone's next digest holds the first clone's new etched entry, and only its own hand-off", {
    timeout: testTimeout,
  }, () => {
    const digest = digestOf(runs['b: next']!);
    assert.match(digest, /Ledger writes go through the alpha queue/);
    assert.match(digest, /Exports run nightly at two/);
    assert.match(digest, /BRAVO-HANDOFF-4/, 'its own last session');
    assert.doesNotMatch(digest, /ALPHA-HANDOFF/, "the other clone's hand-off did not leak");
  });

  test("the first clone's next digest holds the second clone's etched entry, and only its own hand-off", { timeout: testTimeout }, () => {
    const digest = digestOf(runs['a: next']!);
    assert.match(digest, /Exports run nightly at two/);
    assert.match(digest, /ALPHA-HANDOFF-7/);
    assert.doesNotMatch(digest, /BRAVO-HANDOFF/);
  });

  test('no hand-off, archive log, usage log or hook state was ever committed', { timeout: testTimeout }, () => {
    const everCommitted = git(a.dir, 'log', '--all', '--name-only', '--format=').split('\n').filter(Boolean);
    assert.ok(everCommitted.includes('.claude/echoes/team/MEMORY.md'));
    assert.deepEqual(
      everCommitted.filter((f) => /EPHEMERAL|ARCHIVE\.md|memories\/|usage\.jsonl|\.state\/|\.log$|-findings\.md/.test(f)),
      [],
    );
    // They exist, each clone its own.
    for (const clone of [a, b]) assert.match(clone.read('.claude/echoes/usage.jsonl') ?? '', /"event":"injected"/);
  });

  test('no hook logged an error in either clone', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(a), []);
    assert.deepEqual(errorLogLines(b), []);
  });
});
