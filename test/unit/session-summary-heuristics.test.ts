import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commandFamily, normalizeCommand } from '../../src/core/session/summary-commands.ts';
import { commitSubject, condenseConclusion, cueSentences, planHeadline } from '../../src/core/session/summary-decisions.ts';
import { splitSentences } from '../../src/core/session/summary-text.ts';

test('sentences split at sentence ends and lines, list markers dropped', () => {
  assert.deepEqual(splitSentences('First one. Second `x` one.\n- item\n1. step'), ['First one.', 'Second `x` one.', 'item', 'step']);
});

test('cue sentences: causes and decisions in, narration and questions out', () => {
  const text =
    'Let me check the config. The root cause was a stale lock file. I see the issue. The retry loop never reset its counter. ' +
    'Should I also clear the cache? We decided to keep the old API instead of breaking callers.';
  assert.deepEqual(
    cueSentences(text).map((c) => c.text),
    [
      'The root cause was a stale lock file.',
      'The retry loop never reset its counter.',
      'We decided to keep the old API instead of breaking callers.',
    ],
  );
});

test('a wrap-up becomes one line: headline plus the first list items or table rows', () => {
  assert.equal(
    condenseConclusion(
      'Perfect! All done.\n\n## Summary\n\nHere is what changed:\n\n- Added retries\n  - nested detail\n- Capped backoff\n- Fixed tests\n- Extra',
    ),
    'Added retries; Capped backoff; Fixed tests',
  );
  assert.equal(
    condenseConclusion('Epic complete:\n\n| Commit | Task |\n|---|---|\n| `abc` | parser |\n| `def` | hook |'),
    'Epic complete: `abc` · parser; `def` · hook',
  );
  assert.equal(condenseConclusion('Let me run the tests now.'), null);
  assert.equal(condenseConclusion('Which option do you prefer?'), null);
});

test('plan headline: title and the first line of the approach', () => {
  assert.equal(
    planHeadline('# Plan: Faster search\n\n## Context\n\nSearch is slow.\n\n## Approach\n\nBuild an index at startup. Then query it.'),
    'Plan: Faster search — Build an index at startup.',
  );
  assert.equal(planHeadline('Just do it quickly'), 'Plan: Just do it quickly');
});

test('commit subjects from -m and heredoc forms', () => {
  assert.equal(commitSubject('git commit -m "fix: cap retries"'), 'fix: cap retries');
  assert.equal(commitSubject("git add -A && git commit -m 'feat: x'"), 'feat: x');
  assert.equal(commitSubject(`git commit -m "$(cat <<'EOF'\nfeat: unified view\n\nbody\nEOF\n)"`), 'feat: unified view');
  assert.equal(commitSubject('git status'), null);
});

test('commands: one line, no cd prefix or redirections, cwd made relative, message bodies elided', () => {
  assert.equal(normalizeCommand('cd /repo && npm test 2>&1 | tail -20', '/repo'), 'npm test');
  assert.equal(normalizeCommand('mix test /repo/test/a_test.exs', '/repo'), 'mix test test/a_test.exs');
  assert.equal(normalizeCommand(`git commit -m "$(cat <<'EOF'\nmsg\nEOF\n)"`, null), 'git commit -m …');
  assert.equal(normalizeCommand('python3 -c "\nimport x\n"', null), 'python3 -c " …');
  assert.equal(normalizeCommand('cd todo-app', null), '');
  // Comments say what a step is for; what runs is the command (a `#` inside quotes is no comment).
  assert.equal(normalizeCommand('# Restart the API to apply changes\npkill -f uvicorn', null), 'pkill -f uvicorn');
  assert.equal(normalizeCommand('cd /repo/web && # build with full output\nnpm run build 2>&1', '/repo'), 'npm run build');
  assert.equal(normalizeCommand('echo "#1 done" # note', null), 'echo "#1 done"');
  assert.equal(commandFamily('mix test test/a_test.exs'), 'mix test');
  assert.equal(commandFamily('git add x && git commit -m …'), 'git commit');
  assert.equal(commandFamily('npm run build --prod'), 'npm run build');
});
