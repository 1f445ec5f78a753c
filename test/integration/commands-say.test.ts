// Issue 20, items 9–15: commands do what they say.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli } from '../../src/cli/cli.ts';
import { SOLUTION_CATEGORIES } from '../../src/core/remembrance/solution-doc.ts';
import { BUILT_CLI, CLI_NOW, cliJson, cliOk, runCli } from '../helpers/cli-run.ts';
import { REPO, runHookSync } from '../helpers/run-bundle.ts';
import { makeTempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const LOGGER = [
  '<!-- echo-schema: v2 -->',
  '# Team Memory',
  '',
  '### [2026-04-20] Pattern: Redact the Authorization header in the logger',
  '- **id**: redact-the-authorization-header-in-the-logger',
  '- **layer**: inscribed',
  '- **evidence**: `src/logger.ts:14` — the request logger',
  '- **verified**: 2026-04-20',
  '- The request logger printed bearer tokens until it dropped the header.',
  '',
].join('\n');

test('remember --layer etched on an existing entry etches it, and slightly different text adds no near-duplicate', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/team/MEMORY.md', LOGGER);
  const id = 'redact-the-authorization-header-in-the-logger';
  const out = await cliOk(tp, ['remember', '--layer', 'etched', 'Redact the Authorization header in the logger']);
  assert.equal(out, `already known, refreshed team/${id} (etched)\n`);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.match(memory, /- \*\*layer\*\*: etched/);
  assert.doesNotMatch(memory, /- \*\*layer\*\*: inscribed/);
  assert.match(memory, /- \*\*evidence\*\*: `src\/logger\.ts:14` — the request logger/, 'the evidence stays');

  const again = await cliJson(tp, [
    'remember',
    '--layer',
    'etched',
    'Redact the Authorization header in the logger. Tokens must never reach the log.',
  ]);
  assert.deepEqual({ id: again.id, layer: again.layer }, { id, layer: 'etched' });
  const items = (await cliJson(tp, ['show', 'team'])).roles[0].items;
  assert.deepEqual(
    items.map((i: { id: string; layer: string }) => [i.id, i.layer]),
    [[id, 'etched']],
    'one entry, no …-2',
  );
  assert.match(items[0].learning, /Tokens must never reach the log\./, 'what the user added is kept');

  // A new entry remembered as etched is etched; one remembered without --layer stays inscribed.
  assert.match(await cliOk(tp, ['remember', '--layer', 'etched', 'The service runs on Node 22.']), /\(etched\)\n$/);
  assert.match(await cliOk(tp, ['remember', 'Prefer small pull requests.']), /\(inscribed\)\n$/);
});

test('remember without --layer on an etched entry leaves it etched and says so', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/team/MEMORY.md', LOGGER.replace('- **layer**: inscribed', '- **layer**: etched'));
  const out = await runCli(tp, ['remember', 'Redact the Authorization header in the logger']);
  assert.equal(out.stdout, 'already known, refreshed team/redact-the-authorization-header-in-the-logger (etched)\n');
  assert.match(tp.read('.claude/echoes/team/MEMORY.md')!, /- \*\*layer\*\*: etched/);
});

test('migrate --rename renames a cited path, and the dry run says how to apply the same renames', async (t) => {
  const tp = makeTempProject(t);
  const entry = (id: string, evidence: string) => [
    `### [2026-04-20] Pattern: ${id}`,
    `- **id**: ${id}`,
    '- **layer**: inscribed',
    `- **evidence**: ${evidence}`,
    '- It rounds.',
    '',
  ];
  tp.write(
    '.claude/echoes/team/MEMORY.md',
    [
      '<!-- echo-schema: v2 -->',
      '# Team Memory',
      '',
      ...entry('rounding', '`src/money.js:12` — rounding'),
      ...entry('currency', '`src/money.js` — currency codes'),
    ].join('\n'),
  );
  const dry = await cliOk(tp, ['migrate', '--rename', 'src/money.js=lib/money.js', '--dry-run']);
  assert.doesNotMatch(dry, /Everything is up to date/);
  assert.match(dry, /2 changes/);
  assert.match(dry, /Run `rune-echoes migrate --rename src\/money\.js=lib\/money\.js` \(without --dry-run\) to apply/);
  await cliOk(tp, ['migrate', '--rename', 'src/money.js=lib/money.js']);
  const memory = tp.read('.claude/echoes/team/MEMORY.md')!;
  assert.match(memory, /`lib\/money\.js:12` — rounding/);
  assert.match(memory, /`lib\/money\.js` — currency codes/);
  assert.doesNotMatch(memory, /src\/money/);
  assert.match(
    await cliOk(tp, ['migrate', '--rename', 'src/money.js=lib/money.js']),
    /Everything is up to date/,
    'a second run changes nothing',
  );
});

