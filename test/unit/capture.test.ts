// Capture (SPEC §6a): which lessons a session's transcript gives, and which it must not.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type CaptureState, emptyCaptureState, isShellSlip } from '../../src/core/capture/capture-tracker.ts';
import { isConfigFile } from '../../src/core/capture/config-files.ts';
import { correctionText, readCorrection, refusalNote, repeatedRequests, ruleKey, statedRules } from '../../src/core/capture/corrections.ts';
import {
  errorSignature,
  hookOfKey,
  isAccessError,
  isEnvironmentError,
  pointsIntoCode,
  reportedError,
  runsAFlag,
  saysOnlyThatItFailed,
} from '../../src/core/capture/error-signature.ts';
import { failureSignature } from '../../src/core/capture/failure-key.ts';
import {
  type CaptureKind,
  type CaptureMeta,
  LESSONS_PER_SESSION,
  lessonsOf,
  recurringToolErrors,
  type Sightings,
  updateSightings,
} from '../../src/core/capture/lesson-candidates.ts';
import { commandTarget, runsOwnCode, workCommand, workKind } from '../../src/core/capture/work-commands.ts';
import { filterSecrets } from '../../src/core/security/secret-filter.ts';
import { isInspection, onlyFetches } from '../../src/core/session/summary-commands.ts';
import { furtherWindow, outputWindow } from '../../src/core/transcript/result-window.ts';
import { editChange } from '../../src/core/transcript/transcript-tools.ts';
import { readTranscript } from '../../src/store/session/transcript-reader.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const ALL = new Set<CaptureKind>(['commands', 'fix', 'correction', 'obstacle']);
const REFUSED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";

async function gather(t: { after: (fn: () => void) => void }, build: (b: TranscriptBuilder, dir: string) => void): Promise<CaptureState> {
  const dir = mkdtempSync(join(tmpdir(), 'rune-capture-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 't.jsonl');
  build(new TranscriptBuilder(path, 'sess-1', join(dir, 'proj')), join(dir, 'proj'));
  const r = await readTranscript(path, { capture: emptyCaptureState() });
  return r.capture!;
}

const meta = (sessionId = 'sess-1', given: string[] = [], ended = false) => ({ sessionId, day: '2026-11-27', kinds: ALL, given, ended });

function lessons(state: CaptureState, ledger: Sightings = {}, m: CaptureMeta = meta()) {
  return lessonsOf(state, m, updateSightings(ledger, state, m));
}

/** The obstacles the last of several sessions captures, the sightings carried from each session to the next. */
async function obstaclesAfter(ids: string[], session: (id: string, i: number) => Promise<CaptureState>) {
  let ledger: Sightings = {};
  let last: ReturnType<typeof lessonsOf> = [];
  for (const [i, id] of ids.entries()) {
    const state = await session(id, i);
    ledger = updateSightings(ledger, state, meta(id));
    last = lessonsOf(state, meta(id), ledger).filter((l) => l.captured === 'obstacle');
  }
  return last;
}

test('an error signature is the line that says what failed, the same when numbers, paths and quoted phrases change', () => {
  const a = errorSignature(
    "> pkg@1.0.0 typecheck\n> tsc\n\nsrc/a.ts(61,9): error TS2322: Type 'string | undefined' is not assignable to type 'string'.",
  );
  const b = errorSignature("src/b/c.ts(12,3): error TS2322: Type 'number | null' is not assignable to type 'string'.");
  assert.match(a!.line, /error TS2322/);
  assert.equal(a!.key, b!.key);
  // A deprecation note printed first is not the failure.
  const vite = errorSignature(
    "The CJS build of Vite's Node API is deprecated.\n FAIL  tests/x.test.ts > works\nTypeError: fetch is not a function",
  );
  assert.match(vite!.line, /TypeError: fetch is not a function/);
  assert.equal(errorSignature("The user doesn't want to proceed with this tool use."), null);
  assert.equal(errorSignature('all good\n3 passed'), null);
  // What a policy or the system would not allow is said without the word "error": it is the failure all the same.
  const merge = errorSignature(
    'X Pull request acme/app#79 is not mergeable: the base branch policy prohibits the merge.\nTo have the pull request merged after all the requirements have been met, add the `--auto` flag.',
  );
  assert.match(merge!.line, /is not mergeable: the base branch policy prohibits the merge/);
  assert.equal(
    merge!.key,
    errorSignature('X Pull request acme/app#103 is not mergeable: the base branch policy prohibits the merge.')!.key,
  );
  assert.match(errorSignature('dmesg: read kernel buffer failed: Operation not permitted')!.line, /not permitted/);
  // In a person's message the same words are a rule more often than a pasted error.
  assert.equal(reportedError('Force pushes to main are not allowed here, and using `any` is prohibited.'), null);
  assert.equal(
    reportedError('Please do your work only within the platform. You are not allowed to use other LLMs, or an external IDE.'),
    null,
  );
  // "Failed to compile." is said of every failure of a build: the line that says what failed is its signature.
  const next = errorSignature(
    "Failed to compile.\n\n./src/app/api/chat/route.ts:12:5\nType error: Property 'toDataStreamResponse' does not exist on type 'StreamTextResult'.",
    true,
  );
  assert.match(next!.line, /^Type error: Property 'toDataStreamResponse' does not exist/);
  assert.equal(errorSignature('Failed to compile.', true)!.line, 'Failed to compile.', 'said alone, it is all there is');
  // A named module stays in the key: a different missing module is a different obstacle.
  assert.notEqual(
    errorSignature("ModuleNotFoundError: No module named 'numpy'")!.key,
    errorSignature("ModuleNotFoundError: No module named 'yaml'")!.key,
  );
  // A scoped package is a name too, never a path.
  assert.notEqual(
    errorSignature("Error: Cannot find module '@react-email/components'")!.key,
    errorSignature("Error: Cannot find module '/repo/node_modules/.pnpm/typescript@5.8.3/node_modules/typescript/bin/tsc'")!.key,
  );
  // PowerShell's record of where and of which category is not the error; the line above it is.
  assert.equal(
    errorSignature(
      "At X:\\proj\\export.ps1:12 char:23\n+ ... $m = docker exec web psql | ...\n+      ~\nUnexpected token '|' in expression or statement.\n    + CategoryInfo          : ParserError: (:) [], ParseException\n    + FullyQualifiedErrorId : UnexpectedToken",
      true,
    )!.line,
    "Unexpected token '|' in expression or statement.",
  );
  // A tool's own error, known to be one, is its first telling line.
  assert.equal(errorSignature('File has not been read yet. Read it first before writing to it.', true)!.key, 'file has not been read yet');
});

test('what a command is for comes from its program and subcommand, never from what it acts on', () => {
  assert.equal(workKind('npm run build'), 'build');
  assert.equal(workKind('npm run typecheck'), 'typecheck');
  assert.equal(workKind('npm run test:run -- tests/unit'), 'test');
  assert.equal(workCommand('npm run test:run -- tests/unit'), 'npm run test:run');
  assert.equal(workKind('python -m pytest tests/test_x.py -k parse'), 'test');
  assert.equal(workCommand('python -m pytest tests/test_x.py -k parse'), 'pytest');
  assert.equal(workKind('npm ci'), 'install');
  assert.equal(workKind('pip install -r requirements.txt'), 'install');
  assert.equal(workKind('npm install --save-dev vitest'), null, 'adding a package is a change, not how the project is worked');
  assert.equal(workKind('pip install requests'), null);
  assert.equal(workKind('git commit -m x'), null);
  assert.equal(workKind('npm ls eslint-plugin-mdx'), null, 'looking a package up is not linting');
  assert.equal(workKind('npx astro check'), 'typecheck');
  assert.equal(workKind(`python3 -c "import json; print(json.load(open('package.json'))['scripts'])"`), null, 'inline code');
  assert.equal(workKind('test -f build/index.html'), null, 'the shell’s test');
  assert.equal(
    workKind(`ls scripts | head; echo "scripts:"; python3 -c "import json;print(json.load(open('package.json'))['scripts'])"`),
    null,
    'a `;` inside quotes does not split the command line',
  );
  assert.equal(workKind('yarn test_webdb --grep="sync"'), 'test', 'a script named test_…');
  assert.equal(workKind('npx svelte-check --threshold error'), 'typecheck');
  assert.equal(workKind('rune-echoes show'), null);
  assert.equal(workKind('ls -la'), null);
  assert.equal(workKind('cargo clippy -- -D warnings'), 'lint');
  assert.equal(workKind('tmux source-file ~/.tmux.conf'), 'apply');
  assert.equal(workCommand('./node_modules/.bin/jest src'), 'jest');
  assert.equal(workKind('npx playwright install chromium'), 'install', "a tool's own install step");
  assert.equal(workKind('npx playwright test'), 'test');
  assert.equal(workKind('npx playwright screenshot http://localhost:4321 a.png'), null, 'a screenshot is no test');
  assert.equal(workKind('npx cypress run'), 'test');
  // Adding or removing a package, the project's or the machine's, is a change; a dry run does nothing.
  assert.equal(workKind('npm uninstall jest-environment-jsdom'), null, 'not a test because the package is named jest');
  assert.equal(workKind('npm uninstall @react-native/typescript-config'), null, 'not an install');
  assert.equal(workKind('brew install expect'), null);
  assert.equal(workKind('apt-get install -y zip'), null);
  assert.equal(workKind('winget install jq'), null);
  // What a script is for is its name's, not its folder's: a program a build made is no build.
  assert.equal(workKind('build/bin/server --port 3000'), null);
  assert.equal(workKind('test/run.sh'), null);
  assert.equal(workKind('scripts/build.sh --all'), 'build');
  assert.equal(workKind('pip uninstall -y foo'), null);
  assert.equal(workKind('npm ci --dry-run'), null);
  // A script of the project's own keeps its path: `script/test` is how it is tested, `test` is the shell's builtin.
  assert.equal(workCommand('script/test spec/models/user_spec.rb'), 'script/test');
  assert.equal(workCommand('./bin/lint --fix'), 'bin/lint');
  assert.equal(workCommand('bin/rails test test/models'), 'bin/rails test');
  assert.equal(workCommand('.venv/bin/pytest tests'), 'pytest', 'an installed tool is named by itself');
  assert.equal(workCommand('./gradlew assembleRelease'), 'gradlew assembleRelease');
});

test('a check that failed, then passed after a step run first, is a fix with its error and its step', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('install the dependencies and build')
      .bash(
        'npm install',
        1,
        "npm error Cannot read properties of null (reading 'matches')\nnpm error A complete log of this run can be found in: /x/y.log",
      )
      .bash('rm -rf node_modules')
      .bash('npm install', 0, 'added 120 packages')
      .bash('npm run build', 0, 'ok'),
  );
  const got = lessons(state);
  const fix = got.find((l) => l.captured === 'fix');
  assert.ok(fix, JSON.stringify(got, null, 1));
  assert.match(fix.title, /npm install: npm error Cannot read properties of null \(reading 'matches'\)/);
  assert.match(fix.learning, /rm -rf node_modules/);
  assert.equal(fix.layer, 'traced');
  assert.equal(fix.signature, "error:npm error cannot read properties of null reading 'matches'");
  const commands = got.find((l) => l.captured === 'commands');
  assert.match(commands!.learning, /install: `npm install`/);
  assert.match(commands!.learning, /build: `npm run build`/);
});

test('access that came back after an unrelated step is no fix (the user signed in elsewhere, the network recovered); a step about access is', async (t) => {
  const denied = "fatal: could not read Username for 'https://github.com': No such device or address";
  const unrelated = await gather(t, (b) =>
    b
      .user('back up the settings and push')
      .bash('git push', 128, denied)
      .bash("rsync -a --exclude='.credentials.json' ~/.config/app/ backup/app/")
      .bash('git push', 0, 'main -> main'),
  );
  assert.equal(
    lessons(unrelated).find((l) => l.captured === 'fix'),
    undefined,
    'a copy between two pushes did not sign anyone in',
  );
  const offline = await gather(t, (b) =>
    b
      .user('install the dependencies')
      .bash(
        'npm install',
        1,
        'npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org',
      )
      .bash('sleep 30')
      .bash('npm install', 0, 'added 12 packages'),
  );
  assert.equal(
    lessons(offline).find((l) => l.captured === 'fix'),
    undefined,
    'waiting is not what brought the network back',
  );
  const signedIn = await gather(t, (b) =>
    b.user('push the branch').bash('git push', 128, denied).bash('gh auth setup-git').bash('git push', 0, 'main -> main'),
  );
  const fix = lessons(signedIn).find((l) => l.captured === 'fix');
  assert.ok(fix, 'a step that set up the credentials is the fix');
  assert.match(fix.learning, /gh auth setup-git/);
  const mirror = await gather(t, (b) =>
    b
      .user('install the dependencies')
      .bash('npm install', 1, 'npm error code ENOTFOUND\nnpm error getaddrinfo ENOTFOUND registry.npmjs.org')
      .bash('npm config set registry https://registry.npmmirror.com')
      .bash('npm install', 0, 'added 12 packages'),
  );
  assert.match(lessons(mirror).find((l) => l.captured === 'fix')?.learning ?? '', /npmmirror/, 'another registry is a way out');
  const database = await gather(t, (b) =>
    b
      .user('run the tests')
      .bash(
        'npm test',
        1,
        'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
      )
      .bash('docker compose up -d db')
      .bash('npm test', 0, 'Tests: 12 passed'),
  );
  const started = lessons(database).find((l) => l.captured === 'fix');
  assert.ok(started, 'a local service refusing is no access error, and an address and port point into no code');
  assert.match(started.learning, /docker compose up -d db/);
});

test('a build that prints its progress, then only that it failed, is known by what failed, as the failure hook knows it', async (t) => {
  const progress = Array.from({ length: 12 }, (_, i) => `  Creating an optimized production build, step ${i} of 12 ...`).join('\n');
  const output = `> web@0.1.0 build\n> next build\n\n${progress}\nFailed to compile.\n\n./src/app/api/chat/route.ts:127:7\nType error: 'maxSteps' does not exist in type 'CallSettings'.\n${'  │ frame\n'.repeat(80)}Next.js build worker exited with code: 1 and signal: null`;
  const state = await gather(t, (b) =>
    b.user('build it').bash('npm run build', 1, output).bash('npm install ai@^4.0.0').bash('npm run build', 0, 'Compiled'),
  );
  const fix = lessons(state).find((l) => l.captured === 'fix');
  assert.ok(fix, 'a pinned dependency that made the build pass is a fix');
  assert.match(fix.title, /Type error: 'maxSteps' does not exist/);
  const failed = `Exit code 1\n${output}`;
  assert.equal(
    fix.signature,
    `error:${failureSignature(outputWindow(failed), 'npm run build', null, undefined, furtherWindow(failed))!.key}`,
  );
  // What the head and end already say is not overruled by a status line printed further on.
  const script = `${'step ok\n'.repeat(60)}○ Orchestrator: Not found\n${'x'.repeat(900)}\ntee: /var/log/build.log: Permission denied`;
  const said = failureSignature(outputWindow(script), './build.sh', null, undefined, furtherWindow(script));
  assert.match(said!.line, /Permission denied/);
});

test('ordinary work is not a lesson: a failure fixed by editing the code, a narrower run passing, a check run between', async (t) => {
  const state = await gather(t, (b, dir) =>
    b
      .user('make the tests pass')
      .bash('npm test', 1, 'FAIL src/a.test.ts\nAssertionError: expected 2 to be 3')
      .tool('Edit', { file_path: join(dir, 'src/a.ts'), old_string: 'a', new_string: 'b' })
      .bash('npm run typecheck', 0, '')
      .bash('npm test', 0, '3 passed')
      .bash('npm run lint', 1, 'error: Unexpected any. Specify a different type  @typescript-eslint/no-explicit-any')
      .bash('npm run lint -- src/b.ts', 0, ''),
  );
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
  );
});

test('a refused call followed by what the user said is their preference, in their words, with what it was about', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('commit the change')
      .tool('Bash', { command: 'git commit -m "Add x\n\nCo-Authored-By: Claude"' }, REFUSED, true)
      .user('Please do not add your signature on the commit messages')
      .tool('Bash', { command: 'git commit -m "Add x"' }, '[main 1a2b3c] Add x'),
  );
  const c = lessons(state).find((l) => l.captured === 'correction');
  assert.ok(c);
  assert.equal(c.title, 'Please do not add your signature on the commit messages');
  assert.match(c.learning, /after refusing `git commit -m …`/);
  assert.match(c.evidence, /session sess-1/);
});

