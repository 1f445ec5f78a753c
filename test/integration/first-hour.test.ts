// Issue 9's defects, as a new user met them: each test failed before its fix.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, cliFromSlash } from '../../src/cli/cli.ts';
import type { CliIO } from '../../src/cli/cli-context.ts';
import { documentEntries, parseEchoDocument } from '../../src/core/entry/echo-document.ts';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { executeHook } from '../../src/hooks/run-hook.ts';
import { sessionStart } from '../../src/hooks/session-start-handler.ts';
import { userPromptSubmit } from '../../src/hooks/user-prompt-handler.ts';
import { CLI_NOW, cliJson, cliOk, runCli } from '../helpers/cli-run.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';

const env = (tp: TempProject) => ({ CLAUDE_PROJECT_DIR: tp.dir, HOME: join(tp.dir, 'home') });
const team = (tp: TempProject) => documentEntries(parseEchoDocument(tp.read('.claude/echoes/team/MEMORY.md') ?? ''));

/** What Claude Code does for `/rune:echoes <typed>`: the prompt hook, then the command's CLI call. */
async function slash(tp: TempProject, typed: string, sessionId = 'sess-1'): Promise<string> {
  const spec = hookSpec('user-prompt-submit');
  const prompt = `/rune:echoes ${typed}`;
  const out = await executeHook(
    spec,
    userPromptSubmit,
    { session_id: sessionId, prompt, cwd: tp.dir, hook_event_name: 'UserPromptSubmit' },
    env(tp),
    tp.dir,
  );
  assert.deepEqual(JSON.parse(out), { suppressOutput: true });
  let stdout = '';
  const io: CliIO = {
    argv: [],
    cwd: tp.dir,
    env: env(tp),
    now: CLI_NOW,
    readStdin: () => '',
    stdout: (t) => (stdout += t),
    stderr: (t) => (stdout += `[stderr]${t}`),
  };
  assert.equal(await cliFromSlash(io, sessionId), 0, 'the command never fails: the model reads the output');
  return stdout;
}

