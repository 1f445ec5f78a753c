// Hand-offs that tell the truth (issue 9): each rule on a small hand-made
// transcript, read the way the hooks read it (foldTranscript → renderEphemeral),
// whole and in parts.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sections } from '../../scripts/handoff-grading.ts';
import { renderEphemeral } from '../../src/core/session/session-records.ts';
import { checkKind } from '../../src/core/session/summary-checks.ts';
import type { SessionSummary } from '../../src/core/session/summary-model.ts';
import { foldTranscript } from '../../src/store/session/session-lifecycle.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const ROOT = '/repo';

function transcript(t: { after: (fn: () => void) => void }, session = 's1'): TranscriptBuilder {
  const dir = mkdtempSync(join(tmpdir(), 'handoff-truth-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return new TranscriptBuilder(join(dir, 't.jsonl'), session, ROOT);
}

/** Byte offsets where each line of the transcript starts, and its size. */
function lineStarts(path: string): { starts: number[]; size: number } {
  const bytes = readFileSync(path);
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a && i + 1 < bytes.length) starts.push(i + 1);
  return { starts, size: bytes.length };
}

/** The draft the hooks keep after reading the transcript in reads that stop at the given byte offsets. */
async function draftOf(path: string, cuts: number[] = []): Promise<SessionSummary> {
  const { size } = lineStarts(path);
  let draft: SessionSummary | null = null;
  let offset = 0;
  for (const end of [...cuts, size]) {
    const step = await foldTranscript(path, draft, { fromOffset: offset, maxBytes: end - offset });
    draft = step.draft;
    offset = step.endOffset;
  }
  return draft!;
}

async function handoff(b: TranscriptBuilder, cuts: number[] = []): Promise<Record<string, string>> {
  return sections(renderEphemeral(await draftOf(b.path, cuts)));
}

/** Read in two parts cut at every line, and in one read per line, the hand-off says what `pick` takes of it as the whole read does. */
async function assertPartsAgree(
  b: TranscriptBuilder,
  whole: Record<string, string>,
  pick: (h: Record<string, string>) => string | undefined,
): Promise<void> {
  const { starts } = lineStarts(b.path);
  for (const cut of starts.slice(1)) assert.equal(pick(await handoff(b, [cut])), pick(whole), `two parts, cut at byte ${cut}`);
  assert.equal(pick(await handoff(b, starts.slice(1))), pick(whole), 'one read per line');
}

test('paths: after `cd assets` a command is shown with its folder, and the file it runs is assets/build.js', async (t) => {
  const b = transcript(t)
    .user('Build the front-end bundle')
    .bash('node assets/build.js', 1, '✘ [ERROR] Could not resolve "js/app.js"')
    .bash('cd /repo/assets && node build.js')
    .in('/repo/assets')
    .tool('Read', { file_path: 'build.js' }, '1→const x = 1')
    .tool('Edit', { file_path: './js/../js/app.js', old_string: 'a', new_string: 'b' })
    .bash('node /repo/assets/build.js');
  const h = await handoff(b);
  assert.match(h.Commands!, /`cd assets && node build\.js`/);
  assert.ok(!h.all!.includes('`node build.js`'), 'never the bare command, which reads as a build.js at the project root');
  assert.match(h.Files!, /edited: assets\/js\/app\.js/);
  assert.match(h.Files!, /read: assets\/build\.js/);
  assert.equal(h.Open, undefined, 'the build failed from the root and passed inside assets/: the same script, nothing open');
});

test('paths: one spelling per file whatever the tool was given (absolute, relative, ./ and ..)', async (t) => {
  const b = transcript(t)
    .user('Tidy the parser')
    .tool('Read', { file_path: '/repo/src/parser.ts' })
    .tool('Edit', { file_path: 'src/./parser.ts', old_string: 'a', new_string: 'b' })
    .tool('Edit', { file_path: '/repo/lib/../src/parser.ts', old_string: 'b', new_string: 'c' })
    .in('/repo/src')
    .tool('Edit', { file_path: 'parser.ts', old_string: 'c', new_string: 'd' });
  const h = await handoff(b);
  assert.match(h.Files!, /^- edited: src\/parser\.ts$/m);
  assert.ok(!/read:/.test(h.Files!), 'a file edited is not also listed as read');
});

test('claims: "the component is in X" and "finished X" are claims that X was written, left out when the write was refused', async (t) => {
  const b = transcript(t)
    .user('Add a dark mode toggle component')
    .tool(
      'Write',
      { file_path: '/repo/src/Toggle.tsx', content: 'x' },
      "Claude requested permissions to write to /repo/src/Toggle.tsx, but you haven't granted it yet.",
      true,
    )
    .assistant('Finished: the toggle component is in src/Toggle.tsx.');
  const h = await handoff(b);
  assert.ok(!(h['Done and decided'] ?? '').includes('Toggle.tsx'), h['Done and decided']);
  assert.match(h.Open!, /`src\/Toggle\.tsx` not written/);
});

test('claims: a refused write is not done, its todo is not done, and Open says so (the /init session)', async (t) => {
  const b = transcript(t)
    .slash('init', '', 'Please analyze this codebase and create a CLAUDE.md file with the commands to build and test.')
    .todos([
      ['Check for an existing README', 'in_progress'],
      ['Create CLAUDE.md with the build commands', 'pending'],
    ])
    .bash('ls -la', 0, 'total 0')
    .tool(
      'Write',
      { file_path: '/repo/CLAUDE.md', content: '# CLAUDE.md' },
      "Claude requested permissions to write to /repo/CLAUDE.md, but you haven't granted it yet.",
      true,
    )
    .todos([
      ['Check for an existing README', 'completed'],
      ['Create CLAUDE.md with the build commands', 'completed'],
    ])
    .assistant("I've created a basic CLAUDE.md file for this empty repository.");
  const h = await handoff(b);
  assert.equal(h.Asked, '- /init\n', 'the request is the command the user typed, not its expansion');
  assert.ok(!(h['Done and decided'] ?? '').includes('CLAUDE.md'), 'the claim the results contradict is not listed as done');
  assert.ok(!(h.Files ?? '').includes('CLAUDE.md'));
  assert.match(h.Open!, /`CLAUDE\.md` not written \(refused: permission not granted\)/);
  assert.match(h.Open!, /the todo "Create CLAUDE\.md with the build commands" is marked completed/);
  assert.match(h.Open!, /reported done: "I've created a basic CLAUDE\.md file/);
});

test('claims: a todo marked completed and "tests pass" while the last test run failed are reported in Open, not in Done', async (t) => {
  const b = transcript(t)
    .user('Fix the retry logic and run the tests')
    .todos([['Run the test suite', 'in_progress']])
    .tool('Edit', { file_path: '/repo/src/retry.ts', old_string: 'a', new_string: 'b' })
    .bash('npm test', 1, '3 failing')
    .todos([['Run the test suite', 'completed']])
    .assistant('Fixed the retry loop. All tests pass now.');
  const h = await handoff(b);
  assert.ok(!(h['Done and decided'] ?? '').includes('All tests pass'));
  assert.match(
    h.Open!,
    /`npm test` failed on its last run — yet the todo "Run the test suite" is marked completed; reported done: ".*All tests pass now\."/,
  );
});

test('claims: a failed edit made good by a later write leaves nothing open', async (t) => {
  const b = transcript(t)
    .user('Update the changelog')
    .tool(
      'Edit',
      { file_path: '/repo/CHANGELOG.md' },
      '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
      true,
    )
    .tool('Read', { file_path: '/repo/CHANGELOG.md' })
    .tool('Edit', { file_path: '/repo/CHANGELOG.md', old_string: 'a', new_string: 'b' })
    .assistant('Updated CHANGELOG.md with the release notes.');
  const h = await handoff(b);
  assert.equal(h.Open, undefined);
  assert.match(h.Files!, /edited: CHANGELOG\.md/);
  assert.match(h['Done and decided']!, /Updated CHANGELOG\.md/);
});

test('open means still open at the end: a commit refused by its hook and then made, a push without upstream and then pushed', async (t) => {
  const b = transcript(t)
    .user('Commit and push the fix')
    .bash('git add -A && git commit -m "fix: retries"', 1, 'Pre-commit validation failed: [FORMAT] Code is not formatted.')
    .bash('mix format')
    .bash('git add -A && git commit -m "fix: retries"', 0, '[main 1a2b3c4] fix: retries')
    .bash('git push', 128, 'fatal: The current branch main has no upstream branch.')
    .bash('git push --set-upstream origin main', 0, 'branch set up to track');
  const h = await handoff(b);
  assert.equal(h.Open, undefined);
  assert.ok(!h.all!.includes('last run failed'));
  assert.match(h.Commands!, /`git push` \(failed once, a later run passed\)/);
});

test('open means still open at the end: one test file failing and then the whole suite passing settles it; the reverse does not', async (t) => {
  const settled = transcript(t, 'a')
    .user('Fix the parser tests')
    .bash('mix test test/parser_test.exs', 2, '1 test, 1 failure')
    .bash('mix test', 0, '120 tests, 0 failures');
  assert.equal((await handoff(settled)).Open, undefined);
  const open = transcript(t, 'b')
    .user('Fix the parser tests')
    .bash('mix test', 2, '120 tests, 3 failures')
    .bash('mix test test/parser_test.exs', 0, '4 tests, 0 failures');
  assert.match((await handoff(open)).Open!, /`mix test` failed on its last run/);
  const again = transcript(t, 'c').user('Run the tests').bash('npm test').bash('npm test', 1, '2 failing');
  assert.match((await handoff(again)).Open!, /`npm test` failed on its last run/, 'a check that passed and then failed is open');
});

test('open: a check piped into a grep that matched nothing did not fail; one whose output shows errors did', async (t) => {
  const b = transcript(t)
    .user('Check the types of the archive files')
    .bash('npm run typecheck 2>&1 | grep -E "archive|search/route"', 1, '')
    .bash('npm run lint 2>&1 | grep -c warning', 1, '0');
  const h = await handoff(b);
  assert.equal(h.Open, undefined, 'grep found no error lines: nothing is open');
  assert.ok(!h.Commands!.includes('(failed)'), h.Commands);
  const errors = transcript(t, 'b')
    .user('Check the types')
    .bash(
      'npm run typecheck 2>&1 | grep -E "error TS"',
      0,
      "src/a.ts(3,1): error TS2322: Type 'string' is not assignable to type 'number'.",
    )
    .bash('npm run build 2>&1 | grep -E "x"', 2, 'rg: error parsing flag -E');
  const e = await handoff(errors);
  assert.match(e.Commands!, /`npm run build 2>&1 \| grep -E "x"` \(failed\)/, 'grep itself failing (exit 2) is a failure');
});

test('open: a test run whose pipe hid the exit status still failed when its totals say so', async (t) => {
  const b = transcript(t).user('Run the suite').bash('mix test 2>&1 | tail -5', 0, 'Finished in 2.1 seconds\n120 tests, 2 failures');
  // Shown as typed (issue 20, item 5).
  assert.match((await handoff(b)).Open!, /`mix test 2>&1 \| tail -5` failed on its last run/);
});

test('open: totals printed in colour (vitest, jest) still say the run failed', async (t) => {
  const esc = '\u001b';
  const coloured = ` ${esc}[41m${esc}[1m FAIL ${esc}[22m${esc}[49m src/lib/hotkeys.test.ts > isHotkey\n ${esc}[2m Test Files ${esc}[22m ${esc}[1m${esc}[31m6 failed${esc}[39m${esc}[22m${esc}[2m | ${esc}[22m${esc}[1m${esc}[32m7 passed${esc}[39m${esc}[22m`;
  const b = transcript(t).user('Run the suite').bash('make test 2>&1 | tail -30', 0, coloured);
  assert.match((await handoff(b)).Open!, /`make test 2>&1 \| tail -30` failed on its last run/);
  // A transcript that lost the escape character keeps the rest of each escape: `[31m6 failed`.
  const bare = transcript(t, 'b').user('Run the suite').bash('make test 2>&1 | tail -30', 0, coloured.replaceAll(esc, ''));
  assert.match((await handoff(bare)).Open!, /`make test 2>&1 \| tail -30` failed on its last run/);
});

test('open: a failure read in one part and settled in the next is not open (the hooks read in parts)', async (t) => {
  const b = transcript(t)
    .user('Make the build green')
    .bash('npm run build', 1, 'error TS2322')
    .tool('Edit', { file_path: '/repo/src/a.ts', old_string: 'a', new_string: 'b' })
    .bash('npm run build', 0, 'done');
  const { starts } = lineStarts(b.path);
  for (const cut of starts.slice(1)) {
    const h = await handoff(b, [cut]);
    assert.equal(h.Open, undefined, `read in two parts at byte ${cut}`);
  }
});

test('files: a file deleted with rm is listed as deleted, not edited; a file created and removed again is neither', async (t) => {
  const b = transcript(t)
    .user('Replace the Python port with Rust')
    .tool('Write', { file_path: '/repo/src/lib.rs', content: 'pub fn x() {}' })
    .tool('Write', { file_path: '/repo/.scratch.md', content: 'notes' })
    .bash('rm /repo/src/util.py /repo/pyproject.toml')
    .bash('rm -r tests/')
    .bash('rm .scratch.md');
  const h = await handoff(b);
  assert.match(h.Files!, /^- edited: src\/lib\.rs$/m);
  assert.match(h.Files!, /^- deleted: src\/util\.py, pyproject\.toml, tests, \.scratch\.md$/m);
});

test('files: a file written through the shell (cat > file) counts as written and settles a refused Write', async (t) => {
  const b = transcript(t)
    .user('Add the types')
    .tool(
      'Write',
      { file_path: '/repo/types/state.ts', content: 'x' },
      '<tool_use_error>File has not been read yet.</tool_use_error>',
      true,
    )
    .bash("cat > types/state.ts << 'EOF'\nexport interface State {}\nEOF");
  const h = await handoff(b);
  // Nothing ran it since (issue 20, item 6), but the write is not open.
  assert.doesNotMatch(h.Open ?? '', /not written|last change/);
  assert.match(h.Files!, /edited: types\/state\.ts/);
});

test('requests: not a /compact instruction, a compaction prompt or a slash expansion; a compaction summary is a source', async (t) => {
  const recap = [
    'This session is being continued from a previous conversation that ran out of context.',
    'Summary:',
    '1. Primary Request and Intent:',
    '   The user wants retries in the HTTP client.',
    '',
    '6. All user messages:',
    '   - "Add retries with backoff to the HTTP client"',
    '   - "continue"',
    '',
    '7. Pending Tasks:',
    '   - Write the backoff tests',
  ].join('\n');
  const b = transcript(t)
    .compactSummary(recap)
    .slash('compact', 'and keep the plan')
    .meta('Your task is to create a detailed summary of the conversation so far, paying close attention to the user requests.');
  const before = await handoff(b);
  assert.equal(before.Asked, '- (from a compaction summary) Add retries with backoff to the HTTP client\n');
  assert.match(before.Open!, /Pending when the conversation was compacted: Write the backoff tests/);
  b.tool('Write', { file_path: '/repo/test/backoff.test.ts', content: 'x' }).bash('npm test');
  const after = await handoff(b);
  assert.equal(after.Open, undefined, 'once work follows, the pending tasks of the summary are not the open ends');
  assert.ok(!after.all!.includes('/compact'));
});

test('a compaction summary’s pending tasks stay open while the session only read and talked after it', async (t) => {
  const b = transcript(t).compactSummary(
    [
      'This session is being continued from a previous conversation that ran out of context.',
      'Summary:',
      '6. All user messages:',
      '   - "Ship the 2.0 release"',
      '7. Pending Tasks:',
      '   - Run the benches',
      '   - Bump the version',
    ].join('\n'),
  );
  b.tool('Read', { file_path: '/repo/CHANGELOG.md' }).assistant("I'll update them next.");
  const h = await handoff(b);
  assert.match(h.Open!, /Pending when the conversation was compacted: Run the benches/);
  assert.match(h.Open!, /Pending when the conversation was compacted: Bump the version/);
});

test('requests: a compaction summary longer than a message is read far enough to find the user messages at its end', async (t) => {
  const code = Array.from({ length: 600 }, (_, i) => `   - lib/module_${i}.ex: handles case ${i} of the parser`).join('\n');
  const b = transcript(t).compactSummary(
    [
      'This session is being continued from a previous conversation that ran out of context.',
      'Summary:',
      '1. Primary Request and Intent:',
      '   Parser work.',
      '3. Files and Code Sections:',
      code,
      '6. All user messages:',
      '   - "Split the parser into one module per case"',
      '7. Pending Tasks:',
      '   - Move case 599',
    ].join('\n'),
  );
  const h = await handoff(b);
  assert.ok(code.length > 20_000);
  assert.equal(h.Asked, '- (from a compaction summary) Split the parser into one module per case\n');
  assert.match(h.Open!, /Move case 599/);
});

test('requests: a compaction agent answering with its summary gives the user requests and pending tasks, not the prompt', async (t) => {
  const b = transcript(t)
    .user('Your task is to create a detailed summary of the conversation so far, paying close attention to the user requests.')
    .assistant(
      [
        '<analysis>The issue is that the guard calls a remote function.</analysis>',
        '<summary>',
        '1. Primary Request and Intent:',
        '   Work on the epic.',
        '6. All User Messages:',
        '   - "Work on bead demo-1 and start with the first ready task."',
        '7. Pending Tasks:',
        '   - **demo-1.3** (in_progress): fix the compile error',
        '     - details that are not a task of their own',
        '8. Current Work:',
        '   Fixing the guard.',
        '</summary>',
      ].join('\n'),
    );
  const h = await handoff(b);
  assert.equal(h.Asked, '- (from a compaction summary) Work on bead demo-1 and start with the first ready task.\n');
  assert.equal(h.Open, '- Pending when the conversation was compacted: demo-1.3 (in_progress): fix the compile error\n');
  assert.equal(h['Done and decided'], undefined, 'the recap is not mined for decisions');
});

test('whole or in parts, at every line boundary, the hand-off asks, leaves open and lists the same files and commands', async (t) => {
  const b = transcript(t)
    .slash('orchestrator', 'build the TODO app', 'Split complex tasks into subtasks.')
    .todos([
      ['Write the store', 'in_progress'],
      ['Test all functionality', 'pending'],
    ])
    .tool('Write', { file_path: '/repo/src/store.ts', content: 'x' })
    .bash('cd /repo/app && npm run build', 1, 'Type error')
    .in('/repo/app')
    .tool('Edit', { file_path: 'src/page.tsx' }, '<tool_use_error>File has not been read yet.</tool_use_error>', true)
    .bash('git commit -m "wip"', 1, 'pre-commit failed')
    .todos([
      ['Write the store', 'completed'],
      ['Test all functionality', 'completed'],
    ])
    .assistant('The app is complete and all tests pass. Should I deploy it?')
    .user('Not yet. Update CLAUDE.md')
    .tool('Write', { file_path: '/repo/CLAUDE.md', content: 'x' }, "you haven't granted it yet", true)
    .bash('git commit -m "docs"', 0, '[main 1] docs')
    .user('[Request interrupted by user]');
  const whole = await handoff(b);
  assert.match(whole.Open!, /`cd app && npm run build` failed on its last run — yet the todo "Test all functionality" is marked completed/);
  assert.match(whole.Open!, /`app\/src\/page\.tsx` not written/);
  assert.match(whole.Open!, /`CLAUDE\.md` not written \(refused: permission not granted\)/);
  assert.match(whole.Open!, /Interrupted: Not yet\. Update CLAUDE\.md/);
  assert.ok(!whole.Open!.includes('git commit'), 'the failed commit was made later');
  const same = (h: Record<string, string>) => ['Asked', 'Files', 'Commands', 'Open'].map((k) => `${k}:${h[k] ?? ''}`).join('\n');
  await assertPartsAgree(b, whole, same);
});

test('open: a failed check that another check of its kind, run in its folder or above, passed after is said so; whole or in parts alike', async (t) => {
  const b = transcript(t)
    .user('Run the tests and fix what fails')
    .bash('cd /repo/backend && make test', 2, 'FAIL: TestVault (0.01s)')
    .bash('cd /repo/backend && go test ./... 2>&1 | grep FAIL', 0, '--- FAIL: TestVault')
    .bash('cd /repo/ui && npm test', 0, 'Tests: 40 passed')
    .todos([['Run the tests', 'completed']])
    .bash('make test-backend', 0, 'ok')
    .assistant('Fixed the vault lookup. All tests pass now.');
  const whole = await handoff(b);
  const open = whole.Open!.split('\n').filter(Boolean);
  assert.equal(open.filter((l) => l.includes('failed on its last run')).length, 2, JSON.stringify(open));
  assert.match(
    whole.Open!,
    /`cd backend && go test \.\/\.\.\. 2>&1 \| grep FAIL` failed on its last run; a later `make test-backend` passed — yet the todo "Run the tests" is marked completed; reported done: ".*All tests pass now\."/,
  );
  assert.match(
    whole.Open!,
    /`cd backend && make test` failed on its last run; a later `make test-backend` passed$/m,
    'what it contradicts is said once',
  );
  assert.ok(!whole.Open!.includes('npm test'), 'a pass in another folder says nothing of the backend');
  await assertPartsAgree(b, whole, (h) => h.Open);
});

test('open: an install is judged by its program, not the packages it names, and one that failed says what installed later', async (t) => {
  const b = transcript(t)
    .user('Set up the tests')
    .bash('npm install --save-dev vitest @testing-library/jest-dom', 1, 'npm error code ERESOLVE')
    .bash('pnpm add -D vitest @testing-library/jest-dom', 0, 'Done in 2.1s')
    .bash('bundle install', 0, 'Bundle complete!');
  const h = await handoff(b);
  assert.match(
    h.Open!,
    /`npm install --save-dev vitest @testing-library\/jest-dom` failed on its last run; a later `bundle install` passed/,
  );
  assert.equal(checkKind('npm install --save-dev vitest @testing-library/jest-dom'), 'install', 'no test, whatever it installs');
  assert.equal(checkKind('bundle install'), 'install', 'no build either');
  assert.equal(checkKind('bundle exec rspec'), 'test');
});

test('files: `git checkout f` without `--` lists f as reverted when git says it updated paths, not when it switched branches', async (t) => {
  const b = transcript(t)
    .user('Try the new view models')
    .tool('Edit', { file_path: '/repo/src/vm/month.ts', old_string: 'a', new_string: 'b' })
    .tool('Edit', { file_path: '/repo/src/vm/year.ts', old_string: 'a', new_string: 'b' })
    .bash('git checkout src/vm/month.ts', 0, 'Updated 1 path from the index')
    .bash('git checkout release/v2.ts', 0, "Switched to branch 'release/v2.ts'");
  const h = await handoff(b);
  assert.match(h.Files!, /reverted: src\/vm\/month\.ts/);
  assert.match(h.Files!, /edited: src\/vm\/year\.ts/);
  assert.ok(!h.Files!.includes('release/v2.ts'), 'a branch is no file');
});

test('Claude Code run by an editor over ACP (its Read, Edit and Bash served as mcp__acp__ tools) is read as Claude Code itself', async (t) => {
  const b = transcript(t)
    .user('Fix the sort and run the tests')
    .tool('mcp__acp__Read', { file_path: '/repo/src/sort.js' }, [{ type: 'text', text: 'export const sort = () => 0;' }])
    .tool('mcp__acp__Edit', { file_path: '/repo/src/sort.js', old_string: '0', new_string: '1' }, [
      { type: 'text', text: 'Index: /repo/src/sort.js' },
    ])
    .tool('mcp__acp__Bash', { command: 'pnpm test' }, [{ type: 'text', text: 'Exited with code 1.Final output:\n\n2 failing' }])
    .assistant('The sort is fixed.');
  const h = await handoff(b);
  assert.match(h.Files!, /edited: src\/sort\.js/);
  assert.match(h.Commands!, /`pnpm test` \(failed\)/);
  assert.match(h.Open!, /`pnpm test` failed on its last run/, 'the exit code the editor reports, though the call is no error');
});

test('open: edits no check followed are named latest last, whole or in parts (a file edited again moves to the end)', async (t) => {
  const b = transcript(t)
    .user('Tidy the modules')
    .tool('Edit', { file_path: '/repo/src/a.ts', old_string: 'a', new_string: 'b' })
    .tool('Edit', { file_path: '/repo/src/b.ts', old_string: 'a', new_string: 'b' })
    .user('and a again')
    .tool('Edit', { file_path: '/repo/src/a.ts', old_string: 'b', new_string: 'c' });
  const whole = await handoff(b);
  assert.match(whole.Open!, /No build, test or run followed the edits of src\/b\.ts, src\/a\.ts/);
  await assertPartsAgree(b, whole, (h) => h.Open);
});

test('asked: a request said again moves to the latest, one sent again with a typo fixed replaces it, a bare "sì", "重试" or pasted image is none, and a read in parts keeps the same list', async (t) => {
  const b = transcript(t);
  for (const ask of [
    'plan the import',
    '[Image #2]',
    'put it under docs/plans',
    'what is in the todo folder?',
    'clean the docs folder',
    'sì',
    'check the readme',
    'bump the verison number',
    'bump the version number',
    'clean the docs folder',
    '重试',
    'list the caches',
    'remove the old plans',
  ])
    b.user(ask).assistant('Done.');
  const whole = await handoff(b);
  assert.equal(
    whole.Asked,
    [
      'plan the import',
      'put it under docs/plans',
      'what is in the todo folder?',
      'check the readme',
      'bump the version number',
      'clean the docs folder',
      'list the caches',
      'remove the old plans',
    ]
      .map((a) => `- ${a}\n`)
      .join(''),
  );
  await assertPartsAgree(b, whole, (h) => h.Asked);
});

test("files: reading a background command's output file, where Claude Code keeps it, is no file read", async (t) => {
  const b = transcript(t)
    .user('Start the dev server and check it')
    .tool(
      'Read',
      { file_path: '/private/tmp/claude-501/-repo/5f0c2e1a-0b1c-4d2e-9f00-aa11bb22cc33/tasks/b7hj3jgny.output' },
      'ready in 300 ms',
    )
    .tool('Read', { file_path: '/repo/astro.config.mjs' }, 'export default {}');
  const h = await handoff(b);
  assert.match(h.Files!, /read: astro\.config\.mjs/);
  assert.ok(!h.Files!.includes('.output'), h.Files);
});

test('a check run in two parts, each with more commands than a hand-off holds, is named as one read of the whole names it', async (t) => {
  const b = transcript(t).user('Check every module').bash('npm run lint', 0, 'ok');
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) b.bash(`make check${n}`, 0, 'ok');
  b.user('and the second half').bash('npm run lint', 0, 'ok');
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) b.bash(`make verify${n}`, 0, 'ok');
  const whole = await handoff(b);
  assert.match(whole.Commands!, /`npm run lint` \(×2\)/, 'run in both halves, it outweighs any check run once');
  await assertPartsAgree(b, whole, (h) => h.Commands);
});