test("a refusal's own note is the correction; 'continue' and questions after a refusal are not", async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('speed up the loader')
      .tool(
        'Edit',
        { file_path: '/p/src/cache.py', old_string: 'a', new_string: 'b' },
        `${REFUSED}\nthe user said:\nuse functools.lru_cache instead of a dict`,
        true,
      )
      .tool('Bash', { command: 'git push origin main --tags' }, REFUSED, true)
      .user('continue')
      .tool('Bash', { command: 'git push origin main' }, REFUSED, true)
      .user('why do you want to push now?'),
  );
  const got = lessons(state).filter((l) => l.captured === 'correction');
  assert.deepEqual(
    got.map((l) => l.title),
    ['use functools.lru_cache instead of a dict'],
  );
});

test('a correction right after an action is read from its structure in any language; a report of errors is not one', () => {
  const acted = { refused: null, acted: '`npm run build`' };
  assert.ok(readCorrection('No, we need the wp-json prefix on every endpoint', acted));
  assert.ok(readCorrection('não, use o npm em vez do pnpm aqui', acted));
  assert.ok(readCorrection('нет, используй pnpm вместо npm в этом проекте', acted));
  assert.equal(readCorrection('no, there are a lot of errors', acted), null);
  assert.equal(
    readCorrection('No, we need the wp-json prefix on every endpoint', { refused: null, acted: null }),
    null,
    'with nothing done before it, it is a request',
  );
  assert.equal(correctionText('ok'), null);
  assert.equal(correctionText('sim'), null);
  assert.equal(correctionText('```\nerror\n```'), null);
});

test('a standing rule said in a request is kept, in the language it was said', () => {
  const rules = statedRules(
    'Меня зовут Лиза. Обращайся ко мне Лиза. Я хочу, чтобы ты сначала показывал мне план перед тем, как начать действовать.\nПожалуйста, переведи файл.',
  );
  assert.deepEqual(
    rules.map((r) => r.words),
    ['Обращайся ко мне Лиза.', 'Я хочу, чтобы ты сначала показывал мне план перед тем, как начать действовать.'],
  );
  assert.deepEqual(statedRules('Fix the bug in the parser and run the tests'), []);
  assert.deepEqual(statedRules('Can you always run the linter first?'), [], 'a question sets no rule');
});

test('"I want you to …" is a rule when it says how the work is done each time, and a request when it asks for this task', () => {
  const rules = (t: string) => statedRules(t).map((r) => r.words);
  assert.deepEqual(rules('I want you to take a look at triggers.'), []);
  assert.deepEqual(rules('yes i want you to add it to my hyprland config there is a keybindings file at .config/hypr/bindings.conf'), []);
  assert.deepEqual(rules('Quero que você revise o arquivo de rotas.'), []);
  assert.deepEqual(rules('I want you to run the linter before every commit.'), ['I want you to run the linter before every commit.']);
  assert.deepEqual(rules('Quero que você sempre responda em português.'), ['Quero que você sempre responda em português.']);
  assert.deepEqual(
    rules('You can call me Liza here.'),
    ['You can call me Liza here.'],
    'other ways of speaking to the assistant are rules as before',
  );
});

test('nothing inside <private> is gathered', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('<private>deploy with the token')
      .bash('npm install', 1, 'npm error ENOTFOUND registry.internal')
      .bash('rm -rf node_modules')
      .bash('npm install', 0, 'ok')
      .user('</private> and now the docs'),
  );
  assert.deepEqual(state.fixes, []);
  assert.deepEqual(state.errors, []);
  assert.deepEqual(state.works, []);
});

test('an error met in a second session is an obstacle, with the fix a session showed; code errors never are', async (t) => {
  const first = await gather(t, (b) =>
    b
      .user('install')
      .bash('npm install', 1, "npm error Cannot read properties of null (reading 'matches')")
      .bash('npm test', 1, 'src/a.ts:3:1 error: expected 1 to be 2'),
  );
  let ledger = updateSightings({}, first, meta('s-one'));
  const once = lessonsOf(first, meta('s-one'), ledger).filter((l) => l.captured === 'obstacle');
  assert.equal(once.length, 1, 'seen once, it is a dead end of that session: a package manager that failed and was never got past');
  assert.match(once[0]!.learning, /did not get past it/);
  const second = await gather(t, (b) =>
    b
      .user('install again')
      .bash('npm install', 1, "npm error Cannot read properties of null (reading 'matches')")
      .bash('rm -rf node_modules')
      .bash('npm install', 0, 'ok')
      .bash('npm test', 1, 'src/a.ts:9:1 error: expected 1 to be 2'),
  );
  ledger = updateSightings(ledger, second, meta('s-two'));
  const got = lessonsOf(second, meta('s-two'), ledger);
  const obstacle = got.filter((l) => l.captured === 'obstacle');
  assert.equal(obstacle.length, 1);
  assert.match(obstacle[0]!.learning, /rm -rf node_modules/);
  assert.equal(obstacle[0]!.signature, once[0]!.signature, "the two sessions' sightings are one lesson");
  assert.equal(got.filter((l) => l.signature === obstacle[0]!.signature).length, 1, 'the fix and the obstacle are one lesson');
});

test('a session gives a handful of lessons at most, counting what an earlier capture of it gave', async (t) => {
  const state = await gather(t, (b) => {
    b.user('work');
    for (let i = 0; i < 10; i++)
      b.tool('Bash', { command: `git push origin branch-${i}` }, REFUSED, true).user(`Please never push branch number ${i} to the remote`);
  });
  const all = lessons(state);
  assert.ok(all.length <= LESSONS_PER_SESSION);
  const given = all.slice(0, LESSONS_PER_SESSION - 1).map((l) => l.signature!);
  const again = lessonsOf(state, meta('sess-1', given), {});
  assert.ok(again.filter((l) => !given.includes(l.signature!)).length <= 1);
});

test('a failure in the environment the session never got past is an obstacle; a check still failing is work in progress', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('install the cli globally and run the tests')
      .bash('npm i -g @anthropic-ai/claude-code', 243, 'npm error code EACCES\nnpm error syscall rename')
      .bash('sudo npm i -g @anthropic-ai/claude-code', 1, 'sudo: a terminal is required to read the password; either use the -S option')
      .bash('npm test', 1, 'FAIL src/a.test.ts\nError: connect ECONNREFUSED 127.0.0.1:5432'),
  );
  const got = lessons(state).filter((l) => l.captured === 'obstacle');
  assert.deepEqual(
    got.map((l) => l.title),
    ['npm i: npm error code EACCES', 'sudo: a terminal is required to read the password; either use the -S option'],
  );
  assert.match(got[0]!.learning, /did not get past it/);
});

test('a run whose failure a fallback hides (`|| echo`, `|| true`) settles nothing: what failed before stays open', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('install the tmux plugins')
      .bash(
        'git clone https://github.com/x/tmux-fzf ~/.tmux/plugins/tmux-fzf',
        128,
        "fatal: could not read Username for 'https://github.com': No such device or address",
      )
      .bash(
        'git clone https://github.com/x/tmux-fzf ~/.tmux/plugins/tmux-fzf 2>/dev/null || echo "may already exist"',
        0,
        'may already exist',
      ),
  );
  assert.deepEqual(state.fixes, []);
  const got = lessons(state).filter((l) => l.captured === 'obstacle');
  assert.equal(got.length, 1);
  assert.match(got[0]!.title, /^git clone: fatal: could not read Username/);
});

test('a sentence that describes what code does is no standing rule, however it is worded', () => {
  assert.deepEqual(statedRules('Make sure the parser always returns a list, and never throws on empty input.'), []);
  assert.deepEqual(
    statedRules('Please never push to main directly. The function should always retry.').map((r) => r.words),
    ['Please never push to main directly.'],
  );
  assert.deepEqual(
    statedRules('Sempre rode os testes antes de commitar. Obrigado').map((r) => r.words),
    ['Sempre rode os testes antes de commitar.'],
  );
});

test('a run of another target settles nothing; a pre-commit check fixed by running the formatter first is a fix', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('fix the renderer test and commit')
      .bash('mix test test/renderer_test.exs', 2, '1) test renders (RendererTest)\n** (RuntimeError) could not start the repo')
      .bash('mix deps.get', 0, 'ok')
      .bash('mix test test/other_test.exs', 0, '3 tests, 0 failures')
      .bash('git commit -m "x"', 1, 'Pre-commit validation failed:\\n\\n[FORMAT] Code is not formatted.\\nRun mix format to fix.')
      .bash('mix format', 0, '')
      .bash('git commit -m "x"', 0, '[main 1a2b3c4] x'),
  );
  assert.deepEqual(
    state.open.map((f) => f.command),
    ['mix test test/renderer_test.exs'],
  );
  const fix = lessons(state).find((l) => l.captured === 'fix');
  assert.match(fix!.title, /^git commit: Pre-commit validation failed/);
  assert.match(fix!.learning, /after running `mix format` first/);
});

test('met in two sessions, a check that failed on the code, git refusing a commit and Claude Code’s own tool errors are not obstacles; a missing tool met by a check is', async (t) => {
  const session = (id: string) =>
    gather(t, (b) =>
      b
        .user('fix the tests and commit')
        .bash('npx vitest run', 1, ' Test Files  1 failed (1)\n      Tests  1 failed | 11 passed (12)')
        .bash('git commit -m "wip"', 1, 'husky - pre-commit hook exited with code 1 (error)')
        .tool(
          'Edit',
          { file_path: `${id}/src/a.ts`, old_string: 'x', new_string: 'y' },
          '<tool_use_error>String to replace not found in file.</tool_use_error>',
          true,
        )
        .tool(
          'Write',
          { file_path: `${id}/src/b.ts`, content: 'z' },
          '<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
          true,
        )
        .tool(
          'Bash',
          { command: 'curl -sL https://example.com/readme' },
          'Permission to use Bash with command curl -sL https://example.com/readme has been denied.',
          true,
        )
        .bash('npm run lint', 127, 'sh: 1: eslint: command not found'),
    );
  const first = await session('a');
  let ledger = updateSightings({}, first, meta('s-one'));
  const second = await session('b');
  ledger = updateSightings(ledger, second, meta('s-two'));
  assert.ok(
    !first.errors.some((e) => /String to replace|has not been read|Permission to use/.test(e.error.line)),
    'the harness’s errors are not the project’s',
  );
  const obstacles = lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle');
  assert.deepEqual(
    obstacles.map((l) => l.symptom),
    ['sh: 1: eslint: command not found'],
    'only the missing tool: a failing test and a refused commit are the state of the work',
  );
});

test('a rule stated as such or as the user’s own habit is kept; pasted code, quoted copy and wrapped lines are not rules', () => {
  const rules = (t: string) => statedRules(t).map((r) => r.words);
  assert.deepEqual(rules('Colloquial language is a blocker. I never use that language, I always say impediment.'), [
    'I never use that language, I always say impediment.',
  ]);
  assert.deepEqual(rules('As a rule this repo is the only source of truth for the website.'), [
    'As a rule this repo is the only source of truth for the website.',
  ]);
  assert.deepEqual(rules('Under no circumstances ever will I use PRs.'), ['Under no circumstances ever will I use PRs.']);
  assert.deepEqual(rules('Fix q7. Sprint should be capitalized throughout.'), ['Sprint should be capitalized throughout.']);
  assert.deepEqual(rules('1. Leave them.\n2. I almost never write comments, the ones in the repo were generated'), [
    'I almost never write comments, the ones in the repo were generated',
  ]);
  assert.deepEqual(rules('Я всегда использую pnpm, а не npm.'), ['Я всегда использую pnpm, а не npm.']);
  assert.deepEqual(rules('I always thought this was odd.'), [], 'a past habit is a story, not a rule');
  assert.deepEqual(rules('Blog titles: "Why Scrum Masters Should Never Be the Manager" and more'), [], 'quoted copy');
  assert.deepEqual(
    rules('/**\n * The date can\n * never drift out of step with what the site advertises.\n */\nexport const x = 1;'),
    [],
    'pasted code',
  );
  assert.deepEqual(
    rules('the schedule is resolved by the config, so the date can\nnever drift out of step with the site'),
    [],
    'a wrapped line',
  );
});

test('after an action, a message that turns it down or puts one thing of the code in place of another is a correction; an answer to options or a fact is not', () => {
  const read = (t: string) => readCorrection(t, { refused: null, acted: 'editing src/a.ts' })?.words ?? null;
  assert.equal(read('надо использовать не button а Button из @src/shared/ui/shadcn/button.tsx')?.startsWith('надо'), true);
  assert.equal(read('Should go in document_schema'), 'Should go in document_schema');
  assert.equal(
    read('нет, ты не можешь изменять миграцию, надо новую создавать'),
    'нет, ты не можешь изменять миграцию, надо новую создавать',
  );
  assert.equal(read('A - except instead of uncategorized it keeps what it already had.'), null, 'an answer to options');
  assert.equal(read('No signups via forms recently. So instead document this.'), null, 'a fact that opens with "no"');
  assert.equal(read('The table is wide. Instead of naming the dates just use named labels.'), null, 'nothing of the code named');
});

test('Claude Code tool errors are counted apart: met in two sessions they are named, never made a lesson', async (t) => {
  const session = (id: string) =>
    gather(t, (b) =>
      b
        .user('tidy the module')
        .tool(
          'Edit',
          { file_path: `${id}/src/a.ts`, old_string: 'x', new_string: 'y' },
          '<tool_use_error>File has been modified since read, either by the user or by a linter. Read it again before attempting to write it.</tool_use_error>',
          true,
        )
        .bash('npm run build', 0, 'built'),
    );
  const first = await session('a');
  let ledger = updateSightings({}, first, meta('s-one'));
  assert.deepEqual(recurringToolErrors(ledger), [], 'once is a slip');
  const second = await session('b');
  ledger = updateSightings(ledger, second, meta('s-two'));
  const [named] = recurringToolErrors(ledger);
  assert.equal(named?.tool, 'Edit');
  assert.equal(named?.sessions, 2);
  assert.match(named!.line, /modified since read/);
  assert.equal(lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle').length, 0);
});

test("the start names the five tool errors met in the most sessions; a project's errors are not among them", () => {
  const ledger: Sightings = {};
  for (let i = 0; i < 7; i++) {
    const sessions = Array.from({ length: i === 6 ? 8 : 2 + i }, (_, k) => `s-${k}`);
    ledger[`slip ${i}`] = { line: `Tool slip number ${i}.`, what: 'Edit', sessions, harness: true };
  }
  ledger['psql not found'] = { line: 'psql: command not found', what: 'psql', sessions: ['s-1', 's-2', 's-3', 's-4', 's-5', 's-6', 's-7'] };
  assert.deepEqual(
    recurringToolErrors(ledger).map((e) => [e.line, e.sessions]),
    [
      ['Tool slip number 6.', 8],
      ['Tool slip number 5.', 7],
      ['Tool slip number 4.', 6],
      ['Tool slip number 3.', 5],
      ['Tool slip number 2.', 4],
    ],
  );
});

test("a command the shell could not read (an unclosed quote) is counted with the tools' errors: met in two sessions it is named, never a lesson", async (t) => {
  const slip = '/usr/bin/bash: eval: line 1: unexpected EOF while looking for matching `"\'';
  const session = (cmd: string) => gather(t, (b) => b.user('count the rows').bash(cmd, 2, slip).bash('python3 count.py', 0, '42'));
  const first = await session('python3 -c "print(len(open(\'a.csv\').readlines())")');
  let ledger = updateSightings({}, first, meta('s-one'));
  assert.deepEqual(recurringToolErrors(ledger), [], 'once is a slip');
  const second = await session('grep -c "x\' rows.txt');
  ledger = updateSightings(ledger, second, meta('s-two'));
  const [named] = recurringToolErrors(ledger);
  assert.equal(named?.tool, 'Bash');
  assert.equal(named?.sessions, 2, 'a look (grep) that the shell could not read counts too');
  assert.match(named!.line, /unexpected EOF while looking for matching/);
  assert.equal(lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured !== 'commands').length, 0, 'no lesson of it');
});

