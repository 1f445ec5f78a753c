// Facts about the real Claude Code CLI that the plugin relies on, proved
// offline with a throwaway "probe" plugin and the scripted fake API. If a CLI
// upgrade changes one of them, this file says which.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type ClaudeRun,
  claudeBin,
  makeClaudeHome,
  makeTempDir,
  parseJsonResult,
  parseStreamJson,
  removeDirs,
  runClaude,
  streamJsonTurns,
  writeTree,
} from './claude-harness.ts';
import { collectToolResults, type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import { type HookRecord, probeFailureContext, readHookLog, writeProbePlugin } from './probe-plugin.ts';
import { defaultRules } from './script-rules.ts';

// Bounds that only a hang trips: a loaded machine is slow, not wrong.
const runTimeout = 300_000;
const testTimeout = 600_000;

let server: FakeAnthropic;
let home: string;
let project: string;
let plugin: string;
let logs: string;
let logCount = 0;

before(async () => {
  server = await startFakeAnthropic({ rules: defaultRules() });
  home = await makeClaudeHome();
  // realpath: Claude Code reports resolved paths in hook input.
  project = await realpath(await makeTempDir('project'));
  plugin = await realpath(await makeTempDir('plugin'));
  logs = await makeTempDir('logs');
  await writeProbePlugin(plugin);
});

after(async () => {
  await server.close();
  await removeDirs(home, project, plugin, logs);
});

/** Runs claude with the probe plugin; each run gets its own hook log. */
async function runProbe(args: string[], env: Record<string, string | undefined> = {}): Promise<{ run: ClaudeRun; hooks: HookRecord[] }> {
  const log = join(logs, `hooks-${++logCount}.jsonl`);
  const run = await runClaude({
    args: [...args, '--plugin-dir', plugin, '--output-format', 'json'],
    cwd: project,
    home,
    server,
    env: { PROBE_LOG: log, ...env },
    timeoutMs: runTimeout,
  });
  assert.equal(run.timedOut, false, `claude timed out; stderr: ${run.stderr}`);
  return { run, hooks: await readHookLog(log) };
}

function eventsOf(hooks: HookRecord[]): string[] {
  return hooks.map((h) => h.event);
}

function only(hooks: HookRecord[], event: string): HookRecord {
  const found = hooks.filter((h) => h.event === event);
  assert.equal(found.length, 1, `expected one ${event}, got ${eventsOf(hooks).join(',')}`);
  return found[0]!;
}

describe('claude -p with a plugin (one session, then resumed for /compact)', () => {
  let sessionId = '';
  let first: { run: ClaudeRun; hooks: HookRecord[] };

  before(async () => {
    first = await runProbe(['-p', 'hi']);
    assert.equal(first.run.code, 0, first.run.stderr);
    sessionId = parseJsonResult(first.run.stdout).session_id;
  });

  test('(a) a print run fires SessionStart(startup), UserPromptSubmit, Stop, SessionEnd in order', { timeout: testTimeout }, () => {
    assert.deepEqual(eventsOf(first.hooks), ['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
    const transcript = join(home, '.claude', 'projects', project.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);
    for (const h of first.hooks) {
      assert.equal(h.stdin.session_id, sessionId);
      assert.equal(h.stdin.transcript_path, transcript);
      assert.equal(h.stdin.cwd, project);
      assert.equal(h.stdin.hook_event_name, h.event);
      assert.equal(h.cwd, project, 'hooks run in the project directory');
      assert.equal(h.env.CLAUDE_PLUGIN_ROOT, plugin);
      assert.equal(h.env.CLAUDE_PROJECT_DIR, project);
    }
    assert.equal(only(first.hooks, 'SessionStart').stdin.source, 'startup');
    assert.equal(only(first.hooks, 'UserPromptSubmit').stdin.prompt, 'hi');
    const stop = only(first.hooks, 'Stop').stdin;
    assert.equal(stop.stop_hook_active, false);
    assert.equal(stop.last_assistant_message, 'OK (fake reply to request 1)');
    assert.equal(stop.permission_mode, 'default');
    assert.equal(only(first.hooks, 'SessionEnd').stdin.reason, 'other');
    assert.ok(existsSync(transcript), 'the transcript exists once the run is over');
  });

  test('(b) SessionStart additionalContext reaches the first request as a role:system message', { timeout: testTimeout }, () => {
    const call = first.run.calls[0];
    assert.ok(call, 'one request was sent');
    const expected = 'SessionStart hook additional context: <rune-echoes>PROBE-CONTEXT source=startup</rune-echoes>';
    assert.ok(call.systemMessagesText.startsWith(expected), call.systemMessagesText.slice(0, 200));
    assert.ok(!call.systemText.includes('PROBE-CONTEXT'), 'not in the top-level system prompt');
    assert.equal(call.promptText, 'hi');
  });

  test('(c) /compact on a resumed session fires PreCompact(manual) then SessionStart(compact)', { timeout: testTimeout }, async () => {
    const { run, hooks } = await runProbe(['-p', '/compact', '--resume', sessionId]);
    assert.equal(run.code, 0, run.stderr);
    // The summariser runs as an internal subagent, so SubagentStop fires with an empty agent_type.
    assert.deepEqual(eventsOf(hooks), ['SessionStart', 'PreCompact', 'SubagentStop', 'SessionStart', 'SessionEnd']);
    assert.equal(hooks[0]!.stdin.source, 'resume');
    assert.equal(hooks[1]!.stdin.trigger, 'manual');
    assert.equal(hooks[1]!.stdin.custom_instructions, null);
    assert.equal(hooks[2]!.stdin.agent_type, '');
    assert.equal(hooks[3]!.stdin.source, 'compact');
    for (const h of hooks) assert.equal(h.stdin.session_id, sessionId, 'compaction keeps the session id');
    assert.equal(run.calls.length, 1, 'one summary request');
    assert.match(run.calls[0]!.lastUserText, /provide your summary/);

    // The next turn starts from the summary and carries the compact (and resume) context.
    const next = await runProbe(['-p', 'after compact', '--resume', sessionId]);
    const call = next.run.calls[0]!;
    assert.match(call.allText, /This session is being continued from a previous conversation/);
    assert.match(call.allText, /Primary Request and Intent: the user exercised the fake model/);
    assert.match(call.systemMessagesText, /PROBE-CONTEXT source=compact<\/rune-echoes>/);
    assert.match(call.systemMessagesText, /PROBE-CONTEXT source=resume<\/rune-echoes>/);
  });
});

test('(a) several stream-json turns in one process fire Stop per turn and SessionEnd once', { timeout: testTimeout }, async () => {
  const log = join(logs, `hooks-${++logCount}.jsonl`);
  const run = await runClaude({
    args: ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--plugin-dir', plugin],
    cwd: project,
    home,
    server,
    env: { PROBE_LOG: log },
    stdin: streamJsonTurns(['first turn', 'second turn']),
    timeoutMs: runTimeout,
  });
  assert.equal(run.code, 0, run.stderr);
  const hooks = await readHookLog(log);
  assert.deepEqual(eventsOf(hooks), ['SessionStart', 'UserPromptSubmit', 'Stop', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
  assert.deepEqual(
    run.calls.map((c) => c.promptText),
    ['first turn', 'second turn'],
  );
  const results = parseStreamJson(run.stdout).filter((line) => line.type === 'result');
  assert.equal(results.length, 2, 'one result line per turn');
  assert.equal(new Set(hooks.map((h) => h.stdin.session_id)).size, 1);
});

test('(d) a plugin command expands with its inline bash output and arguments', { timeout: testTimeout }, async () => {
  const { run, hooks } = await runProbe(['-p', '/probe:hello world 42']);
  assert.equal(run.code, 0, run.stderr);
  const prompt = run.calls[0]!.promptText;
  assert.match(prompt, /<command-name>\/probe:hello<\/command-name>/);
  assert.ok(prompt.includes(`Inline output: PROBE-INLINE-OK sum=42 root=${plugin}`), prompt);
  assert.ok(prompt.includes('Arguments were: world 42'), prompt);
  assert.equal(only(hooks, 'UserPromptSubmit').stdin.prompt, '/probe:hello world 42');
});

test('(e) plugin bin/ is on the Bash PATH and a Bash(name:*) rule allows it in -p', { timeout: testTimeout }, async () => {
  const prompt = ['RUN: probe-bin alpha beta', `RUN: touch ${join(project, 'not-allowed.txt')}`].join('\n');
  const { run } = await runProbe(['-p', prompt, '--allowedTools', 'Bash(probe-bin:*)']);
  assert.equal(run.code, 0, run.stderr);
  const [allowed, other] = collectToolResults(run.calls);
  assert.deepEqual(allowed && [allowed.toolName, allowed.text, allowed.isError], ['Bash', 'PROBE-BIN-OK args=alpha beta', false]);
  // -p cannot ask, so a command no rule allows comes back as an error result.
  assert.deepEqual(other && [other.toolName, other.isError], ['Bash', true]);
  assert.match(other!.text, /needs approval|requires approval/);
  assert.ok(!existsSync(join(project, 'not-allowed.txt')));
});

test('(j) a Bash command that fails fires PostToolUseFailure with the tool, its input and what it printed; its context follows the failed result', {
  timeout: testTimeout,
}, async () => {
  const { run, hooks } = await runProbe(['-p', 'RUN: ls /no-such-dir-probe\nRUN: echo fine', '--allowedTools', 'Bash']);
  assert.equal(run.code, 0, run.stderr);
  const failed = hooks.filter((h) => h.event === 'PostToolUseFailure');
  assert.equal(failed.length, 1, 'a command that succeeds fires no PostToolUseFailure');
  const input = failed[0]!.stdin;
  assert.equal(input.tool_name, 'Bash');
  assert.deepEqual((input.tool_input as { command?: string }).command, 'ls /no-such-dir-probe');
  assert.match(String(input.error), /^Exit code \d+\n.*no-such-dir-probe/s);
  const after = run.calls.find((c) => c.toolResults.some((r) => r.isError && /no-such-dir-probe/.test(r.text)));
  assert.ok(after, 'the failed result reached the model');
  assert.match(after.systemMessagesText, new RegExp(`PostToolUseFailure:Bash hook additional context: ${probeFailureContext}`));
});

test('(f) Write under .claude/ is refused as sensitive unless bypassPermissions (IS_SANDBOX=1 as root)', {
  timeout: testTimeout,
}, async () => {
  const sensitive = (name: string) => join(project, '.claude', name);

  const byDefault = await runProbe(['-p', `WRITE: ${sensitive('default.txt')} :: x`]);
  const accept = await runProbe([
    '-p',
    [`WRITE: ${sensitive('accept.txt')} :: x`, `WRITE: ${join(project, 'plain.txt')} :: x`].join('\n'),
    '--permission-mode',
    'acceptEdits',
    '--allowedTools',
    'Write',
  ]);
  const refusal = (path: string) => `Claude requested permissions to edit ${path} which is a sensitive file.`;
  assert.deepEqual(
    collectToolResults(byDefault.run.calls).map((r) => [r.text, r.isError]),
    [[refusal(sensitive('default.txt')), true]],
  );
  const acceptResults = collectToolResults(accept.run.calls);
  assert.deepEqual(acceptResults[0] && [acceptResults[0].text, acceptResults[0].isError], [refusal(sensitive('accept.txt')), true]);
  assert.match(acceptResults[1]!.text, /^File created successfully/);
  assert.ok(!existsSync(sensitive('default.txt')) && !existsSync(sensitive('accept.txt')));
  assert.ok(existsSync(join(project, 'plain.txt')));

  if (process.getuid?.() === 0) {
    const refused = await runProbe(['-p', 'hi', '--permission-mode', 'bypassPermissions'], {});
    assert.equal(refused.run.code, 1);
    assert.match(refused.run.stderr, /cannot be used with root\/sudo privileges/);
  }
  const bypass = await runProbe(
    ['-p', [`WRITE: ${sensitive('bypass.txt')} :: written`, 'RUN: printf %s "$PATH"'].join('\n'), '--permission-mode', 'bypassPermissions'],
    { IS_SANDBOX: '1' },
  );
  const [write, path] = collectToolResults(bypass.run.calls);
  assert.match(write!.text, /^File created successfully/);
  assert.equal(await readFile(sensitive('bypass.txt'), 'utf8'), 'written');
  // The plugin's bin/ is appended, so commands already on PATH win over it.
  assert.ok(path!.text.endsWith(`:${join(plugin, 'bin')}`), path!.text);
});

test('(h) the Agent tool runs a subagent that fires SubagentStop and does not see SessionStart context', {
  timeout: testTimeout,
}, async () => {
  const { run, hooks } = await runProbe(['-p', 'TASK: subagent please reply']);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(eventsOf(hooks), ['SessionStart', 'UserPromptSubmit', 'SubagentStart', 'SubagentStop', 'Stop', 'SessionEnd']);
  const sub = only(hooks, 'SubagentStop').stdin;
  assert.equal(sub.agent_type, 'general-purpose');
  assert.equal(sub.stop_hook_active, false);
  assert.equal(typeof sub.agent_id, 'string');
  const sessionId = parseJsonResult(run.stdout).session_id;
  assert.equal(sub.session_id, sessionId);
  assert.equal(
    sub.agent_transcript_path,
    join(String(sub.transcript_path).replace(/\.jsonl$/, ''), 'subagents', `agent-${String(sub.agent_id)}.jsonl`),
  );
  assert.equal(sub.last_assistant_message, `OK (fake reply to request ${String(run.calls[1]!.seq)})`);
  assert.equal(run.calls.length, 3, 'main turn, subagent, main turn after the result');
  assert.equal(run.calls[1]!.promptText, 'subagent please reply');
  assert.ok(!run.calls[1]!.allText.includes('PROBE-CONTEXT'));
  assert.ok(run.calls[2]!.allText.includes('PROBE-CONTEXT'));
});

test('(i) UserPromptSubmit context joins the main request; SubagentStart gets agent_type and agent_id and its context reaches only the subagent', {
  timeout: testTimeout,
}, async () => {
  // A project agent with a role in its frontmatter: its type is its name.
  await writeTree(project, {
    '.claude/agents/ward-sentinel.md':
      '---\nname: ward-sentinel\ndescription: Reviews diffs.\nrole: reviewer\n---\nYou are the ward sentinel.\n',
  });
  const task = { description: 'review', prompt: 'review the diff please', subagent_type: 'ward-sentinel', run_in_background: false };
  const { run, hooks } = await runProbe(['-p', `PROBE-RECALL please\nTOOL: Agent ${JSON.stringify(task)}`]);
  assert.equal(run.code, 0, run.stderr);
  assert.deepEqual(eventsOf(hooks), ['SessionStart', 'UserPromptSubmit', 'SubagentStart', 'SubagentStop', 'Stop', 'SessionEnd']);
  const start = only(hooks, 'SubagentStart').stdin;
  const stop = only(hooks, 'SubagentStop').stdin;
  assert.equal(start.agent_type, 'ward-sentinel');
  assert.equal(typeof start.agent_id, 'string');
  assert.equal(start.agent_id, stop.agent_id, 'one agent id from start to stop');
  assert.equal(start.session_id, parseJsonResult(run.stdout).session_id, "the parent's session id");
  assert.equal(start.cwd, project);
  const [main, subagent, after] = run.calls;
  assert.ok(subagent!.systemText.includes('You are the ward sentinel.'), 'the second request is the subagent');
  assert.ok(subagent!.systemMessagesText.includes('SubagentStart hook additional context: PROBE-SUBAGENT-CONTEXT type=ward-sentinel'));
  assert.ok(!subagent!.allText.includes('PROBE-PROMPT-CONTEXT'), "the subagent does not get the parent's prompt context");
  for (const call of [main!, after!]) {
    assert.ok(call.systemMessagesText.includes('UserPromptSubmit hook additional context: PROBE-PROMPT-CONTEXT'));
    assert.ok(!call.allText.includes('PROBE-SUBAGENT-CONTEXT'), "the parent never sees the subagent's context");
  }
});

describe('(g) claude plugin validate', () => {
  test('accepts the probe plugin and lists what it provides', { timeout: testTimeout }, async () => {
    const run = await runClaude({ args: ['plugin', 'validate', '--json', plugin], cwd: project, home, server, timeoutMs: runTimeout });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(run.stdout) as {
      success: boolean;
      manifest: { errors: unknown[] };
      provides: { commands: string[]; bin: string[]; hooks: { event: string }[] };
    };
    assert.equal(report.success, true);
    assert.deepEqual(report.manifest.errors, []);
    assert.deepEqual(report.provides.commands, ['probe:hello']);
    assert.deepEqual(report.provides.bin, ['probe-bin']);
    assert.deepEqual(
      report.provides.hooks.map((h) => h.event),
      ['SessionStart', 'UserPromptSubmit', 'PostToolUseFailure', 'PreCompact', 'Stop', 'SubagentStart', 'SubagentStop', 'SessionEnd'],
    );
    assert.equal(run.calls.length, 0, 'validation makes no model call');
  });

  test('rejects a manifest whose name is not kebab-case', { timeout: testTimeout }, async () => {
    const bad = await makeTempDir('bad-plugin');
    try {
      await writeTree(bad, { '.claude-plugin/plugin.json': JSON.stringify({ name: 'Bad Name' }) });
      const run = await runClaude({ args: ['plugin', 'validate', bad], cwd: project, home, server, timeoutMs: runTimeout });
      assert.equal(run.code, 1);
      assert.match(run.stdout + run.stderr, /Plugin name cannot contain spaces/);
    } finally {
      await removeDirs(bad);
    }
  });
});

test('the CLI under test is the pinned devDependency', { timeout: testTimeout }, async () => {
  const pkg = JSON.parse(await readFile(join(claudeBin, '..', '..', '@anthropic-ai', 'claude-code', 'package.json'), 'utf8')) as {
    version: string;
  };
  assert.equal(pkg.version, '2.1.330');
});
