// Recall at a failure (PostToolUseFailure), in-process: a shell command that fails with an error a
// captured lesson knows gets that lesson beside its result, once per session, logged as given;
// any other failure, another tool's, a forgotten lesson's or one with recall at failures off, gets nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { executeHook, type HookHandler } from '../../src/hooks/run-hook.ts';
import { sessionEnd } from '../../src/hooks/session-end-handler.ts';
import { toolFailure } from '../../src/hooks/tool-failure-handler.ts';
import { forgetEntry } from '../../src/store/memory/role-edits.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const env = (tp: TempProject) => ({ HOME: join(tp.dir, 'home'), CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' });

async function run(tp: TempProject, name: string, handler: HookHandler, input: Record<string, unknown>): Promise<Record<string, any>> {
  return JSON.parse(await executeHook(hookSpec(name), handler, { cwd: tp.dir, ...input }, env(tp), tp.dir));
}

/** An earlier session: `npm install` fails, `rm -rf node_modules` and a second install make it pass. */
async function learnFix(tp: TempProject): Promise<void> {
  const path = join(tp.dir, 'earlier.jsonl');
  new TranscriptBuilder(path, 'sess-aaaa1111', tp.dir)
    .user('set up the project')
    .bash('npm install', 1, "npm error Cannot read properties of null (reading 'matches')")
    .bash('rm -rf node_modules')
    .bash('npm install', 0, 'added 12 packages');
  await run(tp, 'session-end', sessionEnd, { session_id: 'sess-aaaa1111', transcript_path: path, reason: 'exit' });
}

const failure = (tp: TempProject, session: string, error: string, tool = 'Bash') =>
  run(tp, 'tool-failure', toolFailure, {
    session_id: session,
    transcript_path: join(tp.dir, `${session}.jsonl`),
    hook_event_name: 'PostToolUseFailure',
    tool_name: tool,
    tool_input: { command: 'npm ci' },
    error,
  });

const context = (out: Record<string, any>): string | undefined => out.hookSpecificOutput?.additionalContext;

const SAME_ERROR =
  "Exit code 1\nnpm error Cannot read properties of null (reading 'matches')\nnpm error A complete log of this run can be found in: /home/u/.npm/_logs/2026-11-27T10_00_00_000Z-debug-0.log";