test('the commands entry keeps a few commands per kind, the latest first', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('check everything')
      .bash('npm run lint', 0, 'ok')
      .bash('npx eslint .', 0, 'ok')
      .bash('npm run lint:tw', 0, 'ok')
      .bash('npm run lint', 0, 'ok')
      .bash('npx biome check', 0, 'ok'),
  );
  const entry = lessons(state).find((l) => l.captured === 'commands');
  assert.equal(entry?.learning, 'lint: `npx biome check`, `npm run lint`, `npm run lint:tw`');
});

test('a wrong command (a script or option the project does not have) is settled by another command for the same purpose that worked', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('run the web tests')
      .bash('yarn test:web', 1, 'Usage Error: Couldn\'t find a script named "test:web".\n\n$ yarn run [--inspect] <scriptName> ...')
      .bash('cd web && yarn test --filter=budget', 0, '12 passing'),
  );
  const fix = lessons(state).find((l) => l.captured === 'fix');
  assert.ok(fix, JSON.stringify(state.fixes));
  assert.match(fix.learning, /`yarn test:web` failed with "Usage Error: Couldn't find a script named "test:web"\."/);
  assert.match(fix.learning, /`cd web && yarn test --filter=budget` worked instead/, 'in another folder too');
  // A failing check settled by another check is not a fix: a test that fails on the code stays open.
  const other = await gather(t, (b) =>
    b
      .user('check')
      .bash('npm test', 1, 'FAIL src/a.test.ts\n  Tests  1 failed | 3 passed (4)')
      .bash('npx vitest run src/b.test.ts', 0, 'ok'),
  );
  assert.deepEqual(other.fixes, []);
});

test('review: a code error that an edit fixed is no wrong command, a 404 is no missing tool, and a ; inside an unclosed quote still splits', async (t) => {
  const edited = await gather(t, (b) =>
    b
      .user('fix it')
      .bash('make test', 2, "NameError: name 'lenght' is not defined. Did you mean: 'length'?")
      .tool('Edit', { file_path: `${t.name}/app/x.py`, old_string: 'lenght', new_string: 'length' }, 'The file has been updated.')
      .bash('pytest', 0, '3 passed'),
  );
  assert.equal(edited.fixes.filter((f) => f.change === 'command').length, 0, 'an edit in between: the code was fixed, not the command');
  const web = (id: string) =>
    gather(t, (b) => b.user(`fetch ${id}`).bash(`curl -s https://example.com/${id} | head -5`, 0, '404: Not Found'));
  const [a, b] = [await web('a'), await web('b')];
  let ledger = updateSightings({}, a, meta('s-one'));
  ledger = updateSightings(ledger, b, meta('s-two'));
  assert.equal(
    lessonsOf(b, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle').length,
    0,
    'a page not found is no missing tool',
  );
  assert.equal(workKind(`echo can't; npm test`), 'test', 'an apostrophe never closed is no quote');
  assert.equal(workKind(`python -c "import sys; print(sys.version)" && npm run build`), 'build', 'the build after inline code counts');
});

test('review: bare negations in Portuguese and Russian still open a correction; complaints and "here after" in passing are no rules', () => {
  const read = (t: string) => readCorrection(t, { refused: null, acted: 'editing src/a.ts' })?.words ?? null;
  assert.ok(read('não use npm aqui, use sempre pnpm'));
  assert.ok(read('не используй npm здесь, используй pnpm'));
  assert.equal(read("It's not broken but please check utils.ts"), null);
  const rules = (t: string) => statedRules(t).map((r) => r.words);
  for (const t of [
    'I came here after reading the docs, use them.',
    'I always get this error when I run the dev server.',
    'I never understood why this test keeps failing on CI.',
    'Ich bin immer noch nicht fertig mit dem Test.',
  ])
    assert.deepEqual(rules(t), [], t);
  assert.deepEqual(rules('Hereafter always run the linter first.'), ['Hereafter always run the linter first.']);
});

test('what the user asks the assistant to remember is a standing rule; remembering together is not', () => {
  const rules = (t: string) => statedRules(t).map((r) => r.words);
  assert.deepEqual(rules('Remember that the staging DB is shared, never run migrations there.'), [
    'Remember that the staging DB is shared, never run migrations there.',
  ]);
  assert.deepEqual(rules('Keep in mind the API is rate-limited to 10 req/s.'), ['Keep in mind the API is rate-limited to 10 req/s.']);
  assert.equal(rules('запомни: миграции создаются через новую миграцию, а не правкой старой').length, 1);
  assert.deepEqual(rules('I remember that we fixed this before'), []);
  assert.deepEqual(rules('Do you remember that bug from yesterday?'), []);
});

test('settings files are told from code by their names alone', () => {
  for (const f of [
    '.github/workflows/ci.yml',
    'package.json',
    'tsconfig.build.json',
    'vite.config.ts',
    'eslint.config.js',
    '.config/kitty/kitty.conf',
    '.tmux.conf',
    '.zshrc',
    '.prettierrc.json',
    'pyproject.toml',
    'Dockerfile',
    'docker-compose.yml',
    '.vscode/settings.json',
  ])
    assert.equal(isConfigFile(f), true, f);
  for (const f of [
    'src/shared/config/auth-config.ts',
    'src/config.ts',
    'src/app.ts',
    '.env',
    '.env.production',
    'package-lock.json',
    'pnpm-lock.yaml',
    'README.md',
    'data/users.json',
  ])
    assert.equal(isConfigFile(f), false, f);
});

test("an edit's change is the lines it changed, or nothing when it rewrites more than a couple of lines", () => {
  assert.deepEqual(editChange('strategy:\n  matrix:\n    node-version: [18, 20]', 'strategy:\n  matrix:\n    node-version: [20]'), {
    before: 'node-version: [18, 20]',
    after: 'node-version: [20]',
  });
  assert.deepEqual(editChange('a\nb', 'a\nb\nset -g mouse on'), { before: '', after: 'set -g mouse on' });
  assert.equal(editChange('one\ntwo\nthree\nfour', '1\n2\n3\n4'), null, 'a rewrite');
  assert.equal(editChange('same', 'same'), null);
  assert.equal(editChange(`x = ${'a'.repeat(150)}`, 'x = 1'), null, 'a line too long to show');
});

test('an error pasted into a message is read from the lines tools print, never from a sentence about one', () => {
  assert.match(
    reportedError('On node 18\n\nFAIL tests/a.test.ts\nTypeError: value.toWellFormed is not a function\n at x')!.line,
    /toWellFormed/,
  );
  assert.match(
    reportedError(
      'erros\nErrors parsing configuration\nIn file /home/u/.config/kitty/kitty.conf:\n192:Unknown notify_on_cmd_finish value: 5 in line: notify_on_cmd_finish 5',
    )!.line,
    /Unknown notify_on_cmd_finish value/,
  );
  assert.equal(reportedError('the build failed again, there is an error somewhere in the header'), null);
  assert.equal(
    reportedError('⎿ API Error: 401 {"error":{"message":"token expired or incorrect"}} · Please run /login'),
    null,
    "Claude Code's own",
  );
});

test('a pasted error that only settings edits followed, and that the user did not report again, is a fix with what changed', async (t) => {
  const state = await gather(t, (b, dir) =>
    b
      .user(
        'On node 18\n\n FAIL  tests/functional/auth.test.ts > works\nTypeError: value.toWellFormed is not a function\n ❯ node_modules/undici/lib/x.js',
      )
      .tool('Read', { file_path: join(dir, 'package.json') })
      .tool('Edit', {
        file_path: join(dir, '.github/workflows/ci.yml'),
        old_string: 'matrix:\n  node-version: [18, 20]',
        new_string: 'matrix:\n  node-version: [20]',
      })
      .bash('git commit -am "CI on Node 20"', 0, '[main 1a2b3c4] CI on Node 20')
      .user("1s\nRun npm run test:coverage\n MISSING DEPENDENCY  Cannot find dependency '@vitest/coverage-v8'")
      .bash('npm install --save-dev @vitest/coverage-v8', 0, 'added 19 packages')
      .user('great, now tag the release'),
  );
  const fixes = lessons(state).filter((l) => l.captured === 'fix');
  assert.deepEqual(
    fixes.map((f) => f.title),
    ['TypeError: value.toWellFormed is not a function', "MISSING DEPENDENCY Cannot find dependency '@vitest/coverage-v8'"],
  );
  assert.match(
    fixes[0]!.learning,
    /The user reported "TypeError: value\.toWellFormed is not a function"; it was not reported again after changing workflows\/ci\.yml: `node-version: \[18, 20\]` → `node-version: \[20\]`\./,
  );
  assert.match(fixes[1]!.learning, /after running `npm install --save-dev @vitest\/coverage-v8`/);
});

test('a pasted error is no lesson when code was edited, when the user says it is still there, or before the session ends unanswered', async (t) => {
  const code = await gather(t, (b, dir) =>
    b
      .user("TypeError: Cannot read properties of undefined (reading 'Buyback')")
      .tool('Edit', { file_path: join(dir, 'src/content/quote.ts'), old_string: 'a.Buyback', new_string: 'a?.Buyback' })
      .tool('Edit', { file_path: join(dir, 'package.json'), old_string: '"x": "1"', new_string: '"x": "2"' })
      .user('thanks, next one'),
  );
  assert.deepEqual(
    lessons(code).filter((l) => l.captured === 'fix'),
    [],
    'code edited: ordinary work',
  );
  const still = await gather(t, (b, dir) =>
    b
      .user('/home/u/.config/tmux/tmux.conf:63: unknown command: rotate-pane')
      .tool('Edit', { file_path: join(dir, 'tmux.conf'), old_string: 'bind o rotate-pane', new_string: 'bind o rotate-window' })
      .user('still the same error when tmux starts'),
  );
  assert.deepEqual(
    lessons(still).filter((l) => l.captured === 'fix'),
    [],
  );
  const open = await gather(t, (b, dir) =>
    b
      .user('/home/u/.config/tmux/tmux.conf:63: unknown command: rotate-pane')
      .tool('Edit', { file_path: join(dir, 'tmux.conf'), old_string: 'bind o rotate-pane', new_string: 'bind o select-pane -t :.+' }),
  );
  assert.deepEqual(
    lessons(open).filter((l) => l.captured === 'fix'),
    [],
    'compacted, not over: the user may still answer',
  );
  const ended = lessons(open, {}, meta('sess-1', [], true)).filter((l) => l.captured === 'fix');
  assert.equal(ended.length, 1, 'over, and the user did not come back to it');
  assert.match(ended[0]!.learning, /tmux\.conf: `bind o rotate-pane` → `bind o select-pane -t :\.\+`/);
});

test('a failing check fixed by editing settings alone is a fix, even when its error points into the code', async (t) => {
  const state = await gather(t, (b, dir) =>
    b
      .user('build it')
      .bash('npm run build', 1, "src/lib/db.ts:3:20 - error TS2307: Cannot find module '$lib/server' or its type declarations.")
      .tool('Edit', {
        file_path: join(dir, 'tsconfig.json'),
        old_string: '"paths": {}',
        new_string: '"paths": { "$lib/*": ["src/lib/*"] }',
      })
      .bash('npm run build', 0, 'built'),
  );
  const fix = lessons(state).find((l) => l.captured === 'fix');
  assert.ok(fix);
  assert.match(fix.learning, /it passed after changing tsconfig\.json: `"paths": \{\}` → `"paths": \{ "\$lib\/\*": \["src\/lib\/\*"\] \}`/);
});

test('the living commands entry does not count against the new lessons a session may add', async (t) => {
  const state = await gather(t, (b) => {
    b.user('go').bash('npm run build', 0, 'ok');
    for (let i = 0; i < LESSONS_PER_SESSION + 2; i++) b.user(`As a rule, every module number ${i} keeps its own changelog file`);
  });
  const got = lessons(state, {}, meta('sess-1', ['commands']));
  assert.equal(got.filter((l) => l.captured === 'commands').length, 1);
  assert.equal(got.filter((l) => l.captured !== 'commands').length, Math.min(LESSONS_PER_SESSION, 5));
});

test('a command that passed with another flag names the flag, even where the command shown is cut before it', async (t) => {
  const long = 'packages/app-portal/src/components/Dropdowns/DeviceRoleDropdown.vue';
  const state = await gather(t, (b) =>
    b
      .user('commit it')
      .bash(
        `git add ${long} && git commit -m "feat: role dropdown with a longer message here"`,
        1,
        '.husky/pre-commit: line 5: .husky/_/husky.sh: No such file or directory',
      )
      .bash(`git add ${long} && git commit --no-verify -m "feat: role dropdown with a longer message here"`, 0, '[main 1a2b3c4] feat'),
  );
  const fix = lessons(state).find((l) => l.captured === 'fix');
  assert.ok(fix);
  assert.match(fix.learning, /it passed with `--no-verify`/);
});

test('what is said of the text or code at hand after an action or a refusal is an instruction for that change, not a lesson', () => {
  const acted = { refused: null, acted: 'editing src/a.py' };
  const refused = { refused: 'editing notes.yaml', acted: null };
  assert.equal(readCorrection('instead tag, create a column for legacy check', acted), null);
  assert.equal(readCorrection('The first sentence, saying I am flexible with timing seems good, do not remove that part.', refused), null);
  assert.equal(readCorrection('update the function, so instead receive the where as text, have parameter for each filter', refused), null);
  assert.ok(readCorrection('never execute git, save in your memory please', refused));
  assert.ok(readCorrection('use Button from shared/ui instead of button', acted));
});

test('after a refusal, "before" and "after" mark a rule only as they lead a step', () => {
  const refused = { refused: 'editing HOW_TO_USE.txt', acted: null };
  assert.equal(readCorrection('i didnt see it before', refused), null, 'an adverb ending the sentence: no step, no rule');
  assert.equal(readCorrection('run the tests before committing anything', refused)?.how, 'after-refusal');
});

test("an error line spells the project's own folder relative to it, not as this machine's absolute path", async (t) => {
  const state = await gather(t, (b, dir) =>
    b
      .user(`${dir}/tmux.conf:63: unknown command: rotate-pane`)
      .tool('Edit', { file_path: join(dir, 'tmux.conf'), old_string: 'bind o rotate-pane', new_string: 'bind o select-pane -t :.+' })
      .bash(`node ${dir}/build.js`, 1, `Error: Cannot find module '${dir}/generated/config.json'`)
      .user('ok, thanks'),
  );
  const got = lessons(state);
  assert.equal(got.find((l) => l.captured === 'fix')?.title, 'tmux.conf:63: unknown command: rotate-pane');
  assert.deepEqual(
    state.errors.map((e) => e.error.line),
    ["Error: Cannot find module 'generated/config.json'"],
  );
});

test("Claude Code's PowerShell tool on Windows is a shell like Bash: its commands, failures and fixes count, its looking does not", async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('upgrade the module and build')
      .tool('PowerShell', { command: 'Get-ChildItem .' }, 'a.py')
      .tool('PowerShell', { command: 'npm run build' }, "Exit code 1\nError: Cannot find module './generated/config.json'", true)
      .tool('PowerShell', { command: 'node gen.js' }, '')
      .tool('PowerShell', { command: 'npm run build' }, 'built'),
  );
  const got = lessons(state);
  assert.match(got.find((l) => l.captured === 'commands')?.learning ?? '', /build: `npm run build`/);
  assert.match(got.find((l) => l.captured === 'fix')?.learning ?? '', /it passed after running `node gen\.js` first/);
  assert.equal(
    state.works.some((w) => /Get-ChildItem/.test(w.command)),
    false,
  );
});

test('what a script of the session’s own throws is its bug, not an obstacle or a fix; the machine or the shell in the way still is', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('scrape the customers')
      .bash('node -e "const d = require(\'./data.json\'); d.filter(x => x)"', 1, 'TypeError: d.filter is not a function')
      .bash('netstat -ano | grep 9222', 0, 'TCP 127.0.0.1:9222 LISTENING')
      .bash('node -e "const d = require(\'./data.json\').items; d.filter(x => x)"', 0, '[]')
      .bash('cd scripts && node scrape.mjs', 1, "TypeError: Cannot read properties of undefined (reading 'substring')")
      .bash('python3 -c "import pandas"', 1, "ModuleNotFoundError: No module named 'pandas'")
      .bash('cd d:\\\\work\\\\x && node run.mjs', 1, "/usr/bin/bash: line 1: cd: $'d:workx': No such file or directory"),
  );
  const byLine = new Map(state.errors.map((e) => [e.error.line, e.code]));
  assert.equal(byLine.get('TypeError: d.filter is not a function'), true);
  assert.equal(byLine.get("TypeError: Cannot read properties of undefined (reading 'substring')"), true);
  assert.equal(byLine.get("ModuleNotFoundError: No module named 'pandas'"), false);
  assert.equal(byLine.get("/usr/bin/bash: line 1: cd: $'d:workx': No such file or directory"), false);
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
    'the inline script fixed itself; looking at the ports was no step',
  );
});

