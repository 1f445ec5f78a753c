// More end-to-end scenarios (same setup as scenarios.test.ts: the real Claude
// Code CLI, offline, with this repository loaded by --plugin-dir):
//   A. findings a subagent records are consolidated by SubagentStop;
//   B. `session_scope: user` keeps EPHEMERAL.md, ARCHIVE.md and memories/
//      under ~/.claude/ instead of the project.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCliSync } from '../helpers/run-bundle.ts';
import { makeClaudeHome, removeDirs } from './claude-harness.ts';
import { collectToolResults, type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import type { MessagesCall } from './messages-call.ts';
import { section } from './scenario-handoff.ts';
import {
  describeRun,
  ensureBundles,
  errorLogLines,
  makeScenarioProject,
  observe,
  type RuneRun,
  runeEchoesBlocks,
  runRune,
  type ScenarioProject,
  walkFiles,
} from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;

let server: FakeAnthropic;
const cleanup: string[] = [];

before(async () => {
  ensureBundles();
  server = await startFakeAnthropic({ rules: defaultRules() });
});

after(async () => {
  await server.close();
  await removeDirs(...cleanup);
});

async function newProject(name: string): Promise<ScenarioProject> {
  const project = await makeScenarioProject(name);
  cleanup.push(project.dir);
  return project;
}

/** Each scenario gets a HOME of its own: scenario B looks at what lands in HOME/.claude/. */
async function newHome(): Promise<string> {
  const home = await makeClaudeHome();
  cleanup.push(home);
  return home;
}

async function rune(project: ScenarioProject, home: string, args: string[]): Promise<RuneRun> {
  const run = await runRune({ project, home, server, args });
  assert.equal(run.timedOut, false, `claude timed out: ${describeRun(run)}`);
  assert.equal(run.code, 0, `claude ${args.join(' ').slice(0, 80)} failed: ${describeRun(run)}`);
  return run;
}

function sessionIdOf(run: RuneRun): string {
  const id = run.result?.session_id ?? '';
  assert.match(id, /^[0-9a-f-]{36}$/, `no session id in the output: ${run.stdout.slice(0, 300)}`);
  return id;
}

describe('A. findings a subagent records are consolidated by SubagentStop, before the parent turn ends', () => {
  interface Snapshot {
    files: string[];
    memory: string | null;
  }
  let project: ScenarioProject;
  let run: RuneRun;
  /** The store as it was when the parent's request with the Agent result arrived. */
  let afterSubagent: Snapshot | null = null;
  let shownAfter = '';
  const record = [
    'RUN: rune-echoes record --role workers --agent helper-one',
    '--pattern "Config loader ignores env overrides"',
    "--evidence '`src/x.ts:3` — reads the file before the environment'",
    '--confidence 0.7 "The config loader reads the file and never looks at env overrides."',
  ].join(' ');

  /** True for the parent-side request that carries the Agent tool's result. */
  const isParentAfterSubagent = (call: MessagesCall): boolean =>
    call.toolResults.some((r) => r.toolName === 'Agent' || r.toolName === 'Task');

  before(async () => {
    const home = await newHome();
    project = await newProject('sa');
    // Why this proves SubagentStop did the work: Claude Code waits for the
    // SubagentStop hook before it hands the subagent's answer back to the
    // parent, and the parent's Stop hook only runs once the parent's turn is
    // over — which is after the fake model answers this very request. So what
    // is on disk when this request arrives was written by SubagentStop (the
    // findings file did not exist at SessionStart, and SessionEnd is later
    // still). The .state markers taken at the same moment back it up:
    // last-run-subagent-stop is there, last-run-stop is not yet. This needs no
    // clock comparison (mtimes can tie at coarse resolutions).
    server.setRules([
      observe((call) => {
        if (afterSubagent === null && isParentAfterSubagent(call)) {
          afterSubagent = { files: walkFiles(project.echoes), memory: project.read('.claude/echoes/workers/MEMORY.md') };
          // What the parent would see if it looked now: the CLI, as an agent runs it.
          shownAfter = runCliSync(['show', 'workers'], { cwd: project.dir, env: { HOME: home } }).stdout;
        }
      }),
      ...defaultRules(),
    ]);
    // The TASK line's text is the subagent's whole prompt, so the subagent's
    // scripted turn is the RUN step inside it.
    run = await rune(project, home, [
      '-p',
      `Look into the config loader with a helper.\nTASK: ${record}`,
      '--allowedTools',
      'Bash(rune-echoes:*)',
    ]);
  });

  test('the subagent records its finding through Bash with the CLI', { timeout: testTimeout }, () => {
    const results = collectToolResults(run.calls);
    const bash = results.find((r) => r.toolName === 'Bash');
    assert.ok(bash, JSON.stringify(results));
    assert.equal(bash.isError, false, bash.text);
    assert.match(bash.text, /recorded 1 finding\(s\) in workers\/helper-one-findings\.md: config-loader-ignores-env-overrides/);
    assert.ok(
      results.some((r) => r.toolName === 'Agent' || r.toolName === 'Task'),
      'the parent got the subagent result',
    );
  });

  test('when the subagent returns, SubagentStop has run (and Stop not yet), and a reading command then finds the finding merged', {
    timeout: testTimeout,
  }, () => {
    assert.ok(afterSubagent, 'the parent sent a request with the Agent result');
    const { files } = afterSubagent;
    // SubagentStop hands the merge to a background worker; `show` and `search` wait for such
    // workers, so a parent that looks right after its subagent sees the merged lesson.
    assert.ok(files.includes('.state/last-run-subagent-stop'), files.join(', '));
    assert.ok(!files.includes('.state/last-run-stop'), `Stop already ran: ${files.join(', ')}`);
    assert.match(shownAfter, /Config loader ignores env overrides/, shownAfter);
  });

  test('after the session workers/MEMORY.md holds the finding and no findings file is left', { timeout: testTimeout }, () => {
    const memory = project.read('.claude/echoes/workers/MEMORY.md') ?? '';
    assert.match(memory, /^- \*\*id\*\*: config-loader-ignores-env-overrides$/m, memory);
    assert.match(memory, /^- \*\*confidence\*\*: 0\.7$/m, memory);
    assert.match(memory, /^- \*\*evidence\*\*: `src\/x\.ts:3` — reads the file before the environment$/m, memory);
    assert.match(memory, /never looks at env overrides/);
    assert.deepEqual(walkFiles(project.path('.claude/echoes/workers')), ['MEMORY.md']);
    // Same story from the markers' clocks: SubagentStop's mark is no later than Stop's.
    const mark = (hook: string) => statSync(project.path(`.claude/echoes/.state/last-run-${hook}`)).mtimeMs;
    assert.ok(mark('subagent-stop') <= mark('stop'));
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('B. session_scope: user keeps the session memory under HOME/.claude/', () => {
  const request = 'Raise the upload limit to 20 MB.';
  let project: ScenarioProject;
  let home: string;
  let userDir: string;
  let ephemeralAfterFirst: string | null;
  let projectFilesAfterFirst: string[];
  let firstCallOfSecond: MessagesCall;
  let secondSessionId: string;
  let firstCallAfterCompact: MessagesCall;

  before(async () => {
    home = await newHome();
    userDir = join(home, '.claude');
    project = await newProject('sb');
    await project.write({
      '.claude/rune-config.yml': 'echoes:\n  session_scope: user\n',
      'src/upload.js': 'export const maxUploadMb = 10;\n',
    });
    const upload = project.path('src/upload.js');
    server.setRules(defaultRules());
    await rune(project, home, [
      '-p',
      [request, `TOOL: Read {"file_path":"${upload}"}`, `EDIT: ${upload} :: maxUploadMb = 10 => maxUploadMb = 20`].join('\n'),
      '--allowedTools',
      'Edit',
    ]);
    ephemeralAfterFirst = readOrNull(join(userDir, 'EPHEMERAL.md'));
    projectFilesAfterFirst = walkFiles(project.echoes);

    // The second session works too (a read): only a session that worked checkpoints before a compaction.
    const second = await rune(project, home, ['-p', `What is left from last time?\nTOOL: Read {"file_path":"${upload}"}`]);
    firstCallOfSecond = second.calls[0]!;
    secondSessionId = sessionIdOf(second);
    await rune(project, home, ['-p', '/compact', '--resume', secondSessionId]);
    const after = await rune(project, home, ['-p', 'Go on from where we were.', '--resume', secondSessionId]);
    firstCallAfterCompact = after.calls[0]!;
  });

  test('the edit happened and EPHEMERAL.md was written under HOME/.claude/, not in the project', { timeout: testTimeout }, () => {
    assert.equal(project.read('src/upload.js'), 'export const maxUploadMb = 20;\n');
    assert.ok(
      ephemeralAfterFirst,
      `HOME/.claude/EPHEMERAL.md missing; HOME/.claude has ${walkFiles(userDir)
        .filter((f) => !f.startsWith('projects/'))
        .join(', ')}`,
    );
    assert.ok(section(ephemeralAfterFirst, 'Asked').includes(request), ephemeralAfterFirst);
    assert.match(section(ephemeralAfterFirst, 'Files'), /edited: .*src\/upload\.js/, ephemeralAfterFirst);
    assert.ok(!projectFilesAfterFirst.includes('EPHEMERAL.md'), projectFilesAfterFirst.join(', '));
  });

  test("the next session's first request carries that summary inside <rune-echoes>", { timeout: testTimeout }, () => {
    const blocks = runeEchoesBlocks(firstCallOfSecond.systemMessagesText);
    assert.equal(blocks.length, 1, firstCallOfSecond.systemMessagesText.slice(0, 800));
    assert.ok(blocks[0]!.includes(request), blocks[0]);
    assert.match(blocks[0]!, /src\/upload\.js/);
  });

  test('after /compact the archive log and ARCHIVE.md are under HOME/.claude/', { timeout: testTimeout }, () => {
    const logs = walkFiles(join(userDir, 'memories'));
    assert.ok(logs.includes('archive-log-001.md'), `HOME/.claude/memories has: ${logs.join(', ')}`);
    const texts = logs.map((f) => readFileSync(join(userDir, 'memories', f), 'utf8'));
    const compacted = texts.find((t) => /^- trigger: precompact manual$/m.test(t)) ?? '';
    assert.match(compacted, new RegExp(`^- session: ${secondSessionId}$`, 'm'), texts.join('\n----\n'));
    assert.match(compacted, /What is left from last time\?/);
    const index = readOrNull(join(userDir, 'ARCHIVE.md')) ?? '';
    assert.match(index, /^- 001 · \d{4}-\d{2}-\d{2} · /m, index);
    assert.equal(index.split('\n').filter((l) => l.startsWith('- ')).length, logs.length, index);
  });

  test('after /compact and --resume the session holds one block: what it was given at its start, never its own summary (issue 20, item 3)', {
    timeout: testTimeout,
  }, () => {
    const blocks = runeEchoesBlocks(firstCallAfterCompact.systemMessagesText);
    assert.equal(blocks.length, 1, blocks.join('\n----\n') || firstCallAfterCompact.systemMessagesText.slice(0, 800));
    assert.ok(blocks[0]!.includes(request), blocks[0]);
    assert.doesNotMatch(blocks[0]!, /This session before its compaction|What is left from last time\?/);
  });

  test("the project's .claude/echoes/ has no EPHEMERAL.md, ARCHIVE.md or memories/", { timeout: testTimeout }, () => {
    const files = walkFiles(project.echoes);
    for (const name of ['EPHEMERAL.md', 'ARCHIVE.md']) assert.ok(!files.includes(name), files.join(', '));
    assert.ok(!existsSync(project.path('.claude/echoes/memories')), files.join(', '));
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

function readOrNull(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}
