// End-to-end (issue 18, items 13 and 14): the real Claude Code CLI, offline
// against the scripted Messages API server. What `export --to auto-memory`
// writes is what Claude Code loads from its own auto memory, and the model
// gets each exported entry once (auto memory's index, not the digest too);
// after `export --to auto-memory --remove` (what the README's uninstall steps
// say) nothing of it loads, and the entry is back in the digest.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { claudeProjectSlug } from '../../src/store/adopt/memory-sources.ts';
import { makeClaudeHome, removeDirs } from './claude-harness.ts';
import { type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import type { MessagesCall } from './messages-call.ts';
import { describeRun, ensureBundles, makeScenarioProject, runRune, type ScenarioProject } from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli.mjs');

let server: FakeAnthropic;
let home: string;
let project: ScenarioProject;
let exported: MessagesCall;
let removed: MessagesCall;
let memoryDir: string;

const count = (text: string, needle: string) => text.split(needle).length - 1;

before(async () => {
  ensureBundles();
  server = await startFakeAnthropic({ rules: defaultRules() });
  home = await makeClaudeHome();
  project = await makeScenarioProject('export');
  memoryDir = join(home, '.claude', 'projects', claudeProjectSlug(project.dir), 'memory');
  const rune = (...args: string[]) =>
    execFileSync(process.execPath, [CLI, ...args], {
      cwd: project.dir,
      env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: project.dir },
    });
  rune(
    'remember',
    '--role',
    'team',
    '--layer',
    'etched',
    '--pattern',
    'Queue ledger writes',
    'QUEUE-LEDGER-FACT: every ledger write goes through the queue.',
  );
  rune('remember', '--role', 'team', '--layer', 'etched', '--pattern', 'Node 20 only', 'NODE-TWENTY-FACT: the service runs on Node 20.');
  rune('export', '--to', 'auto-memory', 'queue-ledger-writes');
  const ask = async () => {
    const before = server.messageCalls().length;
    const run = await runRune({ project, home, server, args: ['-p', 'What should I keep in mind here?'] });
    assert.equal(run.code, 0, describeRun(run));
    const calls = server.messageCalls().slice(before);
    // The main conversation's first request: the one the session's context goes into.
    const call = calls.find((c) => c.allText.includes('What should I keep in mind here?'));
    assert.ok(call, 'the prompt reached the server');
    return call;
  };
  exported = await ask();
  rune('export', '--to', 'auto-memory', '--remove');
  removed = await ask();
});

after(async () => {
  await server.close();
  await removeDirs(home, project.dir);
});

describe('export to auto memory, through the real Claude Code CLI', () => {
  test('Claude Code loads the exported index line, and the model gets the entry once', { timeout: testTimeout }, () => {
    assert.equal(count(exported.allText, 'QUEUE-LEDGER-FACT'), 1, 'from auto memory only, not the digest too');
    assert.match(exported.allText, /rune-echoes_team_queue-ledger-writes\.md/, 'auto memory’s index as Claude Code loads it');
    assert.equal(count(exported.allText, 'NODE-TWENTY-FACT'), 1, 'what was not exported comes in the digest');
  });

  test('after export --remove nothing of it loads, and the digest gives the entry again', { timeout: testTimeout }, () => {
    assert.ok(!existsSync(memoryDir) || readdirSync(memoryDir).length === 0, 'nothing of export is left in auto memory');
    assert.doesNotMatch(removed.allText, /rune-echoes_team_/);
    assert.equal(count(removed.allText, 'QUEUE-LEDGER-FACT'), 1, 'the digest gives it');
  });
});
