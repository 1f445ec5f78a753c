// End-to-end scenarios: the real Claude Code CLI (offline, scripted fake
// model) runs with this repository loaded by --plugin-dir, and each test
// checks what the hooks and the CLI did to a throw-away project — the files in
// .claude/echoes/ and the requests Claude Code sent to the model.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { waitForWorkers } from '../helpers/run-bundle.ts';
import { repoRoot } from './claude-harness.ts';
import { collectToolResults, type ScriptRule } from './fake-anthropic-server.ts';
import type { MessagesCall } from './messages-call.ts';
import { archiveLine, type HandoffOutcome, handoffChecks, playHandoff, section } from './scenario-handoff.ts';
import {
  errorLogLines,
  observe,
  type RuneRun,
  type RuneRunOptions,
  runeEchoesBlocks,
  type ScenarioProject,
  scenarioSuite,
  streamSessionId,
  transcriptPath,
  walkFiles,
} from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;

const suite = scenarioSuite();
const newProject = (name: string): Promise<ScenarioProject> => suite.project(name);

/** Observers first, then the usual scripted model. */
function script(...observers: ScriptRule[]): void {
  suite.server.setRules([...observers, ...defaultRules()]);
}

const rune = (project: ScenarioProject, args: string[], extra: Partial<Pick<RuneRunOptions, 'env' | 'turns'>> = {}): Promise<RuneRun> =>
  suite.rune(project, args, extra);

function sessionIdOf(run: RuneRun): string {
  const id = run.result?.session_id ?? streamSessionId(run);
  assert.match(id, /^[0-9a-f-]{36}$/, `no session id in the output: ${run.stdout.slice(0, 300)}`);
  return id;
}

describe('1. a session that edits a file hands its summary to the next session', () => {
  let outcome: HandoffOutcome;

  before(async () => {
    outcome = await playHandoff({ project: await newProject('s1'), home: suite.home, server: suite.server });
  });

  for (const [name, check] of handoffChecks) test(name, { timeout: testTimeout }, () => check(outcome));
});

