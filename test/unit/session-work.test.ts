import assert from 'node:assert/strict';
import { test } from 'node:test';
import { didWork, isOtherWorkTool, TALK_CHARS } from '../../src/core/session/session-work.ts';
import { emptySummary } from '../../src/core/session/summary-model.ts';

const s = (over: Partial<ReturnType<typeof emptySummary>>) => ({ ...emptySummary(), ...over });
const cmd = (command: string) => ({ command, failed: false, count: 1 });

test('a session that only ran /rune:echoes commands did no work', () => {
  assert.equal(didWork(s({ requests: ['/rune:echoes status', '/echoes search retry backoff'] })), false);
  assert.equal(didWork(s({ requests: ['/rune:echoes show'], commands: [cmd('rune-echoes show --json')] })), false);
  assert.equal(didWork(s({ commands: [cmd('node "/p/dist/cli.mjs" --slash-args abc')] })), false);
  assert.equal(didWork(s({ commands: [cmd('rune-echoes search retry --json'), cmd('rune-echoes status')] })), false);
});

test('an agent that records or changes memory through the CLI did work', () => {
  assert.equal(didWork(s({ commands: [cmd('rune-echoes record --role planner --agent scout "x"')] })), true);
  assert.equal(didWork(s({ commands: [cmd('rune-echoes forget old-id')] })), true);
});

test('a session that used no tool and wrote little did no work; one that talked at length did', () => {
  assert.equal(didWork(s({ requests: ['hi', 'thanks'] })), false);
  assert.equal(didWork(s({ requests: ['x'.repeat(TALK_CHARS - 1)] })), false);
  assert.equal(didWork(s({ requests: ['x'.repeat(TALK_CHARS / 2), 'y'.repeat(TALK_CHARS / 2)] })), true);
  assert.equal(didWork(s({ requests: [`/rune:echoes remember ${'z'.repeat(TALK_CHARS)}`] })), false);
});

test('touching a file, searching, running a command or keeping todos is work', () => {
  assert.equal(didWork(s({ filesRead: ['src/a.ts'] })), true);
  assert.equal(didWork(s({ filesEdited: ['src/a.ts'] })), true);
  assert.equal(didWork(s({ searches: ['retry in src'] })), true);
  assert.equal(didWork(s({ commands: [cmd('npm test')] })), true);
  assert.equal(didWork(s({ openTodos: ['Add a metric'] })), true);
  assert.equal(didWork(s({ todosSeen: true })), true);
});

test('handing a task to a subagent, the web, notebooks and MCP tools are work; reading memory is not', () => {
  assert.equal(didWork(s({ otherTools: 1 })), true);
  for (const name of ['Task', 'Agent', 'WebFetch', 'WebSearch', 'NotebookEdit', 'mcp__github__create_issue'])
    assert.equal(isOtherWorkTool(name), true, name);
  for (const name of ['Read', 'Bash', 'TodoWrite', 'AskUserQuestion', 'Skill', 'ExitPlanMode'])
    assert.equal(isOtherWorkTool(name), false, name);
  // What `/rune:echoes` does on its own: read memory files, search them.
  assert.equal(didWork(s({ filesRead: ['.claude/echoes/reviewer/MEMORY.md'], searches: ['retry in .claude/echoes'] })), false);
  assert.equal(didWork(s({ filesRead: ['.claude/echoes/reviewer/MEMORY.md', 'src/a.ts'] })), true);
});

test('the CLI reading memory is not work wherever it is installed; anything chained after it is', () => {
  assert.equal(didWork(s({ commands: [cmd('node "/Users/Jane Doe/.claude/plugins/rune/dist/cli.mjs" show')] })), false);
  assert.equal(didWork(s({ commands: [cmd("node '/opt/my plugins/rune/dist/cli.mjs' search retry --json")] })), false);
  assert.equal(didWork(s({ commands: [cmd('rune-echoes status && git reset --hard HEAD~3')] })), true);
  assert.equal(didWork(s({ commands: [cmd('rune-echoes show; rm -rf build')] })), true);
  assert.equal(didWork(s({ commands: [cmd('rune-echoes search "$(cat /etc/passwd)"')] })), true);
});