test('a script of the session’s own that threw is its bug even when the command shown is cut before the script', async (t) => {
  const run = `cd reports && NODE_PATH="C:/Users/someone/AppData/Roaming/npm/node_modules" node scripts/enhanced_classify.js`;
  const state = await gather(t, (b) =>
    b
      .user('make the dashboard')
      .bash(`${run} --dashboard-only`, 1, 'ReferenceError: silenceHtml is not defined')
      .bash(run, 0, 'saved data/s1.json'),
  );
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
    'running it without the flag worked around the script’s own bug',
  );
});

test('a help or version query settles no failure, and a command line the shell could not parse is a slip, not an obstacle', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('add the marketplace')
      .bash('claude plugin marketplace add someone/plugins', 1, 'fatal: Could not read from remote repository.')
      .bash('claude --help', 0, 'Usage: claude [options]')
      .bash('npm run build -- --filter (x', 2, "/usr/bin/bash: eval: line 1: syntax error near unexpected token `('"),
  );
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
  );
  assert.ok(
    state.open.some((f) => f.command.startsWith('claude plugin')),
    'the marketplace failure is still open',
  );
  assert.equal(state.errors.find((e) => /syntax error/.test(e.error.line))?.code, true, JSON.stringify(state.errors));
});

test('an obstacle whose command had no program to name is titled by its line alone', async (t) => {
  const state = await gather(t, (b) => b.user('open the PR').bash('"$GH" pr create', 127, '/usr/bin/bash: line 1: gh: command not found'));
  const m = meta('sess-2');
  const ledger = updateSightings(updateSightings({}, state, meta('sess-1')), state, m);
  // As a ledger may hold it: the first session's command gave no program name.
  for (const k of Object.keys(ledger)) ledger[k] = { ...ledger[k]!, what: '' };
  const obstacle = lessonsOf(state, m, ledger).find((l) => l.captured === 'obstacle');
  assert.ok(obstacle);
  assert.doesNotMatch(obstacle.title, /^:/);
  assert.doesNotMatch(obstacle.learning, /\(from ``\)/);
});

test('a settings edit that wrote a secret, and a pasted error that printed one, keep neither', async (t) => {
  const key = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB';
  const state = await gather(t, (b, dir) =>
    b
      .user(`CI fails:\nError: Bad credentials for token ${key}`)
      .tool('Edit', { file_path: join(dir, '.github/workflows/ci.yml'), old_string: 'GH_TOKEN: old', new_string: `GH_TOKEN: ${key}` })
      .user('thanks, it passes now'),
  );
  const fix = lessons(state).find((l) => l.captured === 'fix');
  assert.ok(fix);
  assert.doesNotMatch(JSON.stringify(state), new RegExp(key));
  assert.doesNotMatch(`${fix.title}\n${fix.learning}\n${fix.evidence}`, new RegExp(key));
});

test("a command that outran Claude Code's time limit in two sessions is one obstacle of that command, with what helps; a later run that ended in time fixed nothing", async (t) => {
  const timedOut = (b: TranscriptBuilder, command: string, log: string) =>
    b.tool('Bash', { command }, `Command timed out after 2m 0.0s ${log}\nstep 1 of 9`, true);
  const first = await gather(t, (b) => {
    b.user('build the image');
    timedOut(b, 'sudo ./build-image.sh --full', '2025-08-24 19:38:31,187 - INFO - ====');
    b.bash('sudo ./build-image.sh --full', 0, 'done');
  });
  assert.equal(lessons(first).filter((l) => l.captured === 'fix').length, 0, 'finishing in time is no fix');
  let ledger = updateSightings({}, first, meta('s-one'));
  const second = await gather(t, (b) => {
    b.user('build it again');
    timedOut(b, 'sudo ./build-image.sh --full', '2025-08-25 08:00:00,001 - INFO - ====');
    timedOut(b, 'npm run e2e', '');
  });
  ledger = updateSightings(ledger, second, meta('s-two'));
  const obstacles = lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle');
  assert.equal(obstacles.length, 1, obstacles.map((l) => l.title).join(' | '));
  assert.equal(obstacles[0]!.signature, 'error:command timed out: build-image.sh');
  assert.match(obstacles[0]!.learning, /^`build-image\.sh` ran past/);
  assert.match(
    obstacles[0]!.learning,
    /ran past Claude Code's time limit for a command \("Command timed out after 2m 0\.0s"\) in 2 sessions: run it in the background, or with a longer timeout/,
  );
  assert.doesNotMatch(obstacles[0]!.learning, /INFO|Fix seen/);
});