/** Holds a lock in another process, named as a hook's worker names it, until `release` exists. */
async function holdLock(t: { after: (fn: () => void) => void }, dir: string, name: string, release: string): Promise<number> {
  const code = `
    import { echoPaths } from ${JSON.stringify(join(REPO, 'src/store/fs/echo-paths.ts'))};
    import { setLockTaker, withLock } from ${JSON.stringify(join(REPO, 'src/store/fs/role-lock.ts'))};
    import { existsSync } from 'node:fs';
    const [dir, name, release] = process.argv.slice(1);
    setLockTaker({ holder: "the session-end hook's background worker" });
    withLock(echoPaths(dir, { sessionScope: 'project' }, dir + '/home'), name, () => {
      process.stdout.write('held\\n');
      while (!existsSync(release)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    });
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code, '--', dir, name, release], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.after(() => child.kill('SIGKILL'));
  let seen = '';
  for await (const chunk of child.stdout!) {
    seen += chunk;
    if (seen.includes('held')) return child.pid!;
  }
  throw new Error('the lock holder exited before holding the lock');
}

for (const [command, lock] of [
  ['consolidate', 'role-team'],
  ['search', 'search-index'],
] as const) {
  test(`${command} waits for a lock a hook's worker holds, saying what it waits for, instead of failing at once`, async (t) => {
    const tp = makeTempProject(t);
    await cliOk(tp, ['remember', 'Payment retries back off with jitter.']);
    tp.write('.claude/echoes/team/scout-findings.md', '### [2026-04-20] Pattern: Ledger rounds half to even\n- Round half to even.\n');
    rmSync(join(tp.dir, '.claude/echoes/.state/search'), { recursive: true, force: true });
    const release = join(tp.dir, 'release');
    const pid = await holdLock(t, tp.dir, lock, release);
    let stdout = '';
    let stderr = '';
    const code = await cli({
      argv: command === 'search' ? ['search', 'payment retries'] : ['consolidate'],
      cwd: tp.dir,
      env: { CLAUDE_PROJECT_DIR: tp.dir, HOME: join(tp.dir, 'home') },
      now: CLI_NOW,
      readStdin: () => '',
      stdout: (s) => (stdout += s),
      stderr: (s) => {
        stderr += s;
        // The worker finishes only once the command has said it waits: it must wait, however slow the machine.
        writeFileSync(release, '');
      },
      self: { node: process.execPath, cli: BUILT_CLI },
    });
    assert.equal(code, 0, stderr);
    assert.match(
      stderr,
      new RegExp(
        `^rune-echoes: waiting for ${lock}, locked by the session-end hook's background worker \\(pid ${pid}, holding it since [\\d:]+ UTC\\) \\(at most 60 s\\)…\\n$`,
      ),
    );
    assert.match(stdout, command === 'search' ? /Payment retries back off with jitter/ : /team: 1 findings file, 1 added/);
  });
}

test('promote takes an imperative step a person can follow as actionable, with or without a file named', async (t) => {
  const tp = makeTempProject(t);
  tp.write(
    '.claude/echoes/team/MEMORY.md',
    LOGGER.replace('- **layer**: inscribed', '- **layer**: etched\n- **confidence**: 0.9').replace(
      '- **verified**',
      '- **symptom**: bearer tokens in the request log\n- **root_cause**: the logger printed every header\n- **verified**',
    ),
  );
  const promote = (solution: string) =>
    runCli(tp, ['promote', 'redact-the', '--category', 'security', '--verified-by', 'human', '--solution', solution, '--json']);
  const vague = await promote('Be more careful next time');
  assert.equal(vague.code, 1);
  assert.match(vague.stdout + vague.stderr, /not actionable/);
  const step = await promote('Redact the Authorization header in the logger');
  assert.equal(step.code, 0, step.stdout + step.stderr);
  assert.equal(JSON.parse(step.stdout).path, 'docs/solutions/security/redact-the-authorization-header-in-the-logger.md');
  assert.match(tp.read('docs/solutions/security/redact-the-authorization-header-in-the-logger.md')!, /^verified_by: human$/m);
});

test('forget removes an etched entry only with --yes, as reset asks; other entries go at once', async (t) => {
  const tp = makeTempProject(t);
  const etched = LOGGER.replace('- **layer**: inscribed', '- **layer**: etched');
  tp.write('.claude/echoes/team/MEMORY.md', etched);
  const asked = await cliOk(tp, ['forget', 'redact-the']);
  assert.match(asked, /^would forget team\/redact-the-authorization-header-in-the-logger .*an etched entry .*run again with --yes\n$/);
  assert.equal(tp.read('.claude/echoes/team/MEMORY.md'), etched, 'nothing changed');
  assert.equal(tp.read('.claude/echoes/team/archive/forgotten.md'), null);
  assert.deepEqual((await cliJson(tp, ['forget', 'redact-the'])).done, false);
  assert.match(await cliOk(tp, ['forget', 'redact-the', '--yes']), /^forgot team\/redact-the-authorization-header-in-the-logger/);
  assert.doesNotMatch(tp.read('.claude/echoes/team/MEMORY.md')!, /Redact the Authorization/);
  assert.match(tp.read('.claude/echoes/team/archive/forgotten.md')!, /Redact the Authorization header/);

  await cliOk(tp, ['remember', 'Prefer small pull requests.']);
  assert.match(await cliOk(tp, ['forget', 'prefer-small']), /^forgot team\/prefer-small-pull-requests/);
});