test('a failure whose error a captured fix knows is given that fix, once per session, and the giving is logged', async (t) => {
  const tp = makeTempProject(t);
  await learnFix(tp);
  const fix = documentEntries(parseEchoDocument(tp.read('.claude/echoes/team/MEMORY.md') ?? '')).find((e) => e.captured === 'fix');
  assert.ok(fix, 'the earlier session left a fix');

  const out = await failure(tp, 'sess-bbbb2222', SAME_ERROR);
  const text = context(out) ?? '';
  assert.equal(out.hookSpecificOutput?.hookEventName, 'PostToolUseFailure');
  assert.match(text, /^<rune-echoes note="Project memory that knows this error/);
  assert.match(text, /rm -rf node_modules/);
  assert.match(text, new RegExp(`team#${fix.id}`));
  assert.match(text, /<\/rune-echoes>$/);

  // The same error again in the same session: the lesson is already beside the first one.
  assert.equal(context(await failure(tp, 'sess-bbbb2222', SAME_ERROR)), undefined);
  // Another session is given it again.
  assert.match(context(await failure(tp, 'sess-cccc3333', SAME_ERROR)) ?? '', /rm -rf node_modules/);

  const usage = readFileSync(tp.paths.usageLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const given = usage.filter((e) => e.via === 'failure');
  assert.deepEqual(
    given.map((e) => [e.session, e.event, e.ids]),
    [
      ['sess-bbbb2222', 'injected', [`team#${fix.id}`]],
      ['sess-cccc3333', 'injected', [`team#${fix.id}`]],
    ],
  );
});

test('nothing is given for an error no lesson knows, another tool, a forgotten lesson, or with recall at failures off', async (t) => {
  const tp = makeTempProject(t);
  await learnFix(tp);
  assert.deepEqual(await failure(tp, 's1', 'Exit code 2\nError: ENOENT: no such file or directory, open config.json'), {
    suppressOutput: true,
  });
  assert.deepEqual(await failure(tp, 's2', SAME_ERROR, 'Read'), { suppressOutput: true });
  assert.deepEqual(await failure(tp, 's3', ''), { suppressOutput: true });

  tp.write('.claude/rune-config.yml', 'echoes:\n  recall:\n    on_failure: false\n');
  assert.deepEqual(await failure(tp, 's4', SAME_ERROR), { suppressOutput: true });
  tp.write('.claude/rune-config.yml', 'echoes:\n  recall:\n    on_failure: true\n');
  assert.ok(context(await failure(tp, 's5', SAME_ERROR)));

  const fix = documentEntries(parseEchoDocument(tp.read('.claude/echoes/team/MEMORY.md') ?? '')).find((e) => e.captured === 'fix')!;
  assert.ok(forgetEntry(tp.paths, 'team', fix.id, new Date()));
  assert.deepEqual(await failure(tp, 's6', SAME_ERROR), { suppressOutput: true });
});

test('a lesson written by hand is given by its signature, and a secret in it is filtered', async (t) => {
  const tp = makeTempProject(t);
  const key = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
  tp.write(
    '.claude/echoes/team/MEMORY.md',
    [
      '<!-- echo-schema: v2 -->',
      '# Team Memory',
      '',
      '### [2026-11-01] Obstacle: Error: connect ECONNREFUSED 127.0.0.1:5432',
      '- **id**: db-down',
      '- **layer**: traced',
      '- **confidence**: 0.5',
      '- **verified**: 2026-11-01',
      '- **captured**: obstacle',
      '- **signature**: error:error connect econnrefused # # # # #',
      `- Start the database first: \`docker compose up -d db\` (token ${key}).`,
      '',
    ].join('\n'),
  );
  const text = context(await failure(tp, 's1', 'Exit code 1\nError: connect ECONNREFUSED 127.0.0.1:6543')) ?? '';
  assert.match(text, /docker compose up -d db/);
  assert.match(text, /team#db-down/);
  assert.ok(!text.includes(key), text);
});

test("a command that outran Claude Code's time limit in two sessions is told so when it times out again; another command is not", async (t) => {
  const tp = makeTempProject(t);
  for (const id of ['sess-t1111111', 'sess-t2222222']) {
    const path = join(tp.dir, `${id}.jsonl`);
    new TranscriptBuilder(path, id, tp.dir)
      .user('run the end-to-end tests')
      .tool('Bash', { command: 'npm run e2e' }, 'Command timed out after 2m 0.0s\n> e2e\nrunning 40 specs', true);
    await run(tp, 'session-end', sessionEnd, { session_id: id, transcript_path: path, reason: 'exit' });
  }
  const timeout = (session: string, command: string) =>
    run(tp, 'tool-failure', toolFailure, {
      session_id: session,
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_input: { command },
      error: 'Command timed out after 2m 0s\n> e2e\nrunning 40 specs',
    });
  assert.match(context(await timeout('sess-t3333333', 'npm run e2e')) ?? '', /in the background, or with a longer timeout/);
  assert.deepEqual(await timeout('sess-t3333333', 'npm run build'), { suppressOutput: true });
});

test('a failure whose error line sits in a long log is read from the same part of it as capture read, so its fix is found', async (t) => {
  const tp = makeTempProject(t);
  const log = [
    'Exit code 1',
    ...Array.from({ length: 40 }, (_, i) => `building module ${i} of 80 …`),
    "TypeError: Cannot read properties of undefined (reading 'map')",
    ...Array.from({ length: 30 }, (_, i) => `    at step${i} (node_modules/tool/lib/run.js:${i}:7)`),
    'npm error Lifecycle script `build` failed with error:',
    'npm error code 1',
  ].join('\n');
  const path = join(tp.dir, 'long.jsonl');
  new TranscriptBuilder(path, 'sess-long1111', tp.dir)
    .user('build it')
    .tool('Bash', { command: 'npm run build' }, log, true)
    .bash('npm run codegen')
    .bash('npm run build', 0, 'built');
  await run(tp, 'session-end', sessionEnd, { session_id: 'sess-long1111', transcript_path: path, reason: 'exit' });
  const fix = documentEntries(parseEchoDocument(tp.read('.claude/echoes/team/MEMORY.md') ?? '')).find((e) => e.captured === 'fix');
  assert.ok(fix, 'the session left a fix');
  const out = await run(tp, 'tool-failure', toolFailure, {
    session_id: 'sess-long2222',
    hook_event_name: 'PostToolUseFailure',
    tool_name: 'Bash',
    tool_input: { command: 'npm run build' },
    error: log,
  });
  assert.match(context(out) ?? '', /npm run codegen/);
});