test('1. backticks, $(…), quotes, a delimiter line and line breaks typed after /rune:echoes reach the CLI as typed', async (t) => {
  const tp = makeTempProject(t);
  const typed = 'Use `npm ci` in CI, never `npm install`: $(whoami) \'single\' "double"\nRUNE_ECHOES_ARGS\nlast line';
  const out = await slash(tp, `remember ${typed}`);
  assert.match(out, /^remembered team\//);
  assert.equal(team(tp)[0]!.learning, typed.replace(/\n/g, ' '));
  const title = team(tp)[0]!.title;
  assert.ok(
    title.length <= 80 && title.endsWith('…') && typed.replace(/\n/g, ' ').startsWith(title.slice(0, -1)),
    `a title cut between words: ${title}`,
  );
  assert.deepEqual(
    tp.files('.claude/echoes/.state').filter((f) => f.includes('slash')),
    [],
    'the kept text was taken',
  );
});

test('1. evidence in backticks through /rune:echoes, and evidence with no backticks at all, are stored with them', async (t) => {
  const tp = makeTempProject(t);
  await slash(tp, 'remember --evidence "`app.py:1-10` — entry point" The app starts in app.py');
  await cliOk(tp, ['remember', '--evidence', 'lib/db.ts:40-52 — pool size', 'The pool is sized by hand']);
  tp.write('ev.txt', '`worker/run.py:7` — the retry loop\n');
  await cliOk(tp, ['remember', '--evidence-file', 'ev.txt', 'Retries are unbounded']);
  assert.deepEqual(
    team(tp).map((e) => e.evidence),
    ['`app.py:1-10` — entry point', '`lib/db.ts:40-52` — pool size', '`worker/run.py:7` — the retry loop'],
  );
  const both = await runCli(tp, ['remember', '--evidence', 'x', '--evidence-file', 'ev.txt', 'y']);
  assert.equal(both.code, 1);
});

test('1. a /rune:echoes command whose arguments were not kept says so in one line, and other prompts keep nothing', async (t) => {
  const tp = makeTempProject(t);
  const spec = hookSpec('user-prompt-submit');
  for (const prompt of ['/rune:echoesx status', 'please run /rune:echoes status', '/other:echoes status'])
    await executeHook(spec, userPromptSubmit, { session_id: 's', prompt, cwd: tp.dir }, env(tp), tp.dir);
  assert.deepEqual(
    tp.files().filter((f) => f.includes('slash')),
    [],
  );
  let out = '';
  await cliFromSlash(
    { argv: [], cwd: tp.dir, env: env(tp), now: CLI_NOW, readStdin: () => '', stdout: (x) => (out += x), stderr: (x) => (out += x) },
    's',
  );
  assert.match(out, /^rune-echoes: the arguments of \/rune:echoes did not reach the CLI[^\n]*\n$/);
  assert.match(await slash(tp, 'status', 's2'), /Rune Echoes/, 'the short form /echoes works too');
});

test('2. a secret typed into a lesson leaves no piece in its title, id, show or search', async (t) => {
  const tp = makeTempProject(t);
  const token = ['ghp_', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef1234'].join('');
  await slash(tp, `remember the token is ${token} and it rotates monthly`);
  const entry = team(tp)[0]!;
  const shown = await cliOk(tp, ['show', 'team']);
  const found = await cliOk(tp, ['search', 'token rotates']);
  for (const text of [entry.title, entry.id, entry.learning, shown, found, tp.read('.claude/echoes/team/MEMORY.md')!]) {
    for (let i = 0; i + 6 <= token.length; i++)
      assert.ok(!text.includes(token.slice(i, i + 6)), `a piece of the token in ${text.slice(0, 80)}`);
  }
});

test('3. words that look like options are text; -- takes the rest as text; a near miss of an option is refused with a guess', async (t) => {
  const tp = makeTempProject(t);
  await cliOk(tp, ['remember', 'Tests', 'are', 'run', 'with', 'python3', '-m', 'pytest', '--maxfail=1']);
  assert.equal(team(tp)[0]!.learning, 'Tests are run with python3 -m pytest --maxfail=1');
  await cliOk(tp, ['remember', '--role', 'ops', '--', '--layer', 'etched', 'is how the flag is written']);
  const ops = documentEntries(parseEchoDocument(tp.read('.claude/echoes/ops/MEMORY.md')!));
  assert.equal(ops[0]!.learning, '--layer etched is how the flag is written');
  assert.equal(ops[0]!.layer, 'inscribed', 'text after -- set no option');
  const miss = await runCli(tp, ['remember', '--lyer', 'etched', 'x']);
  assert.equal(miss.code, 1);
  assert.match(miss.stderr, /did you mean --layer\?/);
  assert.match(await cliOk(tp, ['remember', '--help']), /put -- before text/);
  const show = await runCli(tp, ['show', '-m']);
  assert.equal(show.code, 1, 'a command without free text still refuses an unknown option');
});

test('4. every command taking an id takes a unique start of one, names the matches when there are several, and show prints ids whole', async (t) => {
  const tp = makeTempProject(t);
  const long = 'Database migrations must run inside one transaction per deploy step always';
  await cliOk(tp, ['remember', '--pattern', long, 'Wrap each step.']);
  await cliOk(tp, ['remember', '--pattern', 'Database pool sizing', 'Size it by cores.']);
  const ids = team(tp).map((e) => e.id);
  const shown = await cliOk(tp, ['show', 'team']);
  for (const id of ids) assert.ok(shown.includes(id), `show prints ${id} whole`);
  const ambiguous = await runCli(tp, ['forget', 'database']);
  assert.equal(ambiguous.code, 1);
  for (const id of ids) assert.ok(ambiguous.stderr.includes(`team/${id}`), ambiguous.stderr);
  const forgot = await cliJson(tp, ['forget', 'database-mig']);
  assert.equal(forgot.id, ids[0]);
  const exported = await cliJson(tp, ['export', '--to', 'claude-md', 'database-p', '--dry-run']);
  assert.equal(exported.entries[0].id, ids[1]);
});

test('5. inject: no turns injection off; a value that is no boolean is named with what stays; warnings are logged once per change, not counted as errors', async (t) => {
  const tp = makeTempProject(t);
  const start = () =>
    executeHook(hookSpec('session-start'), sessionStart, { session_id: 's', cwd: tp.dir, source: 'startup' }, env(tp), tp.dir);
  tp.write('.claude/echoes/EPHEMERAL.md', '# Last session\n## Asked\n- Ship the importer\n');
  tp.write('.claude/rune-config.yml', 'echoes:\n  inject: no\n');
  assert.deepEqual(JSON.parse(await start()), { suppressOutput: true }, 'no digest');
  tp.write('.claude/rune-config.yml', 'echoes:\n  inject: Off\n');
  assert.deepEqual(JSON.parse(await start()), { suppressOutput: true });
  tp.write('.claude/rune-config.yml', 'echoes:\n  inject: maybe\n');
  for (let i = 0; i < 3; i++) assert.match(await start(), /additionalContext/, 'an unreadable value keeps the default: on');
  const log = tp.read('.claude/echoes/.log') ?? '';
  const warnings = log.split('\n').filter((l) => l.includes('echoes.inject'));
  assert.equal(warnings.length, 1, `logged once for this version of the file:\n${log}`);
  assert.match(warnings[0]!, /"echoes.inject" should be true or false .*; it stays ON \(the default\)/);
  const status = await runCli(tp, ['status']);
  assert.match(status.stdout, /^errors logged: 0$/m);
  assert.match(status.stdout, /^config: .*echoes\.inject/m);
});

test('6. outside any project, write commands refuse in one line saying where they looked, and read commands say there is no memory', async (t) => {
  const tp = makeTempProject(t);
  const noProject = { HOME: join(tp.dir, 'home') };
  const before = tp.snapshot();
  for (const argv of [['remember', 'x'], ['record', '--role', 'r', '--agent', 'a', 'x'], ['forget', 'x'], ['reset', '--yes'], ['prune']]) {
    const r = await runCli(tp, argv, { env: noProject });
    assert.equal(r.code, 1, argv.join(' '));
    assert.match(
      r.stderr,
      /^rune-echoes: no project here \(looked for \.claude\/ or \.git from .+ up to \/\); run it inside your project, or pass --project DIR\n$/,
    );
  }
  for (const argv of [['status'], ['show'], ['search', 'x']]) {
    const r = await runCli(tp, argv, { env: noProject });
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^No Rune Echoes memory here: no project/);
  }
  assert.deepEqual(tp.snapshot(), before, 'nothing written');
});

test('7. wording: plurals, no verbatim blocks on a file nobody hand-wrote, a lesson said once in the digest, a clear footer, did-you-mean, long lessons, forgotten findings counted', async (t) => {
  const tp = makeTempProject(t);
  await cliOk(tp, ['remember', 'Always pin the Node version in CI.']);
  const shown = await cliOk(tp, ['show']);
  assert.match(shown, /\(1 entry, /);
  assert.doesNotMatch(shown, /kept verbatim/);
  const digest = JSON.parse(
    await executeHook(hookSpec('session-start'), sessionStart, { session_id: 's', cwd: tp.dir, source: 'startup' }, env(tp), tp.dir),
  );
  const context: string = digest.hookSpecificOutput.additionalContext;
  assert.equal(context.split('Always pin the Node version in CI').length - 1, 1, context);
  assert.match(context, /In memory in all: 1 entry, 0 archive logs, 0 solutions — find more with \/rune:echoes search/);
  const typo = await runCli(tp, ['stats']);
  assert.match(typo.stderr, /unknown command "stats"; did you mean status\?/);
  const long = await cliOk(tp, ['remember', 'word '.repeat(1200).trim()]);
  assert.match(long, /note: the lesson is 5,999 characters long; it is stored whole in team\/MEMORY\.md/);
  const title = team(tp).at(-1)!.title;
  assert.ok(title.endsWith('word…') || title.endsWith('word'), `cut between words: ${title}`);
  await cliOk(tp, ['forget', 'always-pin']);
  await cliOk(tp, ['record', '--role', 'team', '--agent', 'scout', '--pattern', 'Always pin the Node version in CI', 'Again.']);
  const r = await cliOk(tp, ['consolidate', '--role', 'team']);
  assert.match(r, /team: 1 findings file, 0 added, 0 merged, 1 dropped \(forgotten earlier: Always pin the Node version in CI\)/);
});

test('8. a forgotten entry stays forgotten when it is recorded again with its evidence written differently', async (t) => {
  const tp = makeTempProject(t);
  const rec = (evidence: string, title = 'Retry the flaky upload') =>
    cliOk(tp, ['record', '--role', 'reviewer', '--agent', 'a', '--pattern', title, '--evidence', evidence, 'Uploads fail once a day.']);
  await rec('`src/upload.ts:12` — no retry');
  await cliOk(tp, ['consolidate']);
  const id = documentEntries(parseEchoDocument(tp.read('.claude/echoes/reviewer/MEMORY.md')!))[0]!.id;
  await cliOk(tp, ['forget', id]);
  for (const evidence of ['src/upload.ts:14 - no retry at all', 'see src/upload.ts', '`./src/upload.ts#L12`']) await rec(evidence);
  await rec('a different file: lib/x.ts:1', 'Retry the flaky upload!');
  await cliOk(tp, ['consolidate']);
  assert.deepEqual(documentEntries(parseEchoDocument(tp.read('.claude/echoes/reviewer/MEMORY.md')!)), [], 'none came back');
  await rec('lib/other.ts:3', 'Cache the upload token');
  await cliOk(tp, ['consolidate']);
  assert.equal(
    documentEntries(parseEchoDocument(tp.read('.claude/echoes/reviewer/MEMORY.md')!)).length,
    1,
    'a different lesson is not held back',
  );
});

test('the CLI run as a process keeps its usual arguments (no /rune:echoes text involved)', async (t) => {
  const tp = makeTempProject(t);
  let out = '';
  const code = await cli({
    argv: ['remember', 'Plain', 'words'],
    cwd: tp.dir,
    env: env(tp),
    now: CLI_NOW,
    readStdin: () => '',
    stdout: (x) => (out += x),
    stderr: (x) => (out += x),
  });
  assert.equal(code, 0, out);
  assert.equal(team(tp)[0]!.learning, 'Plain words');
});
