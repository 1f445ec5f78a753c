// The hook registry is the one list of hooks: hooks.json, the entries, the
// bundles and `status` must all agree with it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { HOOKS, renderHooksJson } from '../../src/hooks/hook-registry.ts';
import { NO_NODE_MESSAGE, NODE_MAJOR, nodeTooOld } from '../../src/hooks/node-required.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

test('hooks/hooks.json is exactly what the registry generates (npm run build writes it)', () => {
  assert.equal(readFileSync(join(REPO, 'hooks', 'hooks.json'), 'utf8'), renderHooksJson());
});

test('hooks.json runs plain node on a bundle with a timeout, nothing else; only the start reports a missing node (issue 20, item 16)', () => {
  const doc = JSON.parse(renderHooksJson()) as {
    hooks: Record<string, Array<{ hooks: Array<{ command: string; args?: string[]; timeout: number }> }>>;
  };
  for (const h of HOOKS) {
    const [group] = doc.hooks[h.event]!;
    const hook = group!.hooks[0]!;
    const bundle = `\${CLAUDE_PLUGIN_ROOT}/dist/${h.name}.cjs`;
    assert.equal(hook.args, undefined);
    // POSIX shells and PowerShell 5.1 and 7 alike: `;` and `exit 0`; the start's fallback after PowerShell's
    // stop-parsing token, which holds until a pipe or the line's end: no pipe, no `%`, nothing on a second line.
    if (h.event === 'SessionStart') {
      const message = JSON.stringify({ systemMessage: NO_NODE_MESSAGE });
      assert.equal(hook.command, `node "${bundle}" --% ; if [ $? -ne 0 ]; then echo '${message}'; fi`);
      const rest = hook.command.slice(hook.command.indexOf('--%') + 3);
      assert.doesNotMatch(rest, /[|%\n]/, 'what follows --% is all handed to node by PowerShell');
      assert.doesNotMatch(NO_NODE_MESSAGE, /['\\$`]/, 'nothing a shell would read inside the quotes');
      assert.match(NO_NODE_MESSAGE, /Node\.js 20 or later/);
      assert.match(NO_NODE_MESSAGE, /https:\/\/nodejs\.org/);
    } else assert.equal(hook.command, `node "${bundle}"; exit 0`);
    assert.equal(hook.timeout, h.timeoutSec);
  }
});

test('every hook has an entry file that runs it by its registry name, and nothing else is an entry', () => {
  const entries = readdirSync(join(REPO, 'src', 'hooks', 'entries')).sort();
  assert.deepEqual(entries, HOOKS.map((h) => `${h.name}.ts`).sort());
  for (const h of HOOKS) {
    const text = readFileSync(join(REPO, 'src', 'hooks', 'entries', `${h.name}.ts`), 'utf8');
    assert.match(text, new RegExp(`runHook\\('${h.name}'`), `${h.name}.ts runs its own hook`);
  }
});

test('dist/ holds one bundle per hook and no stale ones', () => {
  const bundles = readdirSync(join(REPO, 'dist'))
    .filter((f) => f.endsWith('.cjs'))
    .sort();
  assert.deepEqual(bundles, HOOKS.map((h) => `${h.name}.cjs`).sort());
});

test('each hook answers well inside the time Claude Code gives it', () => {
  for (const h of HOOKS) {
    const budget = h.budgetMs({});
    assert.ok(budget > 0 && budget < h.timeoutSec * 1000, `${h.name}: budget ${budget} ms under ${h.timeoutSec} s`);
  }
  const sessionEnd = HOOKS.find((h) => h.event === 'SessionEnd')!;
  assert.equal(
    sessionEnd.budgetMs({ CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '5000' }),
    4900,
    'SessionEnd follows the variable that raises its limit',
  );
  assert.ok(existsSync(join(REPO, 'src', 'hooks', 'hook-registry.ts')));
});

test('no hook runs per tool call, only per failed shell command: the review agents are kept read-only by their tool lists, not by a PreToolUse hook', () => {
  // Every such hook is a node start on each matching tool call of every session (npm run bench:tools measures it).
  const perToolCall = new Set(['PreToolUse', 'PostToolUse', 'PermissionRequest']);
  assert.deepEqual(
    HOOKS.filter((h) => perToolCall.has(h.event)).map((h) => h.name),
    [],
  );
  // A failed shell command starts one: the lesson that knows its error goes beside it.
  assert.deepEqual(
    HOOKS.filter((h) => h.event === 'PostToolUseFailure').map((h) => [h.name, h.matcher]),
    [['tool-failure', 'Bash|PowerShell']],
  );
  const agents = join(REPO, 'agents');
  for (const file of readdirSync(agents)) {
    const frontmatter = /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(agents, file), 'utf8'))?.[1] ?? '';
    assert.match(frontmatter, /^tools: Read, Grep, Glob$/m, file);
    assert.match(frontmatter, /^disallowedTools: Bash, Write, Edit, MultiEdit, NotebookEdit$/m, file);
  }
});

test('the start’s command, run by sh, bash and zsh without node on PATH, exits 0 with one JSON message for the user; with node it is the hook’s own output', () => {
  const doc = JSON.parse(renderHooksJson()) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  const command = doc.hooks.SessionStart![0]!.hooks[0]!.command.replaceAll('${CLAUDE_PLUGIN_ROOT}', REPO);
  const dir = mkdtempSync(join(tmpdir(), 'rune-no-node-'));
  try {
    for (const shell of ['/bin/sh', '/bin/bash', '/bin/zsh', '/usr/bin/zsh'].filter((s) => existsSync(s))) {
      const without = spawnSync(shell, ['-c', command], { env: { PATH: dir }, input: '{}', encoding: 'utf8' });
      assert.equal(without.status, 0, `${shell}: ${without.stderr}`);
      assert.deepEqual(JSON.parse(without.stdout), { systemMessage: NO_NODE_MESSAGE }, shell);
    }
    // A node that cannot run the bundle (too old to parse it) fails as well: the same message.
    const old = join(dir, 'old');
    mkdirSync(old);
    writeFileSync(join(old, 'node'), '#!/bin/sh\necho "SyntaxError: Unexpected token" >&2\nexit 1\n', { mode: 0o755 });
    const tooOld = spawnSync('/bin/sh', ['-c', command], {
      env: { PATH: `${old}${delimiter}/usr/bin:/bin` },
      input: '{}',
      encoding: 'utf8',
    });
    assert.equal(tooOld.status, 0);
    assert.deepEqual(JSON.parse(tooOld.stdout), { systemMessage: NO_NODE_MESSAGE });
    const node = dirname(process.execPath);
    const withNode = spawnSync('/bin/sh', ['-c', command], {
      env: { PATH: `${node}${delimiter}/usr/bin:/bin`, HOME: dir, CLAUDE_PROJECT_DIR: dir },
      input: JSON.stringify({
        session_id: 's',
        transcript_path: join(dir, 's.jsonl'),
        cwd: dir,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
      encoding: 'utf8',
      cwd: dir,
    });
    assert.equal(withNode.status, 0);
    assert.doesNotMatch(withNode.stdout, /systemMessage/, 'the hook ran: no message');
    JSON.parse(withNode.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a Node.js older than the bundles need is told so by the start itself', () => {
  assert.equal(nodeTooOld('18.19.1'), true);
  assert.equal(nodeTooOld('16.0.0'), true);
  assert.equal(nodeTooOld('20.0.0'), false);
  assert.equal(nodeTooOld('22.11.0'), false);
  assert.match(NO_NODE_MESSAGE, new RegExp(`Node\\.js ${NODE_MAJOR} or later`));
});
