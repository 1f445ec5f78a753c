// End-to-end: search, Remembrance and the review agents through the real
// Claude Code CLI (offline, scripted fake model, this repository loaded with
// --plugin-dir):
//   R1. /rune:echoes search, remembrance and promote expand with the CLI's real output;
//       promote to security without human verification is refused and writes nothing;
//   R2. the memory-auditor subagent can only read: its tool list has no Write or Edit,
//       and its attempts to write (Write, a mutating shell command, rune-echoes forget)
//       are refused even when the session allows them all.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { makeEntry } from '../unit/entry-arbitrary.ts';
import { collectToolResults } from './fake-anthropic-server.ts';
import type { MessagesCall } from './messages-call.ts';
import { errorLogLines, type RuneRun, type ScenarioProject, scenarioSuite, walkFiles } from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

const testTimeout = 180_000;

const suite = scenarioSuite();
const rune = (project: ScenarioProject, args: string[]): Promise<RuneRun> => suite.rune(project, args);

const entry = (over: Partial<EchoEntry>): EchoEntry =>
  makeEntry({
    id: 'x',
    date: '2026-03-01',
    title: 'X',
    layer: 'inscribed',
    source: 'e2e',
    confidence: 0.8,
    evidence: '',
    verified: '2026-03-01',
    learning: 'Something.',
    ...over,
  });

/** A store with a reviewer and an auditor role, an archive log and one solution document. */
async function seededProject(name: string): Promise<ScenarioProject> {
  const project = await suite.project(name);
  const header = '<!-- echo-schema: v2 -->\n# Memory\n\n';
  await project.write({
    '.claude/echoes/reviewer/MEMORY.md': `${header}${[
      entry({
        id: 'retry-backoff-jitter',
        title: 'Payment retries use jittered backoff',
        evidence: '`src/payments/retry.ts:40-58` — capped at 3 attempts',
        learning: 'Payment retries are capped at 3 with full jitter backoff.',
      }),
      entry({ id: 'unused-imports', title: 'Unused imports in new files', learning: 'New files keep unused imports.' }),
    ]
      .map((e) => renderEntry(e))
      .join('\n')}`,
    '.claude/echoes/auditor/MEMORY.md': `${header}${renderEntry(
      entry({
        id: 'sql-built-from-strings',
        title: 'String-built SQL in the report builder',
        layer: 'etched',
        confidence: 0.95,
        tags: ['security', 'sql'],
        evidence: '`src/reports/sql.ts:31` — template string with user input',
        symptom: 'Report filters can inject SQL',
        rootCause: 'Filter values are concatenated into the query',
        solution: 'Use Prisma.sql tagged templates in src/reports/sql.ts',
        learning: 'Always parameterise report queries.',
      }),
    )}`,
    '.claude/echoes/memories/archive-log-001.md':
      '# Archive log 001\n- session: s1\n- trigger: session-end\n- span: 2026-03-02T10:00:00Z → 2026-03-02T11:00:00Z\n\n## Asked\n- Tune the retry backoff of the payment client\n',
    'docs/solutions/build-errors/prisma-client-missing.md':
      '---\ntitle: Cannot find module @prisma/client\ncategory: build-errors\ntags: [prisma]\ndate: 2026-03-01\nsymptom: The build fails on a fresh clone\nroot_cause: prisma generate never ran\nsolution_summary: Run prisma generate in postinstall\nconfidence: high\nverified_by: human\n---\n\nAdd "postinstall": "prisma generate".\n',
  });
  return project;
}

