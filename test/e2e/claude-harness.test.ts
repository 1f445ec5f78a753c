// The harness's own promises: a clean, offline environment and a hard timeout
// that leaves nothing running behind.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { makeClaudeHome, makeTempDir, parseJsonResult, removeDirs, runClaude } from './claude-harness.ts';
import { type FakeAnthropic, startFakeAnthropic } from './fake-anthropic-server.ts';
import { defaultRules } from './script-rules.ts';

let server: FakeAnthropic;
let home: string;
let project: string;

before(async () => {
  server = await startFakeAnthropic({ rules: defaultRules() });
  home = await makeClaudeHome();
  project = await makeTempDir('project');
});

after(async () => {
  await server.close();
  await removeDirs(home, project);
});

/** A killed process may linger as a zombie until reaped; that counts as dead. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** SIGKILL is delivered asynchronously; give the kernel a moment (a minute at most: a loaded machine is slow). */
async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 600 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 100));
  return !isRunning(pid);
}

test('a print run talks only to the fake API and returns its reply and session id', { timeout: 600_000 }, async () => {
  const run = await runClaude({ args: ['-p', 'hi', '--output-format', 'json'], cwd: project, home, server });
  assert.equal(run.code, 0, run.stderr);
  const result = parseJsonResult(run.stdout);
  assert.equal(result.is_error, false);
  assert.match(result.result ?? '', /^OK \(fake reply to request \d+\)$/);
  assert.match(result.session_id, /^[0-9a-f-]{36}$/);
  assert.deepEqual(
    run.requests.map((r) => `${r.method} ${r.path}`),
    ['POST /v1/messages'],
  );
  assert.equal(run.requests[0]!.headers['x-api-key'], 'sk-ant-api03-fake-e2e-key-0000000000');
  assert.deepEqual(server.unknownPaths, []);
});

test('a run past its timeout is killed together with the shells it started', { timeout: 600_000 }, async () => {
  const pidFile = join(project, 'sleeper.pid');
  // The Bash tool's shell gets a process group of its own, so this sleeper is
  // only reached by walking claude's process tree.
  const sleeper = `node -e "require('fs').writeFileSync('${pidFile}', String(process.pid)); setInterval(() => {}, 1000)"`;
  const run = await runClaude({
    args: ['-p', `RUN: ${sleeper}`, '--permission-mode', 'bypassPermissions'],
    cwd: project,
    home,
    server,
    env: { IS_SANDBOX: '1' },
    timeoutMs: 4_000,
  });
  assert.equal(run.timedOut, true);
  assert.equal(run.signal, 'SIGKILL');
  const pid = Number(await readFile(pidFile, 'utf8'));
  assert.ok(pid > 0);
  assert.equal(await waitUntilGone(pid), true, 'the sleeper was killed');
});