test("the user's hook that blocked a call is one obstacle, known by the hook, whatever command it blocked", async (t) => {
  const blocked = (b: TranscriptBuilder, command: string, said: string, hook = 'node d:/work/.claude/hooks/block-dangerous.js') =>
    b.tool('Bash', { command }, `PreToolUse:Bash hook error: [${hook}]: [HOOK BLOCKED] ${said}`, true);
  const first = await gather(t, (b) => {
    b.user('restart chrome');
    blocked(b, 'sleep 2 && cmd.exe /c "taskkill /F /IM chrome.exe"', '危险命令: cmd.exe /c "taskkill /F /IM chrome.exe"');
    // Another command that then passed fixed nothing of the hook: the next call it blocks will be another.
    blocked(b, 'git push --force origin main', 'force push');
    b.bash('git push origin main', 0, 'ok');
  });
  assert.equal(first.errors[0]!.error.key, 'pretooluse:bash hook block-dangerous.js blocked');
  assert.equal(first.errors[0]!.what, 'hook block-dangerous.js', 'not `sleep`, the step it began with');
  assert.deepEqual(first.fixes, []);
  assert.deepEqual(first.open, []);
  let ledger = updateSightings({}, first, meta('s-one'));
  const second = await gather(t, (b) => {
    b.user('clear the profile');
    // A check it blocked: the hook met it, not the tests.
    blocked(b, 'npm test', 'run the tests in CI');
  });
  ledger = updateSightings(ledger, second, meta('s-two'));
  const obstacles = lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle');
  assert.equal(obstacles.length, 1, obstacles.map((l) => l.title).join(' | '));
  assert.equal(obstacles[0]!.signature, 'error:pretooluse:bash hook block-dangerous.js blocked');
  assert.match(obstacles[0]!.title, /^hook block-dangerous\.js: PreToolUse:Bash hook error: \[node /);
  assert.doesNotMatch(obstacles[0]!.learning, /Fix seen/);
  assert.match(
    obstacles[0]!.learning,
    /\(from `hook block-dangerous\.js`\)\. The user's hook blocks such calls each time: do the job another way, or ask the user to run it\.$/,
  );
});

test("a hook's block is the hook's whatever its words, leaves how the project is worked as it was, and blocks any tool", async (t) => {
  const hookSaid = (tool: string, said: string) => `PreToolUse:${tool} hook error: [node .claude/hooks/commitlint.js]: ${said}`;
  const session = (id: string) =>
    gather(t, (b) =>
      b
        .user(`ship it ${id}`)
        .bash('npm test', 0, 'ok')
        // Words that read like an assertion or a place in the code are still the hook's.
        .tool('Bash', { command: 'npm test' }, hookSaid('Bash', 'Expected commit message to follow docs/rules.md:12'), true)
        .tool(
          'Edit',
          { file_path: 'src/gen/api.ts', old_string: 'a', new_string: 'b' },
          hookSaid('Edit', 'generated file, edit the schema'),
          true,
        ),
    );
  const first = await session('one');
  assert.deepEqual(
    first.works.map((w) => [w.command, w.lastOk]),
    [['npm test', true]],
    'a blocked run did not run: the tests still pass here',
  );
  assert.deepEqual(first.toolErrors ?? [], [], 'a hook is no slip of the tools');
  const ledger = updateSightings(updateSightings({}, first, meta('s-one')), await session('two'), meta('s-two'));
  const obstacles = lessonsOf(await session('two'), meta('s-two'), ledger).filter((l) => l.captured === 'obstacle');
  assert.deepEqual(obstacles.map((l) => l.signature).sort(), [
    'error:pretooluse:bash hook commitlint.js blocked',
    'error:pretooluse:edit hook commitlint.js blocked',
  ]);
});

test("a blocking hook is read from Claude Code's first line, by a plain name of its script; a setting, a flag or a secret is never the name", () => {
  const key = (text: string) => errorSignature(text, true)?.key;
  // A hook's command may hold brackets, and any program may run it; another hook, or another tool, is another trouble.
  assert.equal(
    key('PreToolUse:Edit hook error: [$CLAUDE_PROJECT_DIR/.claude/hooks/guard[v2].sh]: generated files'),
    'pretooluse:edit hook guard[v2].sh blocked',
  );
  assert.equal(key('PreToolUse:Bash hook error: [python3 ~/.claude/hooks/no-npm.py]: use pnpm'), 'pretooluse:bash hook no-npm.py blocked');
  // What the hook printed on later lines does not decide, nor does a Windows path (`\\n` in `C:\\Users\\nathan`).
  assert.equal(
    key('PreToolUse:Bash hook error: [node .claude/hooks/guard.js]: [HOOK BLOCKED] rm -rf\nReason: dangerous; permission denied'),
    'pretooluse:bash hook guard.js blocked',
  );
  assert.equal(
    key('PreToolUse:Bash hook error: [node C:\\Users\\nathan\\.claude\\hooks\\guard.js]: no'),
    'pretooluse:bash hook guard.js blocked',
  );
  // A program whose path holds a space, quoted: the script it runs is the hook.
  assert.equal(
    key('PreToolUse:Bash hook error: ["C:/Program Files/nodejs/node.exe" C:/work/.claude/hooks/guard.js]: no'),
    'pretooluse:bash hook guard.js blocked',
  );
  // A token given to the hook, or a flag with one, is never its name; with no plain name the line is read as any
  // other, and kept filtered, as capture keeps every line.
  const filtered = (text: string) => failureSignature(text, 'rm -rf dist', null, (line) => filterSecrets(line).text);
  assert.equal(
    filtered('PreToolUse:Bash hook error: [GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 gh-guard]: blocked rm')?.key,
    'pretooluse:bash hook gh-guard blocked',
  );
  const unnamed = filtered('PreToolUse:Bash hook error: [node --api-key=sk-ant-abcdefghij0123456789.json hook]: blocked rm')!;
  assert.doesNotMatch(`${unnamed.key} ${unnamed.line}`, /sk-ant-abcdef/);
  // A hook written inline, or one whose script no word names, has no name of its own either.
  for (const hook of ["jq -r '.tool_input.command' | grep -q 'rm -rf' && exit 2", 'npx -y @acme/claude-guard', 'python3 -m hooks.guard'])
    assert.equal(hookOfKey(key(`PreToolUse:Bash hook error: [${hook}]: blocked`) ?? ''), null, hook);
  // The name survives the line's cleaning (the project's folder spelled relative to it).
  const kept = failureSignature(
    'PreToolUse:Bash hook error: [node /home/u/proj/.claude/hooks/guard.js]: rm -rf /home/u/proj/dist',
    'rm -rf dist',
    '/home/u/proj',
  );
  assert.equal(kept?.key, 'pretooluse:bash hook guard.js blocked');
  assert.doesNotMatch(kept!.line, /\/home\/u\/proj/);
});

test('what runs: the file an interpreter or a shell runs, else the family; a shell given a command line runs no script of its own', () => {
  assert.equal(commandTarget('bash scripts/e2e.sh --ci'), 'bash scripts/e2e.sh');
  assert.equal(commandTarget('python train.py --epochs 3'), 'python train.py');
  assert.equal(commandTarget('sudo -u postgres pg_dump db'), 'pg_dump');
  assert.equal(commandTarget('npm run e2e'), 'npm run e2e');
  assert.equal(runsOwnCode("bash -lc 'npm install'"), false);
  assert.equal(runsOwnCode('sudo -u www ./deploy.sh'), true);
  assert.equal(runsOwnCode('.\\build.ps1'), true);
  assert.equal(runsOwnCode('./gradlew build'), false);
  // A one-word line is passed over for the next that says something.
  assert.equal(errorSignature('Password:\nsudo: 3 incorrect password attempts', true)?.line, 'sudo: 3 incorrect password attempts');
});

test("Claude Code's own permission classifier turning a command down is no error of the project", () => {
  assert.equal(
    errorSignature(
      "Permission for this action was denied by the Claude Code auto mode classifier. Reason: Blocked by classifier. If you have other tasks that don't depend on this action, continue.",
      true,
    ),
    null,
  );
});

test("what a project's own script prints when it fails is that script's say, not an obstacle; a permission it lacks still is one; a CI check's status is looked at, not met, though a program that is not there is met", async (t) => {
  const run = (b: TranscriptBuilder) =>
    b
      .user('build the live cd')
      .bash('sudo ./build.sh', 1, '[ERROR] Fix the issues above and try again\n○ Tandem Orchestrator: Not found')
      .bash('bash tools/migrate.sh', 1, 'tee: /var/log/build-system.log: Permission denied')
      .bash('gh pr checks 12', 1, 'Unit Tests\tfail\t39s\thttps://github.com/o/r/actions/runs/1/job/2')
      .bash('gh pr view 12', 127, '(eval):1: command not found: gh');
  const one = await gather(t, run);
  let ledger = updateSightings({}, one, meta('s-one'));
  const two = await gather(t, run);
  ledger = updateSightings(ledger, two, meta('s-two'));
  const got = lessonsOf(two, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle');
  assert.deepEqual(got.map((l) => l.symptom).sort(), [
    '(eval):1: command not found: gh',
    'tee: /var/log/build-system.log: Permission denied',
  ]);
});

test('a proposal to change the thing at hand is no lesson; a rule given to what is being written is not the user’s rule', () => {
  const acted = { refused: null, acted: 'editing schema.resolvers.go' };
  assert.equal(readCorrection('actually i think we should change the verbage on that proto to inStock', acted), null);
  assert.ok(readCorrection('no, never edit generated files by hand, run make generate', acted));
  assert.equal(readCorrection("don't revert anything, figure out why", { refused: '`go build ./...`', acted: null }), null);
  // Said with always or never, the same words are a rule as well as the next step.
  assert.ok(readCorrection('no, never use --force; figure out why the push is rejected', acted));
  assert.ok(readCorrection('no, fix the tests instead of skipping them, never skip tests', acted));
  const spec =
    'Build the prompt translator.\n\nThe translator MUST:\n- Never generate prompts that bypass existing safety rules\n- Never duplicate rules already defined elsewhere';
  assert.deepEqual(statedRules(spec), []);
  assert.deepEqual(
    statedRules('Rules for you:\n- Never push to main without asking').map((r) => r.words),
    ['Never push to main without asking'],
  );
  assert.deepEqual(
    statedRules('The team will now:\n- Always run npm test before committing').map((r) => r.words),
    ['Always run npm test before committing'],
  );
});

test('standing rules said in Chinese are read without spaces between words; "later" and questions are not rules', () => {
  const words = (p: string) => statedRules(p).map((r) => r.words);
  assert.deepEqual(words('除了專業或是專有名詞外, 請用繁體中文回答我, 謝謝. 請問iss0領域有哪些MIB group?'), [
    '除了專業或是專有名詞外, 請用繁體中文回答我, 謝謝.',
  ]);
  assert.deepEqual(words('之後做的測試都幫我留pcap/pcapng, 用檔案名區別plan E or mainline'), [
    '之後做的測試都幫我留pcap/pcapng, 用檔案名區別plan E or mainline',
  ]);
  assert.deepEqual(words('以後再說吧, 先做這個'), []);
  assert.deepEqual(words('以後的驗證, 我可以關掉minicom讓你操作, 這樣會不會比較快?'), []);
  assert.deepEqual(words('每次都是這樣嗎'), []);
  // Those words also describe code and plans: without a request they are no rule.
  assert.deepEqual(words('strcmp() 的同表比對永遠不會相等, 所以只能拿第一個候選'), []);
  assert.deepEqual(words('DB 封装每次 fetch_one 都是独立事务并立即 commit()'), []);
  // Which language to answer in is one rule however it is worded.
  assert.equal(ruleKey('除了專有名詞外, 請用繁體中文回答我, 謝謝!'), 'answer in 繁體中文');
  assert.equal(ruleKey('接下來除了專有名詞以外, 請用正體中文回答我;'), 'answer in 繁體中文');
  assert.equal(ruleKey('never push to main'), null);
});

test('a program that failed printing nothing is known by its name and status; met in two sessions it is an obstacle', async (t) => {
  assert.equal(
    failureSignature('Exit code 49\n', 'python3 -c "import docx"', null)?.line,
    'python3 exited with code 49 and printed nothing',
  );
  // An editor serving Bash over ACP says it its own way; a program given by its path is known by its name.
  assert.equal(
    failureSignature('Exited with code 49.Final output:\n\n', '"C:/Users/a/AppData/Local/Microsoft/WindowsApps/python3.exe" -c "x"', null)
      ?.line,
    'python3 exited with code 49 and printed nothing',
  );
  // Status 1 is many programs' "no"; 126 and up say so themselves or were a kill.
  assert.equal(failureSignature('Exit code 1\n', 'grep -q foo a.txt', null), null);
  // However the status is written: a Windows status below zero, the `Error: ` some results open with.
  assert.equal(failureSignature('Error: Exit code 49', 'python -c "x"', null)?.line, 'python exited with code 49 and printed nothing');
  assert.equal(
    failureSignature('Exited with code -1073741515.', 'tool.exe --run', null)?.line,
    'tool exited with code -1073741515 and printed nothing',
  );
  // The program that failed, not the module it was asked to run.
  assert.equal(
    failureSignature('Exit code 49\n', 'python3 -m playwright install chromium', null)?.line,
    'python3 exited with code 49 and printed nothing',
  );
  assert.equal(failureSignature('Exit code 137\n', 'node server.js', null), null);
  // Told to send its output elsewhere, it printed nothing because it was told to.
  assert.equal(failureSignature('Exit code 3\n', 'pgrep -a git 2>/dev/null', null), null);
  assert.equal(failureSignature('Exit code 2\n', 'gen-docs > build.log 2>&1', null), null);
  // A program that runs another (its status is the other's), one of several steps, `timeout`'s own 124, a check.
  for (const command of [
    'sudo systemctl is-active --quiet nginx',
    'sleep 1 && curl -s http://localhost:3000',
    'timeout 5 npm run dev',
    'cargo test',
  ])
    assert.equal(failureSignature(`Exit code ${command.startsWith('timeout') ? 124 : 3}\n`, command, null), null, command);
  const session = () =>
    gather(t, (b) =>
      b
        .user('read the spreadsheet and sum the totals')
        .bash('python3 -c "import openpyxl"', 49, '')
        .bash('python -c "print(1)"', 49, '')
        .bash('node -e "console.log(1)"', 0, '1'),
    );
  const first = await session();
  // Met once, a program that only failed says too little: no lesson yet.
  assert.deepEqual(
    lessons(first).filter((l) => l.captured === 'obstacle'),
    [],
  );
  const ledger = updateSightings({}, first, meta('s-one'));
  const again = lessons(await session(), ledger, meta('s-two')).filter((l) => l.captured === 'obstacle');
  assert.deepEqual(
    again.map((l) => l.symptom),
    ['python3 exited with code 49 and printed nothing', 'python exited with code 49 and printed nothing'],
  );
  assert.match(again[0]!.learning, /^Met again across sessions: "python3 exited with code 49 and printed nothing"/);
  // Titled by its line alone, and what it was asked says where.
  assert.equal(again[0]!.title, 'python3 exited with code 49 and printed nothing');
  assert.match(again[0]!.learning, /\(from `python3 -c "import openpyxl"`\)/);
});

test('a program that was not there is settled by another that did the same job: the same file or package named', async (t) => {
  const session = (then: (b: TranscriptBuilder) => TranscriptBuilder) =>
    gather(t, (b) =>
      then(
        b
          .user('sum the totals in the sales sheet')
          .bash(`python3 -c "import openpyxl; wb = openpyxl.load_workbook('data/店铺概览_30天.xlsx')"`, 49, '')
          .bash('which python3 python node 2>&1', 1, ''),
      ),
    );
  // `node` reading the same workbook worked: that is how it is done here, from the first session on.
  const first = await session((b) =>
    b.bash(`node -e "const XLSX = require('xlsx'); XLSX.readFile('D:/work/data/店铺概览_30天.xlsx')"`, 0, '{"total": 3}'),
  );
  const fix = lessons(first).find((l) => l.captured === 'fix');
  assert.equal(fix?.title, 'python3 exited with code 49 and printed nothing');
  assert.match(
    fix!.learning,
    /; `node` did the job instead \(`node -e "const XLSX = require\('xlsx'\); XLSX\.readFile\(.*`, on `店铺概览_30天\.xlsx`\)\.$/,
  );
  // Met again in a later session, the obstacle carries it.
  const ledger = updateSightings({}, first, meta('s-one'));
  const second = await session((b) => b);
  const again = lessons(second, ledger, meta('s-two')).find((l) => l.captured === 'obstacle');
  assert.match(again!.learning, /Fix seen: `node` did the job instead \(`node -e .*\)\.$/);
  // A missing `pip`: another way of installing the same package.
  const pip = await gather(t, (b) =>
    b
      .user('install openpyxl')
      .bash('pip install openpyxl', 127, '/usr/bin/bash: line 1: pip: command not found')
      .bash('python3 -m pip install openpyxl -q', 0, ''),
  );
  assert.match(
    lessons(pip).find((l) => l.captured === 'fix')!.learning,
    /`python3` did the job instead \(`python3 -m pip install openpyxl -q`, on `openpyxl`\)/,
  );
  // A script passed in a heredoc names its file too; the program that failed is compared without the folder it ran in.
  const heredoc = await gather(t, (b) =>
    b
      .user('count the leads')
      .bash(`cd data && python3 << 'PY'\nimport json\nprint(len(json.load(open('leads.json'))))\nPY`, 49, '')
      .bash(`cd data && node -e "console.log(require('./leads.json').length)"`, 0, '12'),
  );
  assert.match(heredoc.fixes[0]!.passed, /^cd data && node -e/);
  assert.deepEqual(heredoc.fixes[0]!.instead, { program: 'node', on: ['leads.json'] });
  // Output sent away on the heredoc's line, or with no space (`<in.json>out.json`): it printed nothing because it was told to.
  for (const command of [`python3 - <<'PY' 2>/dev/null\nopen('data.json')\nPY`, 'python3 x.py <in.json>out.json'])
    assert.equal(
      failureSignature('Exit code 2\n', command.split('\n')[0]!.replace(/<<'PY'.*$/, '<< …'), null, (l) => l, '', command),
      null,
      command,
    );
  assert.equal(heredoc.fixes[0]!.flags, undefined);
  // A call in the code (`console.log(`) names no file; a wrapper that was not there, dropped, is another command.
  const calls = await gather(t, (b) =>
    b.user('x').bash('bun -e "console.log(1)"', 127, 'bash: bun: command not found').bash('node -e "console.log(2)"', 0, '2'),
  );
  assert.deepEqual(calls.fixes, []);
  // A name the shell did not find that is not the program run (bash expanding `$_.Name` inside a PowerShell
  // command): the program was there, and another command naming the same file stands in for nothing.
  const slip = await gather(t, (b) =>
    b
      .user('read the invoice')
      .bash(`powershell -Command "Get-Item 'inv.xlsx' | % { $_.Name }"`, 127, '/usr/bin/bash: line 1: .Name: command not found')
      .bash('cp inv.xlsx inv.zip && unzip -o inv.zip -d inv', 0, 'inflating: inv/x.xml'),
  );
  assert.deepEqual(slip.fixes, []);
  // Moving, copying or committing the file does not do its job; nor does a step beside the one that ran, a
  // commit's message, a web address, or a member of an object that shares a file's name.
  for (const [failing, passing] of [
    [`python3 -c "from openpyxl import load_workbook; load_workbook('report.xlsx')"`, 'cp report.xlsx backup/'],
    ['jq .version package.json', 'git add package.json'],
    ['python3 gen_docs.py', 'git add -A && git commit -m "tweak gen_docs.py"'],
    ['python3 build.py', 'mkdir -p dist && touch dist/build.py'],
    [`python3 -c "import pandas; pandas.read_csv('sales.csv')"`, 'cp sales.csv /tmp/ && node -e "1"'],
    ['curl -sO https://cdn.example.com/chart.js', `node -e "console.log('https://example.com/docs/chart.js')"`],
    [`python3 -c "self.db = 1"`, `node -e "const self = {}; self.db = 1"`],
  ] as const) {
    const other = await gather(t, (b) =>
      b
        .user('go on')
        .bash(failing, 127, `/usr/bin/bash: line 1: ${failing.split(' ')[0]}: command not found`)
        .bash(passing, 0, ''),
    );
    assert.deepEqual(other.fixes, [], passing);
  }
  // A program that failed printing nothing is one that was not there only when it runs code (a Python stub); a
  // download that found nothing (`curl -sf` exiting 22) is not stood in for by the script that reads its file.
  const download = await gather(t, (b) =>
    b
      .user('fetch the report')
      .bash('curl -sf https://example.com/report.json -o report.json', 22, '')
      .bash(`python3 -c "import json; json.load(open('report.json'))"`, 0, ''),
  );
  assert.deepEqual(download.fixes, []);
  // Steps run before the program that did the job are part of it; a package is named without quotes or version.
  const steps = await gather(t, (b) =>
    b
      .user('convert the sheet')
      .bash('python3 conv.py in.xlsx', 127, 'bash: python3: command not found')
      .bash('npm install xlsx', 0, 'added 1 package')
      .bash('node conv.js in.xlsx', 0, 'done'),
  );
  assert.match(
    lessons(steps).find((l) => l.captured === 'fix')!.learning,
    /; `node` did the job instead \(after running `npm install xlsx`: `node conv\.js in\.xlsx`, on `in\.xlsx`\)\.$/,
  );
  const pinned = await gather(t, (b) =>
    b
      .user('install requests')
      .bash('pip install "requests>=2"', 127, 'bash: pip: command not found')
      .bash('python3 -m pip install "requests>=2"', 0, ''),
  );
  assert.deepEqual(pinned.fixes[0]?.instead, { program: 'python3', on: ['requests'] });
  // A command whose first word was an assignment is another command without it.
  const env = await gather(t, (b) => b.user('test').bash('CI=1 npm test', 1, 'Error: CI mode').bash('npm test', 0, 'ok'));
  assert.equal(env.fixes[0]?.change, 'command');
  // The same command run again is not another command because the one shown was cut before its program.
  const long = `S=/tmp/${'x'.repeat(120)}/out.txt\nsshpass -p pw ssh host ls > "$S"`;
  const rerun = await gather(t, (b) =>
    b.user('list the board').bash(long, 127, '/bin/bash: line 2: sshpass: command not found').bash(long, 0, ''),
  );
  assert.equal(rerun.fixes[0]?.change, 'edits');
  assert.deepEqual(
    lessons(rerun).filter((l) => l.captured === 'fix'),
    [],
  );
  const wrapper = await gather(t, (b) =>
    b
      .user('check the site')
      .bash('timeout 60 npx astro check', 127, '(eval):1: command not found: timeout')
      .bash('npx astro check', 0, '0 errors'),
  );
  assert.match(lessons(wrapper).find((l) => l.captured === 'fix')!.learning, /; `npx astro check` worked instead\.$/);
  // Another program that worked on something else, or a look at the same file, settles nothing.
  for (const then of [
    (b: TranscriptBuilder) => b.bash(`node -e "require('./other.json')"`, 0, '{}'),
    (b: TranscriptBuilder) => b.bash('ls -la data/店铺概览_30天.xlsx', 0, '-rw-r--r-- 1 a a 9 x'),
    (b: TranscriptBuilder) => b.bash(`python3 -c "open('data/店铺概览_30天.xlsx')"`, 0, ''),
  ]) {
    const other = await session(then);
    assert.equal(lessons(other).filter((l) => l.captured === 'fix').length, 0);
  }
  // A program that failed in its own way (a traceback) is not one that was not there.
  const own = await gather(t, (b) =>
    b
      .user('sum it')
      .bash(`python3 sum.py data.csv`, 1, 'Traceback (most recent call last):\nKeyError: total')
      .bash(`node sum.js data.csv`, 0, '3'),
  );
  assert.equal(lessons(own).filter((l) => l.captured === 'fix').length, 0);
});

test('a project file too large for one Read, met again in another session, is an obstacle of its folder and kind', async (t) => {
  const tooLarge = (tokens: number) =>
    `<tool_use_error>File content (${tokens} tokens) exceeds maximum allowed tokens (25000). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file.</tool_use_error>`;
  const session = (name: string, tokens: number) =>
    gather(t, (b, dir) =>
      b
        .user('what did the customer ask last?')
        .tool('Read', { file_path: join(dir, 'data', 'chat_history', name) }, tooLarge(tokens), true)
        .tool('Read', { file_path: join(dir, 'data', 'chat_history', name), offset: 1, limit: 200 }, '{"messages": []}'),
    );
  const first = await session('a-1.json', 31234);
  // Once is no lesson: Claude Code said what to do.
  assert.deepEqual(lessons(first), []);
  const ledger = updateSightings({}, first, meta('s-one'));
  // Another file of the same folder and kind, in another session: the next will be too large as well.
  const again = lessons(await session('b-2.json', 40102), ledger, meta('s-two'));
  assert.equal(again.length, 1);
  assert.equal(again[0]!.captured, 'obstacle');
  assert.equal(again[0]!.title, 'Read data/chat_history/a-1.json: File content (31234 tokens) exceeds maximum allowed tokens (25000)');
  assert.match(
    again[0]!.learning,
    /\(from `Read data\/chat_history\/a-1\.json`\)\. Read such files in parts \(offset and limit\), or search them with Grep\.$/,
  );
  assert.equal(again[0]!.signature, 'error:read too large data/chat_history/*.json');
  // Counted with the tools' errors too: met in two sessions, whatever the file, a start names it.
  const both = updateSightings(ledger, await session('c-3.json', 52000), meta('s-two'));
  assert.deepEqual(recurringToolErrors(both), [{ tool: 'Read', line: first.toolErrors![0]!.error.line, sessions: 2 }]);
  assert.match(first.toolErrors![0]!.error.line, /^File content \(31234 tokens\) exceeds maximum allowed tokens \(25000\)/);
  // A file at the root, or with no extension, is known by itself; a folder spelt in other case is the same folder.
  const keys = async (name: string) =>
    (await gather(t, (b, dir) => b.user('x').tool('Read', { file_path: join(dir, ...name.split('/')) }, tooLarge(30000), true))).errors.map(
      (e) => e.error.key,
    );
  assert.deepEqual(await keys('package-lock.json'), ['read too large package-lock.json']);
  assert.deepEqual(await keys('logs/output'), ['read too large logs/output']);
  assert.deepEqual(await keys('Data/Chat/a.JSON'), ['read too large data/chat/*.json']);
  // A file outside the project, or a Read that failed for another reason, is no obstacle of it.
  const outside = await gather(t, (b) => b.user('x').tool('Read', { file_path: '/etc/big.json' }, tooLarge(30000), true));
  const missing = await gather(t, (b, dir) =>
    b.user('x').tool('Read', { file_path: join(dir, 'data', 'chat_history', 'c.json') }, 'File does not exist.', true),
  );
  for (const state of [outside, missing])
    assert.deepEqual(
      lessons(state, ledger, meta('s-two')).map((l) => l.captured),
      [],
    );
});

test('a command started in the background has not passed: it settles no failure and is no way of working the project', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('run the web tests')
      .in('lib')
      .bash('yarn test:web', 1, 'Usage Error: Couldn\'t find a script named "test:web".')
      .tool('Bash', { command: 'yarn test_web', run_in_background: true }, 'Command running in background with ID: 0c2fd9'),
  );
  assert.deepEqual(state.fixes, []);
  assert.equal(state.open.length, 1);
  assert.ok(!state.works.some((w) => w.command.includes('test_web')));
});

test('a check whose status a pipe hid is read from what it printed: a script that is not there did not pass', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('lint the repo')
      .tool('mcp__acp__Bash', { command: 'pnpm lint 2>&1 | head -100' }, [
        {
          type: 'text',
          text: 'Exited with code 0.Final output:\n\nundefined\n ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command "lint" not found\n\nDid you mean "pnpm eslint"?\n',
        },
      ])
      .bash('npm run build | tail -5', 0, 'npm ERR! Missing script: "build"')
      .bash(
        'npm install 2>&1 | tail -20',
        0,
        "npm error code ENOENT\nnpm error syscall open\nnpm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/p/package.json'",
      ),
  );
  assert.deepEqual(
    state.works.filter((w) => w.ok > 0).map((w) => w.command),
    [],
    'neither the lint, the build nor the install passed (npm says `npm error` since version 9)',
  );
  assert.equal(
    lessons(state).find((l) => l.captured === 'commands'),
    undefined,
  );
});

test('a request the user says they make again is a standing one, in any language; a complaint that asks nothing is not', () => {
  const words = (p: string) => repeatedRequests(p).map((r) => r.words);
  assert.deepEqual(words('I told you to always run the linter before committing'), [
    'I told you to always run the linter before committing',
  ]);
  assert.deepEqual(words('like I said, use pnpm not npm here'), ['like I said, use pnpm not npm here']);
  assert.deepEqual(words('Я же говорил, не трогай миграции, создавай новую'), ['Я же говорил, не трогай миграции, создавай новую']);
  assert.deepEqual(words('回复话术输出必须是中文，为什么每次都是英文或者其他语言。另外三天发不了货'), [
    '回复话术输出必须是中文，为什么每次都是英文或者其他语言。',
  ]);
  // From a longer message, only the line that says it again.
  assert.deepEqual(words('1.质量判定：建议降为A级\n我说了，只要订购数量大于500件，都是s级\n2.要跟进'), [
    '我说了，只要订购数量大于500件，都是s级',
  ]);
  // Reproach alone, a fact, a question and a task: nothing to keep.
  assert.deepEqual(words('先把这个经验记录下来，上次也遇到过，你这次又犯错误。'), []);
  assert.deepEqual(words('我说了我没有未回复的客户。你是怎么识别出来我未读客户的消息的'), []);
  assert.deepEqual(words('我记得该更近策略我已经跟你讨论的很详细了怎么又忘了'), []);
  // "I said this sentence (to the customer)" is no reproach.
  assert.deepEqual(words('我说了这样一句话，但是我还没发啊你只要我的信息中出现了pi，就判定为这个阶段，其实我还没发。'), []);
  assert.deepEqual(words('how does the ctx.Err work again?'), []);
  assert.deepEqual(words('as I said earlier the build is broken'), []);
  assert.deepEqual(words('FIX THE NOMove bug I have asked repeatedly.'), []);
  // Said to the user, a count, a please for this task, a document cited.
  assert.deepEqual(words('客户跟我说了，只要发货就可以，不要再问他了'), []);
  assert.deepEqual(words('Count how many times the function is called and never inline it'), []);
  assert.deepEqual(words('I asked you to fix the login bug, now please also update the changelog.'), []);
  assert.deepEqual(words('为什么又失败了，请帮我查一下原因'), []);
  assert.deepEqual(words('As I said in the PR description, we should use the new API for this endpoint.'), []);
  assert.deepEqual(words('how many times do I have to tell you: never push to main'), [
    'how many times do I have to tell you: never push to main',
  ]);
});

test('a request made again is kept as the user said it, and the other rules the message states besides it', async (t) => {
  const state = await gather(t, (b) =>
    b.user('like I said, always use pnpm here, never npm. Also, always run the linter before committing.').assistant('ok'),
  );
  const got = lessons(state).filter((l) => l.captured === 'correction');
  assert.deepEqual(
    got.map((l) => l.learning),
    [
      'The user said, saying it again: "like I said, always use pnpm here, never npm."',
      'The user said, as a standing rule: "Also, always run the linter before committing."',
    ],
  );
  assert.match(got[0]!.evidence, /said again in a request/);
});

test('a check that passed is not failed by what its output mentions, without a pipe to hide its status', async (t) => {
  const state = await gather(t, (b) =>
    b.user('run the tests').bash('npm test', 0, '✓ throws Cannot find module when the plugin is missing\n12 passed'),
  );
  assert.deepEqual(
    state.works.filter((w) => w.ok > 0).map((w) => w.command),
    ['npm test'],
  );
});

test('an obstacle memory holds already merges into its lesson: it does not take the place of a new one under the cap', async (t) => {
  const tools = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
  const session = (names: string[]) =>
    gather(t, (b) => {
      b.user('set up the machine');
      for (const name of names) b.bash(`${name} --init now`, 127, `sh: 1: ${name}: command not found`);
    });
  // All seven were met in an earlier session; the first six are lessons memory holds, the seventh is not.
  const ledger = updateSightings({}, await session(tools), meta('s-one'));
  const state = await session(tools);
  const signatures = lessons(state, ledger, meta('s-two')).map((l) => l.signature!);
  const known = new Set(signatures.filter((sig) => !sig.includes('golf')));
  const got = lessons(state, ledger, { ...meta('s-two'), known }).filter((l) => l.captured === 'obstacle');
  assert.ok(LESSONS_PER_SESSION < tools.length);
  assert.deepEqual(
    got.map((l) => l.symptom),
    tools.map((name) => `sh: 1: ${name}: command not found`),
  );
  // Without them in memory, the cap holds: six new lessons at most.
  assert.equal(lessons(state, ledger, meta('s-two')).filter((l) => l.captured === 'obstacle').length, LESSONS_PER_SESSION);
});

test('a module named by its path is a file the command got wrong, not a package the machine lacks', () => {
  assert.equal(isEnvironmentError("Error: Cannot find module 'playwright'"), true);
  assert.equal(isEnvironmentError("Error: Cannot find module 'tesseract.js'"), true);
  assert.equal(isEnvironmentError("Error: Cannot find module '@react-email/components'"), true);
  assert.equal(isEnvironmentError("Error: Cannot find module 'out/_temp_dbg.js'"), false);
  assert.equal(isEnvironmentError("Error: Cannot find module 'C:\\Users\\a\\.claude\\sound'"), false);
});

test('asking a program what it has (`code --list-extensions`) only looks: no step of a fix', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('read the scanned invoice')
      .bash('node scan.js', 1, "Error: Cannot find module 'tesseract.js'")
      .bash('code --list-extensions --show-versions | grep -i claude', 0, 'anthropic.claude-code@2.1.0')
      .bash('node scan.js', 0, 'done'),
  );
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
  );
});

test('a failure whose output says only that it failed (Gradle’s summary, a traceback’s header) gives no lesson: its key would stand for every failure', async (t) => {
  const gradle =
    '> Run with --scan to get full insights.\n> Get more help at https://help.gradle.org.\n\nBUILD FAILED in 3s\n29 actionable tasks: 2 executed, 27 up-to-date';
  const state = await gather(t, (b, dir) =>
    b
      .user('build the app')
      .bash('./gradlew assembleDebug', 1, gradle)
      .bash(`rm ${dir}/app/src/main/Old.kt`)
      .bash('./gradlew assembleDebug', 0, 'BUILD SUCCESSFUL in 9s')
      .bash('uv sync', 1, 'Traceback (most recent call last):'),
  );
  for (const line of [
    'BUILD FAILED in 1m 2s',
    'FAILURE: Build failed with an exception.',
    "Execution failed for task ':app:kspDebugKotlin'.",
    '   > Compilation error. See log for more details',
    'e: Error occurred in KSP, check log for detail',
    'Traceback (most recent call last):',
    '[ERROR] BUILD FAILURE',
    'make: *** [Makefile:12: all] Error 1',
  ])
    assert.ok(saysOnlyThatItFailed(line), line);
  assert.ok(!saysOnlyThatItFailed('error: No interpreter found for Python ==3.11 in managed installations'));
  const got = lessons(state).filter((l) => l.captured !== 'commands');
  assert.deepEqual(
    got.map((l) => l.title),
    [],
  );
});

test('a check that failed in the code and passed after edits and other runs gives no fix: which of them fixed it is not known', async (t) => {
  const metadata = '> java.lang.IllegalStateException: Unable to read Kotlin metadata due to unsupported metadata version.';
  const state = await gather(t, (b, dir) =>
    b
      .user('build the app')
      .bash('./gradlew assembleDebug --no-daemon', 1, metadata)
      .tool('Edit', { file_path: join(dir, 'app/src/main/Player.kt'), old_string: 'a', new_string: 'b' }, 'The file has been updated.')
      .bash('cmd.exe /c start "D:\\app\\build\\outputs\\apk\\release"')
      .bash('./gradlew clean')
      .bash('./gradlew assembleDebug', 0, 'BUILD SUCCESSFUL in 9s'),
  );
  assert.deepEqual(
    lessons(state)
      .filter((l) => l.captured === 'fix')
      .map((l) => l.learning),
    [],
  );
  // Opening a folder or listing what a device or an archive holds changes nothing: no step of a fix.
  for (const look of [
    'cmd.exe /c start "D:\\app\\release"',
    'cmd /c "explorer D:\\llapk"',
    '"AppData/Local/Android/Sdk/platform-tools/adb.exe" shell pm list packages | grep multilang',
    'adb logcat -c',
    'unzip -l app-release.apk',
    'tar -tzf a.tgz',
  ])
    assert.ok(isInspection(look), look);
  for (const act of ['adb install -r app.apk', '"C:/sdk/adb.exe" install -r a.apk', 'npm start', 'tar -xzf a.tgz'])
    assert.ok(!isInspection(act), act);
});

test('a command that passed with other values is no flag dropped, nor another target a fix; a command the shell could not read is no fix of the project', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('check the image')
      .bash(
        'docker run --rm --user nodejs backend ls -la /app/dist/',
        125,
        'docker: Error response from daemon: unable to find user nodejs: no matching entries in passwd file',
      )
      .bash('docker run --rm --user 1001 backend ls /app/dist/', 0, 'index.js')
      // The same, the command shown cut before what differs: nothing to say of it.
      .bash(
        `docker images backend --format "{{.ID}}" | head -1 | xargs -I {} docker run --rm --user nodejs {} ls -la /app/dist/${'x'.repeat(60)}`,
        125,
        'docker: Error response from daemon: unable to find group nodejs: no matching entries in group file',
      )
      .bash(
        `docker images backend --format "{{.ID}}" | head -1 | xargs -I {} docker run --rm --user 1001 {} ls /app/dist/${'x'.repeat(60)}`,
        0,
        'x',
      )
      .bash('SLUG=$(basename "$(git rev-parse --show-toplevel)")', 1, "(eval):1: parse error near `('")
      .bash('basename "$(git rev-parse --show-toplevel)"', 0, 'proj'),
  );
  assert.deepEqual(
    lessons(state)
      .filter((l) => l.captured === 'fix')
      .map((l) => l.learning),
    [],
  );
});

test('a plan turned down with a yes and a change to it is feedback on that plan; turned down with a preference, that is kept', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('plan the dashboard')
      .tool(
        'ExitPlanMode',
        { plan: '# Dashboard\n1. cards' },
        `${REFUSED}\nthe user said:\nYes, clear context and auto-accept edits, but first update the todolist so that we know the tasks`,
        true,
      )
      .user('and never use inline styles in this project')
      .tool(
        'ExitPlanMode',
        { plan: '# Keys\n1. bind btop' },
        `${REFUSED}\nthe user said:\nI dont use btop set that as super shift alt t instead`,
        true,
      ),
  );
  assert.deepEqual(
    lessons(state)
      .filter((l) => l.captured === 'correction')
      .map((l) => l.title),
    ['and never use inline styles in this project', 'I dont use btop set that as super shift alt t instead'],
  );
});

test('edits of files outside the project count too: a flag dropped beside them fixed nothing that can be said', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('build the app')
      .bash(
        './gradlew assembleRelease --info',
        1,
        '> java.lang.IllegalStateException: Unable to read Kotlin metadata due to unsupported metadata version.',
      )
      .tool('Edit', { file_path: '/d/other/app/src/main/Player.kt', old_string: 'a', new_string: 'b' }, 'The file has been updated.')
      .bash('./gradlew assembleRelease', 0, 'BUILD SUCCESSFUL in 9s'),
  );
  assert.deepEqual(
    lessons(state)
      .filter((l) => l.captured === 'fix')
      .map((l) => l.learning),
    [],
  );
});

test('beside edits of the code, a package installed meanwhile or a command typed wrong is still the fix', async (t) => {
  const state = await gather(t, (b, dir) =>
    b
      .user('build the web app')
      .bash(
        'npm run build',
        1,
        "Type error: Object literal may only specify known properties, and 'maxSteps' does not exist in type 'CallSettings'",
      )
      .tool('Edit', { file_path: join(dir, 'src/chat.ts'), old_string: 'a', new_string: 'b' }, 'The file has been updated.')
      .bash('npm install ai@^4.0.0', 0, 'added 1 package')
      .bash('npm run build', 0, 'built')
      .bash('npm run lint | grep -E "^/"', 2, 'rg: error parsing flag -E: grep config error: unknown encoding: ^/')
      .tool('Edit', { file_path: join(dir, 'src/chat.ts'), old_string: 'b', new_string: 'c' }, 'The file has been updated.')
      .bash('npm run lint', 0, 'ok'),
  );
  const learnt = lessons(state)
    .filter((l) => l.captured === 'fix')
    .map((l) => l.learning);
  assert.equal(learnt.length, 2, learnt.join(' | '));
  assert.match(learnt.join('\n'), /npm install ai@\^4\.0\.0/);
  assert.match(learnt.join('\n'), /`npm run lint` worked instead/);
});

test('a note turning a call down keeps a rule for how to work; a question, a view of the change at hand or a remark on it is no lesson', () => {
  const about = 'editing app/models/care_case.rb';
  for (const note of [
    'Where is that value coming from',
    'Why are you recommending A over B? be specific',
    'can you fox integration tests so the output is in target/test-output/ rather than test-output/',
    'Pense mais, o script precisa ser rodado no modo iterativo? O que podemos mudar? Podemos repensar?',
    "You can't redirect to next path - that won't work? Unless you're resetting them",
    "I don't see `forAllSystems` being used there.",
    "I don't really understand thie todo item. explain",
    'the EnforceRequiredness comment applies to all config property so if any are needed, add setters',
    "It's a data issue.",
    'just confirm that it finds the correct care case',
    'use bugbot to solve the issue',
  ])
    assert.equal(refusalNote(note, about), null, note);
  for (const note of [
    'use build_vsim.sh to rebuild vsim',
    'Just use rspec spec and run individual fiels. dont use script/test',
    'I dont use btop set that as super shift alt t instead',
    'Please do not add your signature on the commit messages',
  ])
    assert.ok(refusalNote(note, about), note);
  // Claude Code's own note after the user's words is not theirs.
  const said = refusalNote(
    "use pnpm here, not npm. Note: The user's next message may contain a correction or preference. Pay close attention — if they explain what went wrong or how they'd prefer you to work, consider saving that to memory for future sessions.",
    about,
  );
  assert.equal(said?.words, 'use pnpm here, not npm.');
  // "read only" is no habit: asking for one query is this task.
  assert.deepEqual(statedRules('I want you to give me a read only query for prod that verifies that the staffers exist'), []);
});

test('a flag run as a program is the script’s own line broken, and a please asks for the change at hand', async (t) => {
  const state = await gather(t, (b) =>
    b
      .user('probe the vector unit')
      .bash('bash <<\'OUTER\'\nPROBE=$(mktemp -d)\nrm\n  -rf "$PROBE"\nOUTER', 127, 'bash: line 4: -rf: command not found')
      .bash('bash <<\'OUTER\'\nPROBE=$(mktemp -d)\nrm -rf "$PROBE"\nOUTER', 0, 'ok'),
  );
  assert.ok(runsAFlag('bash: line 52: -rf: command not found'));
  // bash expanded `$_` in a double-quoted PowerShell command: `.Name` is what was left.
  assert.ok(runsAFlag('/usr/bin/bash: line 30: .Name: command not found'));
  assert.ok(!runsAFlag('/usr/bin/bash: line 1: node: command not found'));
  assert.ok(!isEnvironmentError('bash: line 52: -rf: command not found'));
  assert.deepEqual(
    lessons(state)
      .filter((l) => l.captured !== 'commands')
      .map((l) => l.title),
    [],
  );
  assert.equal(
    refusalNote('Good. Please remove generation of the flat file. Please add an INFO log line for legacy configs', 'the ExitPlanMode tool'),
    null,
  );
  assert.ok(refusalNote('Please do not add your signature on the commit messages', 'the ExitPlanMode tool'));
  for (const line of ['Failed examples:', '╰─▶ The build backend returned an error', '× Failed to build `app @ file:///x/app`'])
    assert.ok(saysOnlyThatItFailed(line), line);
  // A test's own assertion, in RSpec's and Capybara's words: the code or the test is what to fix.
  assert.ok(pointsIntoCode('Failure/Error: expect(response.body).to have_content(staffer.full_name_and_role)'));
  assert.ok(pointsIntoCode('Unable to find css "#self-scheduling-link-generation"'));
});

test('a module named by its path behind a pipe is the code’s own import, no tool missing; npm-run-all’s line says only that a script failed', async (t) => {
  const printed =
    "> ts-node ./scripts/typescript-check.ts\n\nTyping check started...\n./src/a/styles.ts (3,29):\n‣ (3:29): Cannot find module '../../../assets/images/ArrowUp' or its corresponding type declarations.";
  const state = await gather(t, (b) =>
    b
      .user('check the types')
      .bash('npm run typecheck 2>&1 | head -100', 0, printed)
      .bash(
        'tsc --noEmit 2>&1 | tail -5',
        0,
        "Error: Cannot find module 'node_modules/.pnpm/typescript@5.8.3/node_modules/typescript/bin/tsc'",
      ),
  );
  // The second is the install's: a package under node_modules is not there.
  assert.deepEqual(
    state.errors.map((e) => e.error.line),
    ["Error: Cannot find module 'node_modules/.pnpm/typescript@5.8.3/node_modules/typescript/bin/tsc'"],
  );
  assert.ok(saysOnlyThatItFailed('ERROR: "lint:eslint" exited with 1.'));
  // uv's, its name cut where the line breaks.
  assert.ok(saysOnlyThatItFailed('× Failed to build `ai-proctoring @'));
});

test('rules in any language survive the question and consent checks; a program started, a look chained to an action and a scratch file are no looks and no edits', async (t) => {
  for (const rule of [
    'Como regra, use pnpm em vez de npm',
    'Что бы ни было, не трогай миграции',
    'When you commit, use conventional commit messages',
    'Where possible, prefer pnpm over npm',
    'use http://localhost:3000/api?debug=1 instead of the prod url',
  ])
    assert.ok(correctionText(rule), rule);
  for (const note of [
    '不要用npm，用pnpm',
    '以後不要用npm，請用pnpm',
    'Sim, mas sempre rode os testes antes',
    'Да, но всегда запускай тесты сначала',
    'Так, используй pnpm вместо npm',
    'this project uses pnpm not npm',
  ])
    assert.ok(refusalNote(note, 'running `npm install`'), note);
  for (const act of [
    'open -a Docker',
    'start /wait msiexec /i foo.msi /qn',
    'cmd /c start /wait installer.exe',
    'start npm run dev',
    'adb logcat -c && adb install -r a.apk',
    'unzip -l a.zip && unzip a.zip',
  ])
    assert.ok(!isInspection(act), act);
  assert.ok(isInspection('"C:/sdk/adb.exe" logcat -c && "C:/sdk/adb.exe" logcat -d | grep multilang'), 'looks chained to looks');
  // The person at the phone declined the install: no step of the session's fixed that.
  assert.ok(isAccessError('adb.exe: failed to install app-debug.apk: Failure [INSTALL_FAILED_ABORTED: User rejected permissions]'));
  assert.ok(!saysOnlyThatItFailed('error: could not compile `foo`: linker `cc` not found'));
  // Claude Code's plan file written meanwhile is no edit of the code: the step is still the fix.
  const state = await gather(t, (b) =>
    b
      .user('build it')
      .bash('npm run build', 1, "Error: ENOENT: no such file or directory, open '.next/server/pages-manifest.json'")
      .tool('Write', { file_path: '/home/u/.claude/plans/fix-build.md', content: '# plan' }, 'File created successfully')
      .bash('rm -rf .next')
      .bash('npm run build', 0, 'built'),
  );
  assert.match(
    lessons(state)
      .filter((l) => l.captured === 'fix')
      .map((l) => l.learning)
      .join('\n'),
    /rm -rf \.next/,
  );
});

test('a note turning a plan or a question down answers it: kept only when it states a rule or forbids something beyond it', () => {
  const plan = 'the ExitPlanMode tool';
  for (const note of [
    'Não precisa de custos nem de fases',
    'Deve haver uma task para escolher a arquitetura, quem vai escolher se usamos webpack será o agente que executar a tarefa, sua tarefa é definir as tarefas, não dizer como fazer.',
    'Given the complexity, review the plan before continuing. ultrathink!',
    'Apenas confirmando, como este repo é dedicado ao rewards, não precisamos do sufixo, então ExtractRewardProgram/ vira Extract mesmo.',
    'super shift alt t should open btop',
    "Já sei o que aconteceu, eu rodei o 'git init' aqui e deve ter removido o git das outras pastas",
    // Portuguese "no" is "in the"; a "no" inside a sentence says what the plan lacks.
    'Coloque os testes no início do plano, antes da implementação',
    'The plan has no tests, add them before you implement',
    'I have no preference, use whichever you think is best',
  ]) {
    assert.equal(refusalNote(note, plan, true), null, note);
  }
  for (const note of [
    'no dont give me any plans, just tell me what your findings are',
    'I dont use btop set that as super shift alt t instead',
    'Please do not add your signature on the commit messages',
    'não use npm neste projeto, use pnpm',
    '不要用npm，用pnpm',
    'always run the linter before you propose a commit',
    'this repo uses pnpm workspaces',
    // What the plan need not hold, then a prohibition of its own.
    'No need for phases. Never edit CLAUDE.md',
  ]) {
    assert.ok(refusalNote(note, plan, true), note);
  }
  // The same words turning down a command or an edit are read as before.
  assert.ok(refusalNote('super shift alt t should open btop', 'editing hypr/bindings.conf'));
});

test('"wait" or "actually" turns a step down only when what follows does; a before or after in what the user tells of their own steps directs nothing', () => {
  const acted = 'editing app/models/slot.rb';
  for (const message of [
    'Wait so if the feature flag broke them then we need to fix them...',
    'No - I renamed the branch after pushing it, the PR is on slot-recapture-spike but I added a ticket originally',
  ]) {
    assert.equal(readCorrection(message, { refused: null, acted }), null, message);
  }
  for (const message of [
    "Wait, don't push to main yet",
    'actually, use pnpm here instead',
    'Wait no we should keep the old cache logic',
    'подожди, используй yarn для этого',
    // "need" is no past step of the user's: its before still directs.
    'No, I need the build to finish before you run the tests',
    'No, run the tests before committing',
    'No, I ran it after the build and it still fails, always run the build first',
  ]) {
    assert.ok(readCorrection(message, { refused: null, acted }), message);
  }
});

test('after a plan turned down without a note, the next message answers the plan: kept only when it forbids or states a rule', () => {
  const before = { refused: 'the ExitPlanMode tool', acted: null, proposal: true };
  assert.equal(
    readCorrection('verifique nas outras branches deste repositorio se já não há migrações relacionadas ao zustand', before),
    null,
  );
  assert.ok(readCorrection('Além do mais, não altere o claude.md, ele é para contexto, não deve estar relacionado a uma tarefa', before));
  // A command turned down: its next message is read as before.
  assert.ok(readCorrection('verifique nas outras branches se já não há migrações', { refused: '`git push`', acted: null }));
});

test('PowerShell commands given to bash are one obstacle whatever the cmdlet, with what to do, and never a fix; a cd from the wrong folder and a usage listing are no lesson', async (t) => {
  const first = await gather(t, (b) =>
    b
      .user('what is in the server package?')
      .bash('Get-ChildItem packages/server', 127, '/usr/bin/bash: line 1: Get-ChildItem: command not found')
      .bash(
        'cd packages/server && npx tsc --noEmit | Select-Object -First 50',
        127,
        '/usr/bin/bash: line 1: Select-Object: command not found',
      )
      .bash('Remove-Item -Force out.txt', 127, '/usr/bin/bash: line 1: Remove-Item: command not found')
      .bash('cd packages/server && npx tsc --noEmit', 0, '')
      .bash('cd packages/server && npm test', 1, '/usr/bin/bash: line 1: cd: packages/server: No such file or directory')
      .bash('cd backend/backend && npm install fastify --save', 1, '(eval):cd:1: no such file or directory: backend')
      .bash(
        'npx supabase db dump --passwd x',
        1,
        'Usage:\n  supabase db dump [flags]\nFlags:\n  -p, --password string   Password to your remote Postgres database.',
      ),
  );
  let ledger = updateSightings({}, first, meta('s-one'));
  const once = lessonsOf(first, meta('s-one'), ledger).filter((l) => l.captured !== 'commands');
  assert.deepEqual(
    once.map((l) => [l.captured, l.signature]),
    [['obstacle', 'error:powershell cmdlet: command not found']],
  );
  assert.match(once[0]!.learning, /did not get past it\. The Bash tool runs bash here, not PowerShell/);
  // A cd a script ran (`npm run deploy` printing `cd: dist: …`) is the script's: dist was not built yet.
  assert.ok(isShellSlip('/usr/bin/bash: line 1: cd: packages/server: No such file or directory', 'cd packages/server && npm test'));
  assert.ok(!isShellSlip('sh: line 0: cd: dist: No such file or directory', 'npm run deploy'));
  assert.ok(isShellSlip('(eval):cd:1: no such file or directory: backend', 'cd backend/backend && npm install x'));
  // A sentence given as the command is the model's slip too; a program missing is not.
  assert.ok(isShellSlip('zsh: command not found: Kill', 'Kill training process'));
  assert.ok(isShellSlip('zsh: command not found: Kill', 'Kill the training process.'));
  assert.ok(isShellSlip('bash: line 1: Kill: command not found', 'Kill training process\npkill -f train.py'));
  assert.ok(!isShellSlip('bash: line 1: Rscript: command not found', 'Rscript analysis'), 'a program with one argument');
  assert.ok(!isShellSlip('bash: line 1: Rscript: command not found', 'Rscript -e "1"'));
  // The command's own cd, however written: quoted, in a subshell, after `--`, on a line of its own.
  assert.ok(isShellSlip('/usr/bin/bash: line 1: cd: my app: No such file or directory', 'cd "my app" && ls'));
  assert.ok(isShellSlip('/usr/bin/bash: line 1: cd: packages/api: No such file or directory', '(cd packages/api && npm test)'));
  assert.ok(isShellSlip('/usr/bin/bash: line 1: cd: packages/api: No such file or directory', 'cd -- packages/api'));
  assert.ok(isShellSlip('/usr/bin/bash: line 1: cd: packages/api: No such file or directory', 'npm ci\ncd packages/api'));
  assert.ok(isShellSlip('(eval):cd:1: no such file or directory: my app/sub', 'cd "my app/sub"'));
  const second = await gather(t, (b) =>
    b.user('show the config').bash('Get-Content package.json', 127, 'bash: Get-Content: command not found'),
  );
  ledger = updateSightings(ledger, second, meta('s-two'));
  const again = lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle');
  assert.equal(again.length, 1);
  assert.equal(again[0]!.signature, once[0]!.signature, 'another cmdlet, the same trouble');
  assert.match(again[0]!.learning, /^Met again across sessions: .*not PowerShell/);
  assert.doesNotMatch(again[0]!.learning, /Fix seen|Remove-Item/, 'what ran before a pass is no fix of it');
  assert.equal(again[0]!.solution, undefined);
});

test('a usage listing is passed over only below its heading; a CMake line opening with dashes is an error line', () => {
  const usage = errorSignature(
    'Usage:\n  supabase db dump [flags]\nFlags:\n  -p, --password string   Password to your remote Postgres database.\n  -s, --schema strings    Comma separated list of schema to include.',
    true,
  );
  assert.doesNotMatch(usage!.line, /password/i);
  const cmake = errorSignature(
    "-- Checking for module 'gtk+-3.0'\n--   Package 'gtk+-3.0', required by 'virtual:world', not found\nCMake Error at /usr/share/cmake/FindPkgConfig.cmake:605 (message):",
    true,
  );
  assert.match(cmake!.line, /Package 'gtk\+-3\.0', required by 'virtual:world', not found/);
  // zsh names the program last: PowerShell's commands are one trouble there too.
  assert.equal(
    errorSignature('zsh: command not found: Get-ChildItem', true)!.key,
    errorSignature('bash: Select-Object: command not found', true)!.key,
  );
});

test('a cd from inside the folder it names, met in two sessions, is no obstacle: the shell already stood there', async (t) => {
  const session = (id: string) =>
    gather(t, (b, dir) =>
      b
        .user('run the server tests')
        .bash('cd packages/server && npm run build', 0, 'ok')
        .in(join(dir, 'packages', 'server'))
        .bash(`cd packages/server && npm test # ${id}`, 1, '/usr/bin/bash: line 1: cd: packages/server: No such file or directory'),
    );
  let ledger = updateSightings({}, await session('a'), meta('s-one'));
  const second = await session('b');
  ledger = updateSightings(ledger, second, meta('s-two'));
  assert.deepEqual(
    lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle'),
    [],
  );
});

test("cmd's commands, options and paths given to bash are one obstacle however they showed, with what to do, and never a fix", async (t) => {
  const key = 'windows cmd syntax given to bash';
  // Git Bash's path conversion made cmd's `/F` and `/PID` paths; a unix rmdir took `/S` for a folder; bash ate the
  // backslashes of a Windows path; cmd's own commands and a batch file are no programs bash can find.
  for (const [output, picked] of [
    ['ERROR: Invalid argument/option - \'F:/\'.\nType "TASKKILL /?" for usage.', /'F:\/'/],
    ['ERROR: Invalid argument/option - \'C:/Program Files/Git/PID\'.\nType "TASKKILL /?" for usage.', /Git\/PID/],
    ["rmdir: failed to remove '/S': No such file or directory\nrmdir: failed to remove '.next': Directory not empty", /'\/S'/],
    ['/usr/bin/bash: line 11: cd: E:vsenseshop: No such file or directory', /E:vsenseshop/],
    ['/usr/bin/bash: line 1: E:rustscriptscheck.sh: command not found', /E:rustscripts/],
    // bash shows a name it cannot print in its own quoting: `$'d:Workspace08_客\210…'`.
    ["/usr/bin/bash: line 1: cd: $'d:ClaudeWorkspace08_客\\210Okki': No such file or directory", /d:ClaudeWorkspace08/],
    ['/usr/bin/bash: line 1: move: command not found', /move/],
    ['/usr/bin/bash: line 1: Launch App.bat: command not found', /App\.bat/],
    ['/usr/bin/bash: line 1: del: command not found', /del/],
  ] as const) {
    const sig = errorSignature(output, true);
    assert.equal(sig?.key, key, output);
    assert.match(sig!.line, picked);
  }
  // A program missing on Linux, a real path, an option bash's tools reject: each its own trouble.
  for (const output of [
    'bash: line 1: rename: command not found',
    "ls: cannot access 'src/app': No such file or directory",
    '/bin/sh: 1: cd: /srv/app: No such file or directory',
    "rm: cannot remove '/tmp/x': Permission denied",
    // zsh runs on no Windows; `$B goto` with $B empty runs `goto`.
    'zsh: command not found: del',
    '(eval):1: command not found: goto',
    '/usr/bin/bash: line 1: goto: command not found',
  ]) {
    assert.notEqual(errorSignature(output, true)?.key, key, output);
  }
  const first = await gather(t, (b) =>
    b
      .user('restart the dev server')
      .bash('taskkill /F /IM node.exe', 1, 'ERROR: Invalid argument/option - \'F:/\'.\nType "TASKKILL /?" for usage.')
      .bash('taskkill //F //IM node.exe', 0, 'SUCCESS: The process "node.exe" with PID 4242 has been terminated.')
      .bash('move CLAUDE.md .claude\\', 127, '/usr/bin/bash: line 1: move: command not found'),
  );
  let ledger = updateSightings({}, first, meta('s-one'));
  const once = lessonsOf(first, meta('s-one'), ledger).filter((l) => l.captured !== 'commands');
  assert.deepEqual(
    once.map((l) => [l.captured, l.signature]),
    [['obstacle', `error:${key}`]],
  );
  assert.equal(once[0]!.title, "cmd's commands, options and paths given to bash (Git Bash)");
  assert.match(once[0]!.learning, /forward slashes .*`taskkill \/\/F \/\/PID 1234`/);
  const second = await gather(t, (b) =>
    b.user('clean the build').bash('rmdir /S /Q .next', 1, "rmdir: failed to remove '/S': No such file or directory"),
  );
  ledger = updateSightings(ledger, second, meta('s-two'));
  const again = lessonsOf(second, meta('s-two'), ledger).filter((l) => l.captured === 'obstacle');
  assert.equal(again.length, 1);
  assert.equal(again[0]!.signature, once[0]!.signature, 'another of cmd’s ways, the same trouble');
  assert.doesNotMatch(again[0]!.learning, /Fix seen/, 'the taskkill that then passed is no fix of it: the advice says what helps');
});

test('lines that only point at more (a list cut short, where to read the usage, npm’s dependency tree) are never the error line', () => {
  const eresolve = errorSignature(
    [
      'npm WARN ERESOLVE overriding peer dependency',
      'npm ERR! 75 more (@mdx-js/react, @radix-ui/react-alert-dialog, ...)',
      'npm ERR! code ERESOLVE',
      'npm ERR! ERESOLVE could not resolve',
      'npm ERR! dev @storybook/addon-essentials@"^7.6.0" from the root project',
      'npm ERR!   node_modules/@storybook/addon-essentials',
    ].join('\n'),
    true,
  );
  assert.equal(eresolve?.line, 'npm ERR! code ERESOLVE');
  const tree = errorSignature(
    'npm ERR! dev @storybook/addon-essentials@"^7.6.0" from the root project\nnpm ERR! Could not resolve dependency:',
    true,
  );
  assert.equal(tree?.line, 'npm ERR! Could not resolve dependency:');
  // GNU's pointer to --help says nothing of what was wrong; alone, nothing does.
  assert.equal(errorSignature("Try 'timeout --help' for more information.", true), null);
  assert.equal(
    errorSignature("timeout: invalid time interval '/t'\nTry 'timeout --help' for more information.", true)?.line,
    "timeout: invalid time interval '/t'",
  );
  // What a user pastes from a hosted build saying only that it timed out keys every such failure alike.
  assert.ok(saysOnlyThatItFailed('Build timed out'));
  assert.ok(saysOnlyThatItFailed("error: failed to push some refs to 'https://github.com/acme/app.git'"));
});

test('a push the remote turned down for commits it holds is no error; a push the remote refused for a reason says that reason', () => {
  for (const why of ['fetch first', 'non-fast-forward']) {
    assert.equal(
      errorSignature(
        `To https://github.com/acme/app.git\n ! [rejected]        main -> main (${why})\nerror: failed to push some refs to 'https://github.com/acme/app.git'\nhint: Updates were rejected because the remote contains work that you do not`,
        true,
      ),
      null,
      why,
    );
  }
  const blocked = errorSignature(
    "remote: error: GH013: Repository rule violations found for refs/heads/main.\nremote: - GITHUB PUSH PROTECTION\nTo https://github.com/acme/app.git\n ! [remote rejected] main -> main (push declined due to repository rule violations)\nerror: failed to push some refs to 'https://github.com/acme/app.git'",
    true,
  );
  assert.match(blocked!.line, /GH013: Repository rule violations/);
});

test('a local server not up, or a flag the model got wrong, met in two sessions is no obstacle without the way that worked', async (t) => {
  const session = (id: string) =>
    gather(t, (b) =>
      b
        .user(`check the api (${id})`)
        .bash(
          'curl -s localhost:3000/health',
          7,
          "curl: (7) Failed to connect to localhost port 3000 after 0 ms: Couldn't connect to server",
        )
        .bash('curl --timeout 5 https://example.com', 2, 'curl: option --timeout: is unknown')
        .bash('npx @acme/cli deploy', 1, "error: missing required argument 'type'")
        .bash('gh pr list', 127, '/bin/bash: line 1: gh: command not found'),
    );
  const last = await obstaclesAfter(['s-one', 's-two'], session);
  // The missing program stays: a fact of the machine.
  assert.deepEqual(
    last.map((l) => l.symptom),
    ['/bin/bash: line 1: gh: command not found'],
  );
  // A refused connection to the database, met and then fixed by starting it, is still a fix.
  const fixed = await gather(t, (b) =>
    b
      .user('run the migrations')
      .bash('npm run migrate', 1, 'Error: connect ECONNREFUSED 127.0.0.1:5432')
      .bash('docker compose up -d postgres', 0, 'Container db-1 Started')
      .bash('npm run migrate', 0, 'Migrations applied'),
  );
  assert.deepEqual(
    lessons(fixed)
      .filter((l) => l.captured === 'fix')
      .map((l) => l.symptom),
    ['Error: connect ECONNREFUSED 127.0.0.1:5432'],
  );
});

test('"so" is no Portuguese "só": an English "I want you to … so …" asks for this task', () => {
  assert.deepEqual(
    statedRules(
      'all the other options that are in the plan I want you to create for us so whatever ones the package has I want to develop',
    ),
    [],
  );
  assert.equal(statedRules('Quero que você só use npm neste projeto.').length, 1);
});

test('rules inside a block handed over under a colon (another agent’s prompt) are not the user’s; an indented list of the user’s own still is', () => {
  const handed = [
    'The orchestrator plans instead of acting. Replace its system prompt with this exact content:',
    '',
    '  ## Critical Rule — Act, Do Not Plan',
    '  NEVER describe what you are going to do.',
    '  NEVER produce a planning summary.',
    '',
    'Then run the workflow once.',
  ].join('\n');
  assert.deepEqual(statedRules(handed), []);
  const own = 'Some rules for this repo:\n  - never push straight to main\n  - always run the linter before committing';
  assert.equal(statedRules(own).length, 2);
  // What the user lived through, the subject left out, is no instruction.
  assert.deepEqual(statedRules('Never have seen that one before on hostinger.'), []);
  assert.equal(statedRules('Never deploy on a Friday afternoon.').length, 1);
});

test('an error met again with no way past it is an obstacle only when it says what stands in the way whatever the code does', async (t) => {
  const session = (id: string) =>
    gather(t, (b) =>
      b
        .user(`set up the server (${id})`)
        .bash('sudo -u postgres psql -c "CREATE ROLE app"', 1, 'ERROR:  role "app" already exists')
        .bash(
          'sudo systemctl restart nginx',
          1,
          'Job for nginx.service failed because the control process exited with error code.\nSee "systemctl status nginx.service" and "journalctl -xeu nginx.service" for details.',
        )
        .bash('node scripts/seed.js', 1, "Error: ENOENT: no such file or directory, open 'data/seed.json'")
        .bash('docker ps', 127, '/bin/bash: line 1: docker: command not found'),
    );
  const last = await obstaclesAfter(['s-one', 's-two'], session);
  assert.deepEqual(
    last.map((l) => l.symptom),
    ['/bin/bash: line 1: docker: command not found'],
  );
  assert.ok(saysOnlyThatItFailed('Job for nginx.service failed because the control process exited with error code.'));
  assert.ok(saysOnlyThatItFailed('An unexpected error occurred:'));
  // A setting the secret filter emptied is no error line of a pasted log.
  assert.equal(reportedError("redis:\n  password: '[REDACTED:password]'\n  port: 6379"), null);
});

test('npm’s bare prefix line is no error line, and a push the remote’s rules blocked is not fixed by editing settings', async (t) => {
  assert.equal(
    errorSignature('npm ERR!\nnpm ERR! Could not resolve dependency:\nnpm ERR!', true)?.line,
    'npm ERR! Could not resolve dependency:',
  );
  const state = await gather(t, (b, dir) =>
    b
      .user('deploy it')
      .bash(
        'git push origin main',
        1,
        'remote: error: GH013: Repository rule violations found for refs/heads/main.\nremote: - Push cannot contain secrets',
      )
      .tool(
        'Edit',
        { file_path: join(dir, 'railway.toml'), old_string: 'python run.py', new_string: '. /opt/venv/bin/activate && python run.py' },
        'The file has been updated.',
      )
      .bash('git push origin main', 0, 'To https://github.com/acme/app.git\n   84bf8b2..1c688a6  main -> main'),
  );
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
  );
});

