// Capture end to end (SPEC §6a), in the real Claude Code CLI: a session whose build fails, then
// passes after a generation step, and in which the user states a rule, leaves those lessons in
// team memory; the next session, a new `claude -p`, starts with them in its context. A later
// start names the commands two sessions ran that the last hand-off does not.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { waitForWorkers } from '../helpers/run-bundle.ts';
import { errorLogLines, type RuneRun, runeEchoesBlocks, type ScenarioProject, scenarioSuite } from './scenario-kit.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;
const suite = scenarioSuite();

describe('captured lessons reach the next session', () => {
  let project: ScenarioProject;
  let second: RuneRun;
  let third: RuneRun;
  let fifth: RuneRun;
  let memory = '';

  before(async () => {
    project = await suite.project('capture');
    await project.write({
      'package.json': JSON.stringify({ name: 'capture-demo', private: true, scripts: { build: 'node build.js' } }),
      'build.js': "require('./generated/config.json');\nconsole.log('built');\n",
      'gen.js':
        "const fs = require('node:fs');\nfs.mkdirSync('generated', { recursive: true });\nfs.writeFileSync('generated/config.json', '{}');\n",
    });
    const turn = [
      'Build the project. Always run npm run build before you commit anything.',
      'RUN: npm run build',
      'RUN: node gen.js',
      'RUN: npm run build',
    ].join('\n');
    await suite.rune(project, ['--allowedTools', 'Bash'], { turns: [turn] });
    // SessionEnd hands its work to a background worker; the next session's start waits for it too.
    waitForWorkers(project.dir);
    memory = project.read('.claude/echoes/team/MEMORY.md') ?? '';
    second = await suite.rune(project, ['-p', 'What do I need to know before building?']);
    // A later session meets the same failure: the generated file is gone again.
    rmSync(join(project.dir, 'generated'), { recursive: true, force: true });
    third = await suite.rune(project, ['--allowedTools', 'Bash'], {
      turns: ['Build it again.\nRUN: npm run build\nRUN: node gen.js\nRUN: npm run build'],
    });
    // A session on something else, then one that only asks: its start names what two sessions ran.
    await suite.rune(project, ['--allowedTools', 'Bash'], { turns: ['Print the date.\nRUN: node -e "console.log(Date.now())"'] });
    fifth = await suite.rune(project, ['-p', 'What should I do next?']);
  });

  test('the session left its commands, its fix and the stated rule in team memory, marked as captured', { timeout: testTimeout }, () => {
    const entries = documentEntries(parseEchoDocument(memory));
    const byKind = new Map(entries.map((e) => [e.captured, e]));
    assert.match(byKind.get('commands')?.learning ?? '', /build: `npm run build`/, memory);
    const fix = byKind.get('fix');
    assert.match(fix?.title ?? '', /npm run build: Error: Cannot find module '\.\/generated\/config\.json'/, memory);
    assert.match(fix?.learning ?? '', /node gen\.js/);
    assert.match(byKind.get('correction')?.learning ?? '', /Always run npm run build before you commit anything/);
    for (const e of entries) {
      assert.equal(e.layer, 'traced');
      assert.match(e.source, /^capture \(session [0-9a-f]{8}\)$/);
    }
  });

  test("the next session's context holds them, in the inert wrapper", { timeout: testTimeout }, () => {
    const blocks = runeEchoesBlocks(second.calls[0]!.systemMessagesText);
    assert.equal(blocks.length, 1, second.calls[0]!.systemMessagesText.slice(0, 2000));
    const digest = blocks[0]!;
    assert.match(digest, /npm run build/);
    assert.match(digest, /node gen\.js/);
    assert.match(digest, /Always run npm run build before you commit anything/);
  });

  test('a later session whose build fails the same way is given the fix beside the failed result (PostToolUseFailure)', {
    timeout: testTimeout,
  }, () => {
    // The request after the failed `npm run build` carries the hook's context as a system message.
    const after = third.calls.find((c) => c.toolResults.some((r) => /Cannot find module/.test(r.text)));
    assert.ok(after, third.calls.map((c) => c.allText.slice(-400)).join('\n---\n'));
    const blocks = runeEchoesBlocks(after.systemMessagesText).filter((b) => b.includes('knows this error'));
    assert.equal(blocks.length, 1, after.systemMessagesText.slice(-2000));
    assert.match(blocks[0]!, /node gen\.js/);
    assert.match(blocks[0]!, /team#/);
    const usage = project.read('.claude/echoes/usage.jsonl') ?? '';
    assert.match(usage, /"via":"failure"/);
  });

  test('a start names the commands two sessions ran that the last hand-off does not', { timeout: testTimeout }, () => {
    const blocks = runeEchoesBlocks(fifth.calls[0]!.systemMessagesText);
    assert.equal(blocks.length, 1, fifth.calls[0]!.systemMessagesText.slice(0, 2000));
    assert.match(blocks[0]!, /^Commands the work keeps running: .*`node gen\.js`/m, blocks[0]);
    const ledger = JSON.parse(project.read('.claude/echoes/.state/worked-files.json') ?? '{}') as {
      commands?: Record<string, { sessions: number }>;
    };
    assert.equal(ledger.commands?.['node gen.js']?.sessions, 2);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('an error the user pasted, fixed in the settings, reaches the next session with what changed', () => {
  let project: ScenarioProject;
  let second: RuneRun;
  let memory = '';

  before(async () => {
    project = await suite.project('capture-pasted');
    await project.write({
      'package.json': JSON.stringify({ name: 'pasted-demo', private: true, scripts: { test: 'node test.js' } }),
      '.github/workflows/ci.yml': 'jobs:\n  test:\n    strategy:\n      matrix:\n        node-version: [18, 20]\n',
    });
    const ci = `${project.dir}/.github/workflows/ci.yml`;
    const first = [
      'CI fails on one of the versions:',
      '',
      ' FAIL  tests/auth.test.ts > refreshes the token',
      'TypeError: value.toWellFormed is not a function',
      ` ❯ node_modules/undici/lib/web/webidl/index.js:123:4`,
      `TOOL: Read {"file_path":"${ci}"}`,
      `EDIT: ${ci} :: node-version: [18, 20] => node-version: [20]`,
    ].join('\n');
    await suite.rune(project, ['--allowedTools', 'Read', 'Edit'], {
      turns: [first, 'Thanks, CI is green now. Tag the release next week.'],
    });
    waitForWorkers(project.dir);
    memory = project.read('.claude/echoes/team/MEMORY.md') ?? '';
    second = await suite.rune(project, ['-p', 'Which Node versions does CI run?']);
  });

  test('the fix names the error and the lines the edit changed', { timeout: testTimeout }, () => {
    const fix = documentEntries(parseEchoDocument(memory)).find((e) => e.captured === 'fix');
    assert.equal(fix?.title, 'TypeError: value.toWellFormed is not a function', memory);
    assert.match(
      fix?.learning ?? '',
      /not reported again after changing workflows\/ci\.yml: `node-version: \[18, 20\]` → `node-version: \[20\]`/,
    );
  });

  test("the next session's context holds it", { timeout: testTimeout }, () => {
    const digest = runeEchoesBlocks(second.calls[0]!.systemMessagesText).join('\n');
    assert.match(digest, /value\.toWellFormed is not a function/);
    assert.match(digest, /node-version: \[20\]/);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe("the user's hook that blocked commands in two sessions reaches the next, known by the hook", () => {
  let project: ScenarioProject;
  let third: RuneRun;
  let memory = '';
  const guard = [
    "let input = '';",
    "process.stdin.on('data', (d) => (input += d)).on('end', () => {",
    "  const command = JSON.parse(input).tool_input?.command ?? '';",
    '  if (/rm -rf/.test(command)) {',
    "    process.stderr.write('blocked: rm -rf is not allowed here, ask the user first');",
    '    process.exit(2);',
    '  }',
    '});',
  ].join('\n');

  before(async () => {
    project = await suite.project('capture-hook');
    await project.write({
      '.claude/hooks/guard.js': `${guard}\n`,
      '.claude/settings.json': JSON.stringify({
        hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node .claude/hooks/guard.js' }] }] },
      }),
    });
    // Two sessions, each blocked on another command: the hook is the one trouble.
    await suite.rune(project, ['--allowedTools', 'Bash'], { turns: ['Clean the output.\nRUN: rm -rf dist'] });
    waitForWorkers(project.dir);
    await suite.rune(project, ['--allowedTools', 'Bash'], { turns: ['Clean the build folder.\nRUN: sleep 0 && rm -rf build'] });
    waitForWorkers(project.dir);
    memory = project.read('.claude/echoes/team/MEMORY.md') ?? '';
    third = await suite.rune(project, ['-p', 'What should I know before cleaning up?']);
  });

  test("Claude Code records the hook's block as this version writes it, and capture keeps one obstacle of that hook", {
    timeout: testTimeout,
  }, () => {
    const obstacles = documentEntries(parseEchoDocument(memory)).filter((e) => e.captured === 'obstacle');
    assert.equal(obstacles.length, 1, memory);
    assert.equal(obstacles[0]!.signature, 'error:pretooluse:bash hook guard.js blocked', memory);
    assert.match(obstacles[0]!.title, /^hook guard\.js: PreToolUse:Bash hook error: \[node \.claude\/hooks\/guard\.js\]: blocked: rm -rf/);
  });

  test("the next session's context holds it", { timeout: testTimeout }, () => {
    const digest = runeEchoesBlocks(third.calls[0]!.systemMessagesText).join('\n');
    assert.match(digest, /guard\.js/, digest);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('files earlier sessions read reach later ones: the start names the last few sessions’ others, a prompt naming an older one gets its path', () => {
  let project: ScenarioProject;
  let fifth: RuneRun;
  const files = ['services/twin_service.py', 'docs/setup-guide.md', 'src/billing/invoice_totals.py', 'src/api/routes-table.ts'];

  before(async () => {
    project = await suite.project('capture-files');
    await project.write(Object.fromEntries(files.map((f) => [f, `# ${f}\n`])));
    // Four working sessions, each reading one file.
    for (const f of files) {
      await suite.rune(project, ['--allowedTools', 'Read'], {
        turns: [`Look at ${f} for me.\nTOOL: Read {"file_path":"${project.dir}/${f}"}`],
      });
      waitForWorkers(project.dir);
    }
    fifth = await suite.rune(project, ['-p', 'Add logging to the twin service, please.']);
  });

  test('the start names the files of the two sessions before the last one that no other line names', { timeout: testTimeout }, () => {
    const digest = runeEchoesBlocks(fifth.calls[0]!.systemMessagesText).find((b) => !b.includes('matches this prompt')) ?? '';
    assert.match(digest, /routes-table\.ts/, 'the last session, in its hand-off');
    const line = /^Other files the last few sessions worked on: (.*)$/m.exec(digest)?.[1] ?? '';
    assert.equal(line, 'src/billing/invoice_totals.py, docs/setup-guide.md', digest);
  });

  test('the prompt that names the oldest one by its name gets its path from the prompt hook', { timeout: testTimeout }, () => {
    const recall = runeEchoesBlocks(fifth.calls[0]!.systemMessagesText).find((b) => b.includes('matches this prompt')) ?? '';
    assert.match(recall, /^- Files earlier sessions here worked on that this prompt names: `services\/twin_service\.py`$/m, recall);
    const names = project.read('.claude/echoes/.state/worked-names.txt') ?? '';
    assert.match(names, /^twinservice\tservices\/twin_service\.py$/m, 'capture wrote the names beside the ledger');
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});
