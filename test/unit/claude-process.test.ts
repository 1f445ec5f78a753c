// Which Claude Code a hook belongs to: through /proc on Linux; without it, the
// hook's parent (a shell running one command becomes it, so that is Claude Code).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLAUDE_PID_ENV, claudeProcessId } from '../../src/store/session/claude-process.ts';

test('the parent chain is walked to a process named claude; none found is 0', () => {
  const table: Record<number, { ppid: number; comm: string }> = {
    [process.pid]: { ppid: 300, comm: 'node' },
    300: { ppid: 200, comm: 'sh' },
    200: { ppid: 1, comm: 'claude' },
    400: { ppid: 1, comm: 'bash' },
  };
  const stat = (pid: number) => table[pid] ?? null;
  assert.equal(claudeProcessId(300, stat), 200);
  assert.equal(claudeProcessId(400, stat), 0, 'run by hand');
});

test('without /proc the parent itself stands for Claude Code', () => {
  assert.equal(
    claudeProcessId(4242, () => null),
    4242,
  );
});

test('a worker is told which Claude Code it works for', () => {
  const before = process.env[CLAUDE_PID_ENV];
  process.env[CLAUDE_PID_ENV] = '777';
  try {
    assert.equal(
      claudeProcessId(1234, () => null),
      777,
    );
  } finally {
    if (before === undefined) delete process.env[CLAUDE_PID_ENV];
    else process.env[CLAUDE_PID_ENV] = before;
  }
});