test('more decisions than the hand-off holds: whole or in parts, it keeps the same ones, and counts the commits across parts', async (t) => {
  const b = transcript(t).user('Work through the queue bugs');
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]) {
    b.user(`bug ${n}`).assistant(
      n % 4 === 0
        ? `Decided to keep retries at ${n} because the broker drops idle links.`
        : `The issue is that worker ${n} reads a stale cursor.`,
    );
    if (n % 5 === 0) b.bash(`git commit -m "fix bug ${n}"`, 0, `[main ${n}] fix bug ${n}`);
  }
  const whole = await handoff(b);
  assert.match(whole['Done and decided']!, /Committed 2 times, last: fix bug 10/);
  const done = (h: Record<string, string>) => h['Done and decided'] ?? '';
  await assertPartsAgree(b, whole, done);
});

test('git reset --hard puts back what was edited since the last commit, whole or in parts; what a commit took stays edited', async (t) => {
  const b = transcript(t)
    .user('Optimise the knowledge base and merge it')
    .tool('Edit', { file_path: '/repo/src/kb.ts', old_string: 'a', new_string: 'b' })
    .bash('git add src/kb.ts && git commit -m "kb"', 0, '[kb 1a2b3c] kb')
    .bash('gh pr merge 79 --merge', 0, 'Merged')
    .user('try a draft of the notes too')
    .tool('Edit', { file_path: '/repo/docs/notes.md', old_string: 'a', new_string: 'b' })
    .user('no, drop that and sync with main')
    .bash('git fetch origin && git reset --hard origin/main', 0, 'HEAD is now at 9f9f9f9');
  const whole = await handoff(b);
  assert.match(whole.Files!, /edited: src\/kb\.ts/, 'committed before the reset: still edited');
  assert.match(whole.Files!, /reverted: docs\/notes\.md/, 'edited after the commit: put back');
  const same = (h: Record<string, string>) => h.Files ?? '';
  await assertPartsAgree(b, whole, same);
});

test('more commands than the hand-off holds: whole or in parts, it keeps the same ones, a commit before a late look', async (t) => {
  const b = transcript(t)
    .user('Ship the knowledge base change')
    .bash('git checkout -b kb')
    .bash('git add src/kb.ts')
    .bash('git commit -m "kb"');
  for (const n of [1, 2, 3, 4, 5, 6, 7]) b.bash(`npm run step${n}`);
  b.user('is it merged?')
    .bash('gh pr view 79 --json state')
    .bash('git log --oneline -3')
    .bash('gh issue list --limit 10')
    .bash('git status');
  const whole = await handoff(b);
  assert.match(whole.Commands!, /git commit -m/, 'the commit outranks a look');
  assert.ok(!whole.Commands!.includes('gh pr view'), `of the looks, the earlier ones go:\n${whole.Commands}`);
  await assertPartsAgree(b, whole, (h) => h.Commands);
});