test('a command Claude Code stopped at its time limit failed for that, whatever the log it was tailing said; its lost shell snapshot is no error', () => {
  const sig = errorSignature(
    'Command timed out after 2m 0.0s\n[TAILING] Tailing last 20 lines for [all] processes\n0|app | Redis connection error: [SimpleError: ERR AUTH called without any password configured]',
    true,
  );
  assert.equal(sig?.key, 'command timed out');
  assert.equal(errorSignature('/bin/bash: line 1: /tmp/claude-shell-snapshot-902b: No such file or directory', true), null);
});

test('a request that only fetches, a process list or a log looked at are no step of a fix', async (t) => {
  for (const look of ['pm2 status', 'pm2 logs --err --lines 20 --nostream', 'systemctl status nginx', 'docker ps -a', 'journalctl -u api'])
    assert.ok(isInspection(look), look);
  // Chained or piped to an action, written to a file, or a log followed (it never ends): no look.
  for (const act of [
    'pm2 restart all',
    'systemctl restart nginx',
    'docker compose up -d',
    'pm2 status && pm2 restart all',
    'docker ps && docker compose up -d',
    'systemctl status nginx || sudo systemctl restart nginx',
    'gh auth status || gh auth login',
    'docker ps -aq | xargs docker rm -f',
    'pip freeze > requirements.txt',
    'journalctl --vacuum-size=100M',
    'yarn view:build',
    'pm2 logs api',
    'docker logs -f api',
  ])
    assert.ok(!isInspection(act), act);
  for (const fetches of ['curl -s localhost:3000/health', 'curl -s https://x/api | jq .']) assert.ok(onlyFetches(fetches), fetches);
  for (const act of [
    'curl -s localhost:3000/health && npm run db:seed',
    'curl -fsSL https://deb.nodesource.com/setup_22.x | sudo -E bash -',
    'curl https://bootstrap.pypa.io/get-pip.py | python3',
    'curl -sL https://x/m.onnx > models/m.onnx',
    'curl -X POST https://x/seed',
  ])
    assert.ok(!onlyFetches(act), act);
  const state = await gather(t, (b) =>
    b
      .user('restart the app')
      .bash('pm2 restart api', 1, '[PM2][ERROR] Process or Namespace api not found')
      .bash('curl -s https://example.com/api/health', 0, '{"ok":true}')
      .bash('pm2 status', 0, '│ 0 │ app │ online │')
      .bash('pm2 restart api', 0, '[PM2] Applying action restartProcessId on app [api](ids: [ 0 ])'),
  );
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
  );
  // A request that sends something, or writes a file, can be a step; one piped into a shell installs.
  const posted = await gather(t, (b) =>
    b
      .user('seed it')
      .bash('npm run check-seed', 1, 'Error: seed marker missing: run the seeding job first')
      .bash('curl -X POST https://example.com/admin/seed', 0, '{"seeded":true}')
      .bash('npm run check-seed', 0, 'seed ok'),
  );
  assert.match(
    lessons(posted)
      .filter((l) => l.captured === 'fix')
      .map((l) => l.learning)
      .join(' '),
    /curl -X POST/,
  );
});