describe('R1. /rune:echoes search, remembrance and promote run the real CLI', () => {
  let project: ScenarioProject;
  let search: RuneRun;
  let remembrance: RuneRun;
  let promote: RuneRun;

  before(async () => {
    project = await seededProject('r1');
    suite.server.setRules(defaultRules());
    search = await rune(project, ['-p', '/rune:echoes search retry backoff']);
    remembrance = await rune(project, ['-p', '/rune:echoes remembrance']);
    promote = await rune(project, ['-p', '/rune:echoes promote auditor#sql-built --category security']);
  });

  test('search expands with ranked hits: path:line, id, score and the match marked', { timeout: testTimeout }, () => {
    const prompt = search.calls[0]!.promptText;
    assert.match(prompt, /<command-args>search retry backoff<\/command-args>/);
    assert.match(prompt, /^1\. Payment retries use jittered backoff {2}\[retry-backoff-jitter\]$/m, prompt.slice(0, 1500));
    assert.match(prompt, /^ {3}\.claude\/echoes\/reviewer\/MEMORY\.md:\d+ · entry · reviewer · inscribed · 2026-03-01 · score \d+\.\d\d$/m);
    assert.match(prompt, /\*\*retries\*\*.*\*\*backoff\*\*/);
    assert.match(prompt, /\.claude\/echoes\/memories\/archive-log-001\.md:\d+ · log/);
    assert.ok(existsSync(project.path('.claude/echoes/.state/search/manifest.json')), 'the index is on disk');
  });

  test('remembrance expands with the solution documents by category', { timeout: testTimeout }, () => {
    const prompt = remembrance.calls[0]!.promptText;
    assert.match(prompt, /<command-args>remembrance<\/command-args>/);
    assert.match(prompt, /^build-errors \(1\)$/m);
    assert.match(prompt, /Cannot find module @prisma\/client — docs\/solutions\/build-errors\/prisma-client-missing\.md/);
  });

  test('promote to security without --verified-by human is refused, names the rule, and the command tells the model to ask the user', {
    timeout: testTimeout,
  }, () => {
    const prompt = promote.calls[0]!.promptText;
    assert.match(prompt, /^rune-echoes: promote refused \(needs-human\): the security category needs --verified-by human/m);
    assert.match(prompt, /ask the user with AskUserQuestion whether they have personally checked this solution/);
    assert.match(prompt, /Never add it on your own judgement or an agent's/);
    assert.deepEqual(walkFiles(project.path('docs/solutions')), ['build-errors/prisma-client-missing.md'], 'nothing was written');
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('R2. the memory-auditor subagent can only read, even when the session allows every write', () => {
  let project: ScenarioProject;
  let run: RuneRun;
  const memoryBefore: Record<string, string | null> = {};

  /** The requests Claude Code made for the auditor: its system prompt is the agent's body. */
  const auditorCalls = (): MessagesCall[] =>
    run.calls.filter((c) => c.systemText.includes('You audit the project memory kept by Rune Echoes'));

  before(async () => {
    project = await seededProject('r2');
    memoryBefore.reviewer = project.read('.claude/echoes/reviewer/MEMORY.md');
    // The subagent's whole prompt is its script: one read, then four kinds of write.
    const steps = [
      'Audit the reviewer memory.',
      'RUN: rune-echoes show reviewer --json',
      `WRITE: ${project.path('.claude/echoes/reviewer/MEMORY.md')} :: overwritten`,
      `RUN: touch ${project.path('audit-was-here.txt')}`,
      'RUN: rune-echoes forget unused-imports',
      `RUN: git log --oneline > ${project.path('log.txt')}`,
    ].join('\n');
    suite.server.setRules(defaultRules());
    run = await rune(project, [
      '-p',
      `Check the memory.\nTOOL: Agent ${JSON.stringify({ description: 'audit memory', prompt: steps, subagent_type: 'rune:memory-auditor', run_in_background: false })}`,
      '--allowedTools',
      'Bash',
      'Write',
      'Edit',
      'Bash(rune-echoes:*)',
    ]);
  });

  test("the auditor's tool list, as Claude Code sends it, has no Write, Edit or other file-writing tool", { timeout: testTimeout }, () => {
    const calls = auditorCalls();
    assert.ok(calls.length >= 5, `the auditor ran its steps (${calls.length} requests)`);
    for (const c of calls) {
      assert.ok(c.toolNames.includes('Read'), c.toolNames.join(','));
      for (const tool of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'])
        assert.ok(!c.toolNames.includes(tool), `${tool} offered: ${c.toolNames.join(',')}`);
    }
  });

  test('it reads memory through the CLI, and every write it attempts is refused', { timeout: testTimeout }, () => {
    const results = collectToolResults(auditorCalls());
    const [show, write, touch, forget, redirect] = results;
    assert.equal(show?.isError, false, show?.text);
    assert.match(show!.text, /"id": "retry-backoff-jitter"/);
    assert.equal(write?.isError, true);
    assert.match(write!.text, /No such tool available: Write/);
    assert.equal(touch?.isError, true);
    assert.match(touch!.text, /Rune Echoes: "touch" is not on the read-only list/);
    assert.equal(forget?.isError, true);
    assert.match(forget!.text, /Rune Echoes: "rune-echoes forget" changes things; this agent only reads/);
    assert.equal(redirect?.isError, true);
    assert.match(redirect!.text, /redirection/);
  });

  test('nothing changed on disk', { timeout: testTimeout }, () => {
    assert.equal(project.read('.claude/echoes/reviewer/MEMORY.md'), memoryBefore.reviewer);
    for (const f of ['audit-was-here.txt', 'log.txt']) assert.ok(!existsSync(project.path(f)), `${f} was not created`);
    assert.ok(!existsSync(project.path('.claude/echoes/reviewer/archive/forgotten.md')), 'nothing was forgotten');
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});