test('an option that needs a value never takes a known option as it: the refusal names both, and nothing is written', async (t) => {
  const tp = makeTempProject(t);
  const before = tp.snapshot();
  const r = await runCli(tp, ['record', '--role', 'team', '--agent', 'a', '--pattern', '--project', tp.dir, 'Cap retries at 3.']);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    'rune-echoes: record: --pattern needs a value, but the next argument is the option --project (a value that starts with "-" is written --pattern=VALUE)\n',
  );
  assert.deepEqual(tp.snapshot(), before, 'nothing written');
  const short = await runCli(tp, ['search', '--role', '-h']);
  assert.match(short.stderr, /search: --role needs a value, but the next argument is the option -h/);
  // A value that only looks like an option is still a value.
  await cliOk(tp, ['record', '--role', 'team', '--agent', 'a', '--pattern', '--dry runs skip the upload', 'x']);
  await cliOk(tp, ['record', '--role', 'team', '--agent', 'a', '--pattern=--project', 'Cap retries at 3.']);
  const findings = tp.read('.claude/echoes/team/a-findings.md')!;
  assert.match(findings, /Pattern: --dry runs skip the upload/);
  assert.match(findings, /Pattern: --project/);
});

test('show --layer counts what it shows: no etched entries is not "4 entries"', async (t) => {
  const tp = makeTempProject(t);
  for (const text of ['Prefer small pull requests.', 'Run the linter before pushing.']) await cliOk(tp, ['remember', text]);
  const etched = await cliOk(tp, ['show', '--layer', 'etched']);
  assert.match(
    etched,
    /^## team {2}\(0 etched of 2 entries, \d+\/150 lines\)\n {2}\(no etched entries\)\n\n0 etched entries \(of 2\) in 1 role\n$/,
  );
  const inscribed = await cliOk(tp, ['show', '--layer', 'inscribed']);
  assert.match(inscribed, /^## team {2}\(2 inscribed of 2 entries,/);
  assert.match(inscribed, /\n2 inscribed entries \(of 2\) in 1 role\n$/);
  assert.match(await cliOk(tp, ['show']), /^## team {2}\(2 entries,[\s\S]*\n2 entries in 1 role\n$/);
});

test("the README names every category promote takes, where it lists promote's options", () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const row = readme.split('\n').find((l) => l.startsWith('| `promote` |'));
  assert.ok(row, 'the promote row of the command table');
  for (const c of SOLUTION_CATEGORIES) assert.ok(row.includes(`\`${c}\``), `${c} is listed`);
});

test('RUNE_ECHOES_DISABLE=1: no hook captures, hands on, injects or writes anything; a /rune:echoes command still reaches the CLI', (t) => {
  const tp = makeTempProject(t);
  const env = { HOME: join(tp.dir, 'home'), RUNE_ECHOES_DISABLE: '1' };
  tp.write('.claude/echoes/team/MEMORY.md', LOGGER);
  tp.write('.claude/echoes/EPHEMERAL.md', '# Last session\n## Asked\n- Ship the importer\n');
  const before = tp.snapshot();
  const transcript = join(tp.dir, 's.jsonl');
  new TranscriptBuilder(transcript, 's', tp.dir)
    .user('Fix the failing build')
    .bash('npm run build', 1, 'error TS2304: Cannot find name x')
    .tool('Edit', { file_path: join(tp.dir, 'src/a.ts'), old_string: 'x', new_string: 'y' })
    .bash('npm run build', 0, 'ok')
    .assistant('Fixed: the build passes.');
  const base = { session_id: 's', transcript_path: transcript, cwd: tp.dir };
  const runs: Array<[string, Record<string, unknown>]> = [
    ['session-start', { hook_event_name: 'SessionStart', source: 'startup' }],
    ['user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: 'Fix the failing build in the logger' }],
    ['subagent-start', { hook_event_name: 'SubagentStart', agent_type: 'team' }],
    ['stop', { hook_event_name: 'Stop', stop_hook_active: false }],
    ['subagent-stop', { hook_event_name: 'SubagentStop', stop_hook_active: false }],
    ['pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual' }],
    ['session-end', { hook_event_name: 'SessionEnd', reason: 'other' }],
  ];
  const snapshotOf = () => new Map([...tp.snapshot()].filter(([k]) => !k.startsWith('s.jsonl') && !k.startsWith('src')));
  for (const [hook, extra] of runs) {
    const r = runHookSync(hook, { ...base, ...extra }, { cwd: tp.dir, env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), '{"suppressOutput":true}', `${hook} gives nothing`);
  }
  assert.deepEqual(snapshotOf(), new Map([...before].filter(([k]) => !k.startsWith('src'))), 'nothing captured, handed on or written');
  // The user typed a /rune:echoes command: its arguments are kept for the CLI call.
  runHookSync('user-prompt-submit', { ...base, hook_event_name: 'UserPromptSubmit', prompt: '/rune:echoes status' }, { cwd: tp.dir, env });
  assert.equal(readdirSync(join(tp.dir, '.claude/echoes/.state/slash')).length, 1, 'the command’s arguments are kept');
});