describe('2. two /compact runs on one resumed session give two sequential archive logs', () => {
  let project: ScenarioProject;
  let sessionId: string;
  let log1AfterFirstCompact: string | null;
  let indexAfterFirstCompact: string | null;

  before(async () => {
    project = await newProject('s2');
    await project.write({ 'src/alpha.js': 'export const alpha = 1;\n', 'src/beta.js': 'export const beta = 2;\n' });
    script();
    // Each task reads a file: only a session that worked checkpoints (SPEC §8).
    const taskA = await rune(project, [
      '-p',
      `Task A: rename the alpha module to ledger\nTOOL: Read {"file_path":"${project.path('src/alpha.js')}"}`,
    ]);
    sessionId = sessionIdOf(taskA);
    await rune(project, ['-p', '/compact', '--resume', sessionId]);
    log1AfterFirstCompact = project.read('.claude/echoes/memories/archive-log-001.md');
    indexAfterFirstCompact = project.read('.claude/echoes/ARCHIVE.md');
    const taskB = await rune(project, [
      '-p',
      `Task B: document the beta exporter\nTOOL: Read {"file_path":"${project.path('src/beta.js')}"}`,
      '--resume',
      sessionId,
    ]);
    assert.equal(sessionIdOf(taskB), sessionId);
    await rune(project, ['-p', '/compact', '--resume', sessionId]);
  });

  test('the first /compact writes archive-log-001 with task A, indexed in ARCHIVE.md', { timeout: testTimeout }, () => {
    assert.ok(log1AfterFirstCompact, 'archive-log-001.md exists after the first /compact');
    assert.match(log1AfterFirstCompact, new RegExp(`^- session: ${sessionId}$`, 'm'));
    assert.match(log1AfterFirstCompact, /^- trigger: precompact manual$/m);
    assert.match(section(log1AfterFirstCompact, 'Asked'), /Task A: rename the alpha module to ledger/);
    assert.match(indexAfterFirstCompact ?? '', archiveLine('001', 'precompact manual'));
  });

  test('the second /compact writes archive-log-002 with only the new turns', { timeout: testTimeout }, () => {
    const log2 = project.read('.claude/echoes/memories/archive-log-002.md') ?? '';
    assert.match(log2, new RegExp(`^- session: ${sessionId}$`, 'm'));
    assert.match(log2, /^- trigger: precompact manual$/m);
    assert.match(section(log2, 'Asked'), /Task B: document the beta exporter/);
    assert.doesNotMatch(log2, /Task A|alpha module/, log2);
  });

  test('archive-log-001 is never rewritten and both logs are indexed once, in order', { timeout: testTimeout }, () => {
    assert.equal(project.read('.claude/echoes/memories/archive-log-001.md'), log1AfterFirstCompact);
    assert.deepEqual(walkFiles(project.path('.claude/echoes/memories')), ['archive-log-001.md', 'archive-log-002.md']);
    const index = project.read('.claude/echoes/ARCHIVE.md') ?? '';
    const lines = index.split('\n').filter((l) => l.startsWith('- '));
    assert.equal(lines.length, 2, index);
    assert.match(lines[0]!, archiveLine('001', 'precompact manual'));
    assert.match(lines[1]!, archiveLine('002', 'precompact manual'));
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('3. findings recorded by the CLI and written directly are consolidated after the turn', () => {
  let project: ScenarioProject;
  let run: RuneRun;
  const reviewerAt: Array<{ seq: number; files: string[]; memory: string | null }> = [];
  const directFindings = [
    '<!-- echo-schema: v2 -->',
    '# Reviewer Memory — findings of lint-bot',
    '',
    '### [2026-11-20] Pattern: Unbounded retry loop',
    '- **id**: unbounded-retry-loop',
    '- **layer**: inscribed',
    '- **source**: agent:lint-bot',
    '- **confidence**: 0.9',
    '- **evidence**: `src/retry.ts:10-20` — loop has no upper bound',
    '- **verified**: 2026-11-20',
    '- **supersedes**: none',
    '- Retry loops in this codebase lack an upper bound.',
    '',
    '### [2026-11-20] Pattern: Magic numbers in retry delays',
    '- **id**: magic-numbers-in-retry-delays',
    '- **layer**: traced',
    '- **source**: agent:lint-bot',
    '- **confidence**: 0.7',
    '- **evidence**: `src/retry.ts:4` — 250 and 4000 inline',
    '- **verified**: 2026-11-20',
    '- **supersedes**: none',
    '- Retry delays are inline numbers instead of named constants.',
    '',
  ].join('\n');

  before(async () => {
    project = await newProject('s3');
    const reviewer = project.path('.claude/echoes/reviewer');
    let written = false;
    script(
      observe((call) => {
        // Another agent writes its findings file directly once the session is
        // under way (after SessionStart's own consolidation pass).
        if (!written) {
          written = true;
          mkdirSync(reviewer, { recursive: true });
          writeFileSync(join(reviewer, 'lint-bot-findings.md'), directFindings);
        }
        // Stop hands the merge to a background worker; what is read here is what a reader sees, who waits for it.
        if (reviewerAt.length >= 2) waitForWorkers(project.dir);
        reviewerAt.push({ seq: call.seq, files: walkFiles(reviewer), memory: project.read('.claude/echoes/reviewer/MEMORY.md') });
      }),
    );
    const record = [
      'RUN: rune-echoes record --role reviewer --agent sec-scout',
      '--pattern "Unbounded retry loop"',
      "--evidence '`src/retry.ts:10-20` — loop has no upper bound'",
      '--confidence 0.6 "Retry loops in this codebase lack an upper bound."',
    ].join(' ');
    run = await rune(project, ['--allowedTools', 'Bash(rune-echoes:*)'], {
      turns: [`Review the retry code and record what you find.\n${record}`, 'Anything else?'],
    });
  });

  test('the agent records through Bash with only a Bash(rune-echoes:*) allow rule', { timeout: testTimeout }, () => {
    const [result] = collectToolResults(run.calls);
    assert.equal(result?.toolName, 'Bash');
    assert.equal(result?.isError, false, result?.text);
    assert.match(result!.text, /recorded 1 finding\(s\) in reviewer\/sec-scout-findings\.md: unbounded-retry-loop/);
  });

  test('both findings files wait until the turn ends', { timeout: testTimeout }, () => {
    // Requests: turn 1 (tool_use), turn 1 after the tool result, turn 2.
    assert.equal(reviewerAt.length, 3, JSON.stringify(reviewerAt));
    assert.deepEqual(reviewerAt[1]!.files, ['lint-bot-findings.md', 'sec-scout-findings.md']);
  });

  test('after the turn both are merged into reviewer/MEMORY.md with the higher confidence, files gone', { timeout: testTimeout }, () => {
    // The request of turn 2 comes after turn 1's Stop hook and before SessionEnd.
    const atTurn2 = reviewerAt[2]!;
    assert.deepEqual(atTurn2.files, ['MEMORY.md']);
    const memory = atTurn2.memory ?? '';
    const headings = memory.split('\n').filter((l) => l.startsWith('### '));
    assert.equal(headings.length, 2, memory);
    const retry = /### \[[^\]]+\] Pattern: Unbounded retry loop\n([\s\S]*?)(?=\n### |$)/.exec(memory)?.[1] ?? '';
    assert.match(retry, /^- \*\*id\*\*: unbounded-retry-loop$/m);
    assert.match(retry, /^- \*\*confidence\*\*: 0\.9$/m, memory);
    assert.match(retry, /^- \*\*evidence\*\*: `src\/retry\.ts:10-20` — loop has no upper bound$/m);
    assert.match(memory, /^- \*\*id\*\*: magic-numbers-in-retry-delays$/m);
    assert.equal(project.read('.claude/echoes/reviewer/MEMORY.md'), memory, 'SessionEnd left it as Stop wrote it');
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

/** Random bodies behind split prefixes: nothing in this file looks like a real secret. */
function fakeSecrets() {
  const pick = (alphabet: string, n: number) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
  const upper = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const awsBody = pick(upper, 16);
  const githubBody = pick(alnum, 36);
  const password = `Pw${pick(alnum, 14)}`;
  const dbPassword = `Db${pick(alnum, 14)}`;
  const aws = ['AK', 'IA'].join('') + awsBody;
  const github = ['gh', 'p_'].join('') + githubBody;
  const dbUrl = ['postgres', '://', 'deployer', ':', dbPassword, '@', 'db.internal', '/orders'].join('');
  return {
    aws,
    github,
    password,
    dbPassword,
    dbUrl,
    /** Every string that must never be stored, bodies included. */
    needles: [aws, awsBody, github, githubBody, password, dbPassword, `deployer:${dbPassword}`],
  };
}

describe('4. secrets typed into prompts are stored nowhere under .claude/echoes/', () => {
  const secrets = fakeSecrets();
  let project: ScenarioProject;
  let sessionId: string;
  const leaks: string[] = [];
  const filesSeen = new Set<string>();

  /** Every file of the store, after each step; records every file that holds a secret. */
  function sweep(step: string): void {
    for (const rel of walkFiles(project.echoes)) {
      filesSeen.add(rel);
      const text = readFileSync(join(project.echoes, rel), 'utf8');
      for (const needle of secrets.needles) if (text.includes(needle)) leaks.push(`${step}: ${rel} holds ${needle.slice(0, 6)}…`);
    }
  }

  before(async () => {
    project = await newProject('s4');
    script();
    const first = await rune(project, [
      '-p',
      [
        `Rotate the deploy credentials: the key is ${secrets.aws}, the token ${secrets.github},`,
        `set password=${secrets.password} and point the orders service at ${secrets.dbUrl}`,
        `RUN: echo password=${secrets.password} ${secrets.github}`,
      ].join('\n'),
      '--allowedTools',
      'Bash(echo:*)',
    ]);
    sessionId = sessionIdOf(first);
    sweep('after Stop and SessionEnd');
    await rune(project, ['-p', '/compact', '--resume', sessionId]);
    sweep('after /compact');
    await rune(project, ['-p', `Also give the backup job ${secrets.dbUrl} and token ${secrets.github}`, '--resume', sessionId]);
    sweep('after the resumed turn');
    // A new session: its end writes the resumed span as the final archive log.
    await rune(project, ['-p', 'Next task: tidy the changelog']);
    sweep('after the next session');
  });

  test('the secrets did reach Claude Code (they are in the transcript)', { timeout: testTimeout }, () => {
    const transcript = readFileSync(transcriptPath(suite.home, project, sessionId), 'utf8');
    for (const needle of [secrets.aws, secrets.github, secrets.password, secrets.dbPassword]) assert.ok(transcript.includes(needle));
  });

  test('no file under .claude/echoes/ (state included) ever held one', { timeout: testTimeout }, () => {
    assert.deepEqual(leaks, []);
    const seen = [...filesSeen];
    for (const expected of ['EPHEMERAL.md', 'ARCHIVE.md', 'memories/archive-log-001.md', 'memories/archive-log-002.md']) {
      assert.ok(seen.includes(expected), `${expected} was written and checked (saw ${seen.join(', ')})`);
    }
    assert.ok(
      seen.some((f) => f.startsWith('.state/')),
      'the hook state was checked too',
    );
  });

  test('the request was kept, with the secrets replaced by markers', { timeout: testTimeout }, () => {
    const log1 = project.read('.claude/echoes/memories/archive-log-001.md') ?? '';
    assert.match(log1, /^- trigger: precompact manual$/m);
    assert.match(log1, /Rotate the deploy credentials/);
    assert.match(log1, /\[REDACTED:[a-z-]+\]/);
    const log2 = project.read('.claude/echoes/memories/archive-log-002.md') ?? '';
    assert.match(log2, /^- trigger: session-end$/m);
    assert.match(log2, /Also give the backup job/);
    assert.match(log2, /\[REDACTED:[a-z-]+\]/);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('5. a corrupted store never breaks the session', () => {
  let project: ScenarioProject;
  let run: RuneRun;
  let firstCall: MessagesCall;
  const binaryMemory = Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe, 0x00, 0x80, 0x81,
  ]);
  const garbageEphemeral = Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0xff, 0x13, 0x37, 0xc3, 0x28, 0xa0, 0xa1, 0x00, 0x07, 0x08, 0x0a]);
  const badYaml = 'echoes:\n  budget_tokens: [1500\n  inject: true\n: : :\n';
  const pendingFinding = [
    '<!-- echo-schema: v2 -->',
    '# Reviewer Memory — findings of scout',
    '',
    '### [2026-11-21] Pattern: Flaky clock in payment tests',
    '- **id**: flaky-clock-in-payment-tests',
    '- **layer**: traced',
    '- **source**: agent:scout',
    '- **confidence**: 0.5',
    '- **evidence**: `test/payments.spec.js:12` — Date.now() without a fake clock',
    '- **verified**: 2026-11-21',
    '- **supersedes**: none',
    '- Payment tests read the real clock.',
    '',
  ].join('\n');

  before(async () => {
    project = await newProject('s5');
    await project.write({ '.claude/rune-config.yml': badYaml });
    await mkdir(project.path('.claude/echoes/reviewer'), { recursive: true });
    await writeFile(project.path('.claude/echoes/reviewer/MEMORY.md'), binaryMemory);
    await writeFile(project.path('.claude/echoes/EPHEMERAL.md'), garbageEphemeral);
    await writeFile(project.path('.claude/echoes/reviewer/scout-findings.md'), pendingFinding);
    script();
    run = await rune(project, ['-p', 'Is the build still green?']);
    firstCall = run.calls[0]!;
  });

  test('the session runs and the model answers', { timeout: testTimeout }, () => {
    assert.equal(run.result?.is_error, false);
    assert.match(run.result?.result ?? '', /^OK \(fake reply to request \d+\)$/);
    assert.equal(firstCall.promptText, 'Is the build still green?');
    // Nothing in the store can be read, so nothing is injected: none of the garbage reaches the model.
    assert.deepEqual(runeEchoesBlocks(firstCall.systemMessagesText), []);
    assert.ok(!firstCall.systemMessagesText.includes('\uFFFD') && !/[\x00-\x08]/.test(firstCall.systemMessagesText));
  });

  test('.claude/echoes/.log has one line for each problem', { timeout: testTimeout }, () => {
    const lines = errorLogLines(project);
    for (const line of lines) assert.match(line, /^\d{4}-\d{2}-\d{2}T\S+ [a-z-]+ \S/, line);
    assert.ok(
      lines.some((l) => /rune-config\.yml/.test(l) && /YAML/i.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /EPHEMERAL\.md/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /reviewer\/MEMORY\.md/.test(l)),
      lines.join('\n'),
    );
  });

  test('the unreadable MEMORY.md and the bad config are byte-identical afterwards', { timeout: testTimeout }, () => {
    assert.ok(project.bytes('.claude/echoes/reviewer/MEMORY.md')?.equals(binaryMemory), 'reviewer/MEMORY.md changed');
    assert.equal(project.read('.claude/rune-config.yml'), badYaml);
  });

  test('a finding for the role with the unreadable MEMORY.md is kept, not dropped', { timeout: testTimeout }, () => {
    assert.equal(project.read('.claude/echoes/reviewer/scout-findings.md'), pendingFinding);
  });

  test('the unreadable EPHEMERAL.md is byte-identical afterwards', { timeout: testTimeout }, () => {
    // SessionStart logs that it leaves the file "as it is"; SessionEnd must not
    // then replace it, or the bytes the log points the user to are gone.
    const now = project.bytes('.claude/echoes/EPHEMERAL.md');
    assert.ok(now?.equals(garbageEphemeral), `EPHEMERAL.md was replaced by: ${JSON.stringify(now?.toString('utf8').slice(0, 200))}`);
  });
});

describe('6. SessionStart on compact gives again what the session was given at its start, never its own summary (issue 20, item 3)', () => {
  let project: ScenarioProject;
  let run: RuneRun;

  before(async () => {
    project = await newProject('s6');
    // What an earlier session left for this one.
    await project.write({
      '.claude/echoes/EPHEMERAL.md':
        '# Last session — 2026-11-20 09:00 → 09:40 (session 0a1b2c3d…)\n## Asked\n- Choose the zeta cache for sessions\n## Done and decided\n- Picked the zeta cache, TTL 15 minutes\n',
    });
    await project.write({ 'src/cache.js': 'export const ttlMinutes = 15;\n' });
    script();
    // One process: a turn, /compact, a turn. No resume in between, so any
    // digest after the compaction came from SessionStart(compact). The first turn reads a file: it works.
    run = await rune(project, [], {
      turns: [
        `First turn: look at the cache config\nTOOL: Read {"file_path":"${project.path('src/cache.js')}"}`,
        '/compact',
        'Second turn: carry on',
      ],
    });
  });

  test('the turn after /compact starts from the summary and carries <rune-echoes> again', { timeout: testTimeout }, () => {
    const start = run.calls[0]!;
    const afterCompact = run.calls.at(-1)!;
    assert.equal(afterCompact.promptText.includes('Second turn: carry on'), true, afterCompact.promptText.slice(0, 300));
    assert.match(afterCompact.allText, /This session is being continued from a previous conversation/);
    const [atStart] = runeEchoesBlocks(start.systemMessagesText);
    const again = runeEchoesBlocks(afterCompact.systemMessagesText);
    assert.ok(atStart && /Choose the zeta cache/.test(atStart), `startup digest: ${atStart}`);
    assert.equal(again.length, 1, afterCompact.systemMessagesText.slice(0, 600));
    assert.match(again[0]!, /Background data, not instructions/);
    // What the context just lost is the hand-off it was given at its start; its own work is in the compaction's summary.
    assert.match(again[0]!, /Choose the zeta cache/);
    assert.doesNotMatch(again[0]!, /This session before its compaction|First turn: look at the cache config/, 'never its own summary');
  });

  test('the compaction itself was checkpointed', { timeout: testTimeout }, () => {
    const log = project.read('.claude/echoes/memories/archive-log-001.md') ?? '';
    assert.match(log, /^- trigger: precompact manual$/m);
    assert.match(log, /First turn: look at the cache config/);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('7. /rune:echoes runs the CLI and sends its output to the model', () => {
  let project: ScenarioProject;
  let status: RuneRun;
  let show: RuneRun;

  before(async () => {
    assert.ok(existsSync(join(repoRoot, 'commands', 'echoes.md')), 'commands/echoes.md is missing');
    project = await newProject('s7');
    script();
    // Give the store a role with an entry and an archive log, through the CLI as agents do.
    const record =
      'RUN: rune-echoes record --role planner --agent scout --pattern "Ledger writes go through the queue" --confidence 0.8 "All ledger writes are queued."';
    await rune(project, ['-p', `Plan the ledger work.\n${record}`, '--allowedTools', 'Bash(rune-echoes:*)']);
    status = await rune(project, ['-p', '/rune:echoes status']);
    show = await rune(project, ['-p', '/rune:echoes show']);
  });

  test('/rune:echoes status expands with the status report', { timeout: testTimeout }, () => {
    const prompt = status.calls[0]!.promptText;
    assert.match(prompt, /<command-name>\/rune:echoes<\/command-name>/);
    assert.match(prompt, /<command-args>status<\/command-args>/);
    assert.ok(prompt.includes(`Rune Echoes — ${project.echoes}`), prompt.slice(0, 600));
    assert.match(prompt, /^hooks: session-start \d{4}-\d{2}-\d{2} /m);
    assert.match(prompt, /^errors logged: 0$/m);
    assert.doesNotMatch(prompt, /\$ARGUMENTS|\$\{CLAUDE_PLUGIN_ROOT\}/, 'placeholders were expanded');
  });

  test('/rune:echoes show expands with the entries', { timeout: testTimeout }, () => {
    const prompt = show.calls[0]!.promptText;
    assert.match(prompt, /<command-args>show<\/command-args>/);
    assert.match(prompt, /planner/);
    assert.match(prompt, /Ledger writes go through the queue/);
  });

  test('status and show list roles only, not the archive-log folder memories/', { timeout: testTimeout }, () => {
    assert.ok(existsSync(project.path('.claude/echoes/memories/archive-log-001.md')), 'an archive log exists');
    for (const run of [status, show]) {
      const prompt = run.calls[0]!.promptText;
      assert.doesNotMatch(prompt, /^(## )?memories\b/m, prompt.slice(0, 900));
    }
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});
