// The review agents may only read: which tool calls and shell commands count as reading.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isReadOnlyAgent, refuseWrite, splitCommands } from '../../src/core/security/read-only-agents.ts';

test('the three review agents are read-only, with or without the plugin prefix; others are not', () => {
  for (const a of ['rune:memory-auditor', 'rune:echo-reader', 'rune:signal-discoverer', 'memory-auditor']) assert.ok(isReadOnlyAgent(a), a);
  for (const a of [undefined, '', 'general-purpose', 'rune:other', 'Explore']) assert.ok(!isReadOnlyAgent(a), String(a));
});

test('file-writing tools are refused, reading tools pass', () => {
  for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit']) assert.match(refuseWrite(tool, undefined) ?? '', /not allowed/);
  for (const tool of ['Read', 'Grep', 'Glob']) assert.equal(refuseWrite(tool, undefined), null);
});

test('reading shell commands pass: search, listing, git history, the CLI read commands, pipes between them', () => {
  for (const cmd of [
    'git log --follow --diff-filter=DR --format="%h %as %s" -- src/auth.ts',
    "git log -L 10,20:src/a.ts --format='%h %as %s'",
    'git show a1b2c3d --stat',
    'grep -rn "=>" src | head -20',
    "rg -n 'retry|backoff' src",
    'find . -name "*.ts" -newer package.json',
    'rune-echoes show --json',
    'rune-echoes search retry backoff --kind log',
    'rune-echoes remembrance --verify',
    'ls -la .claude/echoes && wc -l .claude/echoes/*/MEMORY.md',
    'git log --oneline 2>&1 | head -5',
    'cat src/a.ts 2>/dev/null',
    'cd src && grep -n x a.ts',
  ]) {
    assert.equal(refuseWrite('Bash', cmd), null, cmd);
  }
});

test('anything that writes, or could, is refused with a reason', () => {
  const cases: Array<[string, RegExp]> = [
    ['touch x', /"touch" is not on the read-only list/],
    ['rm -rf src', /"rm" is not on the read-only list/],
    ['ls && rm -rf /', /"rm"/],
    ['grep x a; npm install', /"npm"/],
    ['rune-echoes record --role r --agent a "x"', /"rune-echoes record" changes things/],
    ['rune-echoes forget some-id', /"rune-echoes forget"/],
    ['rune-echoes reset --yes', /"rune-echoes reset"/],
    ['git commit -m x', /"git commit"/],
    ['git checkout -- .', /"git checkout"/],
    ['git log > out.txt', /redirection/],
    ['echo x >> .claude/echoes/reviewer/MEMORY.md', /redirection/],
    ['cat $(ls)', /substitution/],
    ['cat `ls`', /substitution/],
    ['grep "$(rm -rf x)" a', /substitution/],
    ['sleep 100 &', /background/],
    ['find . -name "*.tmp" -delete', /"find -delete"/],
    ['find . -exec rm {} ;', /"find -exec"/],
    ['rg --pre ./evil x', /"rg --pre"/],
    ['sort -o out.txt in.txt', /"sort -o"/],
    ['git diff --output=patch.txt', /--output/],
    ['/bin/sh -c "touch x"', /"\/bin\/sh"/],
  ];
  for (const [cmd, why] of cases) assert.match(refuseWrite('Bash', cmd) ?? '(allowed)', why, cmd);
});

test('quoted separators do not split a command', () => {
  assert.deepEqual(splitCommands(`grep 'a;b|c' x | head -3 && echo "d && e"`), [`grep 'a;b|c' x`, 'head -3', 'echo "d && e"']);
});