test('asking a package manager or gh what there is only looks; access back after such looks is no fix seen; a cut command keeps its program', async (t) => {
  for (const look of [
    'npm view @google/genai versions --json',
    'pnpm why react',
    'pip show requests',
    'gh label list --json name',
    'gh auth status',
  ])
    assert.ok(isInspection(look), look);
  assert.ok(!isInspection('npm install'));
  const state = await gather(t, (b) =>
    b
      .user('install the deps')
      .bash('cd SaaS && npm install', 1, 'npm error code ETARGET\nnpm error notarget No matching version found for @google/genai@^9.9.0.')
      .bash('npm view @google/genai versions --json', 0, '["1.0.0","1.1.0"]')
      .bash('cd SaaS && npm install', 0, 'added 12 packages'),
  );
  assert.deepEqual(
    lessons(state).filter((l) => l.captured === 'fix'),
    [],
  );
  // The same access error in two sessions, back after a status look and a commit: no "fix seen".
  const session = (id: string, after: (b: TranscriptBuilder) => TranscriptBuilder) =>
    gather(t, (b) =>
      after(
        b
          .user(`push it (${id})`)
          .bash('git push', 128, "fatal: could not read Username for 'https://github.com': No such device or address"),
      ),
    );
  const last = await obstaclesAfter(['s-one', 's-two'], (id, i) =>
    session(id, (b) =>
      i === 0 ? b : b.bash('gh auth status', 0, 'Logged in').bash('cp notes.md docs/notes.md', 0, '').bash('git push', 0, 'main -> main'),
    ),
  );
  assert.equal(last.length, 1);
  assert.doesNotMatch(last[0]!.learning, /Fix seen/);
  // A command shown cut inside a quote is titled by its program.
  const cut = await gather(t, (b) =>
    b
      .user('check the workflow')
      .bash(
        `python3 -c "import yaml; yaml.safe_load(open('.github/workflows/deploy.yml'))" && echo "YAML is valid and the workflow parses, go on with the deploy steps now"`,
        1,
        "ModuleNotFoundError: No module named 'yaml'",
      ),
  );
  const dead = lessons(cut).filter((l) => l.captured === 'obstacle');
  assert.equal(dead.length, 1);
  assert.match(dead[0]!.title, /^python3: ModuleNotFoundError/);
});

test('what the review of the round found: Unix roots, converted Unix paths, a later error after a rejected push, a timeout said first', () => {
  const key = 'windows cmd syntax given to bash';
  assert.notEqual(errorSignature("rm: cannot remove '/srv': Permission denied", true)?.key, key);
  assert.notEqual(errorSignature("PermissionError: [Errno 13] Permission denied: 'C:/'", true)?.key, key);
  assert.equal(errorSignature("ls: cannot access 'C:/Program Files/Git/app': No such file or directory", true)?.key, key);
  const later = errorSignature(
    "To https://github.com/acme/app.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to 'https://github.com/acme/app.git'\nhint: Updates were rejected\nError: The specified token is not valid. Use `vercel login` to generate a new token.",
    true,
  );
  assert.match(later!.line, /specified token is not valid/);
  // Claude Code writes its time limit first; a line like it further down is the command's own.
  assert.notEqual(errorSignature('build output\nCommand timed out after 30s\nError: bundling failed', true)?.key, 'command timed out');
  const long = `Command timed out after 2m 0.0s ${'{"k":"v"},'.repeat(250)}`;
  assert.equal(errorSignature(`${long}\nError: ECONNRESET`, true)?.key, 'command timed out');
});

test('the user’s own indented rules, "never have hardcoded …" and "don’t use X to fix the …" stay rules', () => {
  assert.equal(
    statedRules('Some rules for you going forward:\n  Always use pnpm here, never npm.\n  Never commit the .env file.').length,
    2,
  );
  assert.equal(statedRules('Never have hardcoded secrets in the code.').length, 1);
  const about = '`sudo chown -R me .`';
  assert.ok(refusalNote("don't use sudo to fix the permission errors, chown the folder instead", about));
});

test('a port taken or BSD’s tools met in two sessions stay obstacles; a timed-out log follow is one; a local hook on push fixed by its config is a fix', async (t) => {
  const session = (id: string) =>
    gather(t, (b) =>
      b
        .user(`start it (${id})`)
        .bash('npm run dev', 1, 'Error: listen EADDRINUSE: address already in use :::3000')
        .bash("sed -i 's/a/b/' config.yml", 1, 'sed: 1: "config.yml": invalid command code c')
        .bash('pm2 logs api', 1, 'Command timed out after 2m 0.0s [TAILING] Tailing last 15 lines for [api] process'),
    );
  const last = await obstaclesAfter(['s-one', 's-two'], session);
  assert.equal(last.length, 3, last.map((l) => l.title).join(' | '));
  const hook = await gather(t, (b, dir) =>
    b
      .user('push it')
      .bash('git push', 1, "husky - pre-push script failed (code 1)\nlefthook: command 'lint' failed")
      .tool(
        'Edit',
        { file_path: join(dir, 'lefthook.yml'), old_string: 'lint: eslint .', new_string: 'lint: eslint src' },
        'The file has been updated.',
      )
      .bash('git push', 0, 'To https://github.com/acme/app.git\n   84bf8b2..1c688a6  main -> main'),
  );
  assert.equal(lessons(hook).filter((l) => l.captured === 'fix').length, 1);
});
