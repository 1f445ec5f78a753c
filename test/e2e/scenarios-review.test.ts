// End-to-end: search, Remembrance and the review agents through the real
// Claude Code CLI (offline, scripted fake model, this repository loaded with
// --plugin-dir):
//   R1. /rune:echoes search, remembrance and promote expand with the CLI's real output;
//       promote to security without human verification is refused and writes nothing;
//   R2. each review agent (memory-auditor, signal-discoverer, echo-reader) can only read:
//       Claude Code offers it Read, Grep and Glob and nothing else, so Write, Edit and every
//       shell command it is told to run (the attacks that got past the old command parser
//       included) are refused as tools it does not have, even in bypassPermissions, and
//       nothing is written; it still reports from what the main session gathered for it;
//   R3. the flows that start them: `/rune:echoes evidence` and the extract-learnings skill
//       gather with the CLI under the user's permissions, start the agents with what they
//       gathered, and the agents report from it.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { gitIn } from '../helpers/git-clones.ts';
import { makeEntry } from '../unit/entry-arbitrary.ts';
import { collectToolResults, type Reply, type ReplyBlock, type ScriptRule } from './fake-anthropic-server.ts';
import type { ContentBlock, MessagesCall } from './messages-call.ts';
import { errorLogLines, type RuneRun, type ScenarioProject, scenarioSuite, walkFiles } from './scenario-kit.ts';
import { compactionSummary, defaultRules, scriptedSteps, sideRequests } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;

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

/** Agents' own requests: their system prompt is the agent's body. */
const AGENT_BODIES: Record<string, string> = {
  'memory-auditor': 'You audit the project memory kept by Rune Echoes',
  'signal-discoverer': 'You read what happened in past sessions and propose',
  'echo-reader': 'You find what project memory already knows about the task',
};
const agentCalls = (run: RuneRun, agent: string): MessagesCall[] => run.calls.filter((c) => c.systemText.includes(AGENT_BODIES[agent]!));
const mainCalls = (run: RuneRun): MessagesCall[] =>
  run.calls.filter((c) => !Object.values(AGENT_BODIES).some((body) => c.systemText.includes(body)));

/** What the gathering printed: the brief's path, or the search hits, as a real model would copy them into the prompt. */
const briefPath = (text: string): string | undefined => /^brief for the memory-auditor: (\/\S+\.md)$/m.exec(text)?.[1];

/** The tools no review agent may have: every one of them can write. */
const WRITING_TOOLS = ['Bash', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit'];

/**
 * The attacks, one shell command each: the ones that got past the old PreToolUse parser (a quoted
 * apostrophe hiding a redirection, sort's output option, uniq's output file, git grep's pager, git's
 * external diff, NODE_OPTIONS on the CLI, a program under a read-only name, file's magic compiler,
 * and 100 KB of `\"` that made its regular expressions run past its timeout), and a plain redirection.
 */
const ATTACKS = [
  `echo "it's" > W1 'x'`,
  'sort -oW2 notes.txt',
  'sort --outp=W3 notes.txt',
  'uniq notes.txt W4',
  "git grep -O'touch W5;:' line",
  'GIT_EXTERNAL_DIFF=touch git diff',
  `NODE_OPTIONS="--import=data:text/javascript,import{writeFileSync}from'node:fs';writeFileSync('W6','x')" rune-echoes show`,
  './tools/cat W7',
  'file -C -m magic',
  'echo x > f',
  `echo ${'\\"'.repeat(50_000)} > W8`,
];
const ATTACK_FILES = ['W', 'W1', 'W2', 'W3', 'W4', 'W5', 'W6', 'W7', 'W8', 'f', 'magic.mgc', 'written-by-agent.txt'];

/** The agent's script: every kind of write, then one read of what it was handed, which its report quotes. */
function attackSteps(project: ScenarioProject, read: string): string[] {
  return [
    `WRITE: ${project.path('written-by-agent.txt')} :: x`,
    `EDIT: ${project.path('notes.txt')} :: line one => LINE ONE`,
    `TOOL: MultiEdit ${JSON.stringify({ file_path: project.path('notes.txt'), edits: [{ old_string: 'line', new_string: 'LINE' }] })}`,
    `TOOL: NotebookEdit ${JSON.stringify({ notebook_path: project.path('n.ipynb'), new_source: 'x' })}`,
    ...ATTACKS.map((c) => `RUN: ${c}`),
    `TOOL: Read ${JSON.stringify({ file_path: read })}`,
  ];
}

/**
 * The main session's model: once the gathering command (its one scripted step) has answered, it
 * starts the agent with what that printed, as the skill and the command tell it to; after the agent
 * returns, it ends quoting the agent's report.
 */
function handOver(marker: string, agent: string, prompt: (gathered: string) => string): ScriptRule {
  return (call) => {
    if (!call.promptText.includes(marker)) return undefined;
    const done = call.toolUsesThisTurn.length;
    const last = call.toolResults.at(-1)?.text ?? '';
    if (done === 1)
      return {
        content: [
          {
            type: 'tool_use',
            name: 'Agent',
            input: { description: `run ${agent}`, prompt: prompt(last), subagent_type: `rune:${agent}`, run_in_background: false },
          },
        ],
      } satisfies Reply;
    if (done === 2) return `The ${agent} reported: ${last}`;
    return undefined;
  };
}

/** A store as R1's, a notes file to attack, and a git history for the auditor's brief. */
async function reviewProject(name: string): Promise<ScenarioProject> {
  const project = await seededProject(name);
  await project.write({ 'notes.txt': 'line one\nline two\n', 'src/payments/retry.ts': 'export const cap = 3;\n' });
  gitIn(project.dir, ['init', '-q']);
  gitIn(project.dir, ['add', 'notes.txt', 'src']);
  gitIn(project.dir, ['commit', '-qm', 'Add the retry cap'], '2026-02-01T10:00:00Z');
  await project.write({ 'src/payments/retry.ts': 'export const cap = 5;\n' });
  gitIn(project.dir, ['commit', '-qam', 'Raise the retry cap to 5'], '2026-04-02T10:00:00Z');
  return project;
}

const GATHER: Record<string, { command: string; read: (gathered: string, project: ScenarioProject) => string }> = {
  // The auditor is handed the brief `evidence` wrote; the others the hits `search` printed.
  'memory-auditor': { command: 'rune-echoes evidence reviewer', read: (g) => briefPath(g) ?? '(no brief)' },
  'signal-discoverer': {
    command: 'rune-echoes search retry backoff --kind log --since 3650d',
    read: (_g, p) => p.path('.claude/echoes/memories/archive-log-001.md'),
  },
  'echo-reader': { command: 'rune-echoes search retry backoff', read: (_g, p) => p.path('.claude/echoes/reviewer/MEMORY.md') },
};

for (const agent of ['memory-auditor', 'signal-discoverer', 'echo-reader']) {
  describe(`R2. ${agent} can only read, even in bypassPermissions`, () => {
    let project: ScenarioProject;
    let run: RuneRun;
    const original: Record<string, string | null> = {};

    before(async () => {
      project = await reviewProject(`r2-${agent}`);
      for (const f of ['notes.txt', '.claude/echoes/reviewer/MEMORY.md']) original[f] = project.read(f);
      const marker = `HANDOVER ${agent}`;
      const gather = GATHER[agent]!;
      suite.server.setRules([
        compactionSummary,
        sideRequests,
        handOver(marker, agent, (gathered) =>
          [
            `Review the reviewer memory. What the main session gathered for you:`,
            gathered,
            ...attackSteps(project, gather.read(gathered, project)),
          ].join('\n'),
        ),
        scriptedSteps,
      ]);
      run = await suite.rune(project, ['-p', `${marker}\nRUN: ${gather.command}`, '--permission-mode', 'bypassPermissions'], {
        env: { IS_SANDBOX: '1' },
      });
    });

    test('Claude Code offers it Read, Grep and Glob, and no tool that writes', { timeout: testTimeout }, () => {
      const calls = agentCalls(run, agent);
      assert.ok(calls.length >= attackSteps(project, '').length, `the agent ran its steps (${calls.length} requests)`);
      for (const c of calls) {
        assert.deepEqual([...c.toolNames].sort(), ['Glob', 'Grep', 'Read']);
        for (const tool of WRITING_TOOLS) assert.ok(!c.toolNames.includes(tool), `${tool} offered: ${c.toolNames.join(',')}`);
      }
    });

    test('every write and every shell command it attempts is refused by Claude Code', { timeout: testTimeout }, () => {
      const results = collectToolResults(agentCalls(run, agent));
      const attempts = results.slice(0, -1);
      assert.equal(attempts.length, 4 + ATTACKS.length);
      for (const r of attempts) {
        assert.equal(r.isError, true, `${r.toolName}: ${r.text.slice(0, 200)}`);
        assert.match(r.text, /No such tool available: (Write|Edit|MultiEdit|NotebookEdit|Bash)/);
      }
    });

    test('nothing was written', { timeout: testTimeout }, () => {
      for (const f of ATTACK_FILES) assert.ok(!existsSync(project.path(f)), `${f} was created`);
      for (const [f, text] of Object.entries(original)) assert.equal(project.read(f), text, `${f} changed`);
      assert.deepEqual(
        // .gitignore is SessionStart's (the plugin's one line for its state), in the main session.
        walkFiles(project.dir).filter((f) => !f.startsWith('.claude/') && !f.startsWith('.git/') && f !== '.gitignore'),
        ['docs/solutions/build-errors/prisma-client-missing.md', 'notes.txt', 'src/payments/retry.ts'],
      );
    });

    test('it reports from what it was handed', { timeout: testTimeout }, () => {
      const read = collectToolResults(agentCalls(run, agent)).at(-1);
      assert.equal(read?.isError, false, read?.text);
      const report = mainCalls(run).at(-1)?.toolResults.at(-1)?.text ?? '';
      if (agent === 'memory-auditor') {
        assert.match(report, /reviewer#retry-backoff-jitter — Payment retries use jittered backoff/);
        assert.match(report, /stale since 2026-03-01/);
        assert.match(report, /`src\/payments\/retry\.ts`: present; added 2026-02-01; commits since 2026-03-01:/);
        assert.match(report, /2026-04-02 Raise the retry cap to 5/);
      } else if (agent === 'signal-discoverer') assert.match(report, /Tune the retry backoff of the payment client/);
      else assert.match(report, /Payment retries are capped at 3 with full jitter backoff/);
      // What it was handed is in its prompt, as the main session gathered it.
      const prompt = agentCalls(run, agent)[0]!.promptText;
      assert.match(
        prompt,
        agent === 'memory-auditor' ? /brief for the memory-auditor: \// : /\[retry-backoff-jitter\]|archive-log-001\.md/,
      );
    });

    test('no hook logged an error', { timeout: testTimeout }, () => {
      assert.deepEqual(errorLogLines(project), []);
    });
  });
}

/** Every tool result the main session's model has seen so far this turn, in order. */
function resultsSoFar(call: MessagesCall): string[] {
  return call.messages
    .filter((m) => m.role === 'user' && Array.isArray(m.content))
    .flatMap((m) => (m.content as ContentBlock[]).filter((b) => b.type === 'tool_result'))
    .map((b) => (typeof b.content === 'string' ? b.content : (b.content as ContentBlock[]).map((x) => x.text ?? '').join('\n')));
}

const agentUse = (agent: string, prompt: string): ReplyBlock => ({
  type: 'tool_use',
  name: 'Agent',
  input: { description: `run ${agent}`, prompt, subagent_type: `rune:${agent}`, run_in_background: false },
});

describe('R3. /rune:echoes evidence and extract-learnings gather for the review agents, start them, and get their reports', () => {
  let project: ScenarioProject;
  let command: RuneRun;
  let skill: RuneRun;

  before(async () => {
    project = await reviewProject('r3');
    suite.server.setRules([
      compactionSummary,
      sideRequests,
      // /rune:echoes evidence: the command's expansion holds the CLI's output; the model offers the auditor and starts it.
      (call) => {
        if (!call.promptText.includes('<command-args>evidence')) return undefined;
        const done = call.toolUsesThisTurn.length;
        const path = briefPath(call.promptText);
        if (done === 0 && path)
          return {
            content: [
              agentUse(
                'memory-auditor',
                `Audit the reviewer memory. Your brief: ${path}\nTOOL: Read ${JSON.stringify({ file_path: path })}`,
              ),
            ],
          };
        return done === 1 ? `The memory-auditor reported: ${call.toolResults.at(-1)?.text ?? ''}` : undefined;
      },
      // extract-learnings: take stock, gather, then both agents in one message, as the skill says.
      (call) => {
        if (!call.promptText.includes('# Extract learnings')) return undefined;
        const done = call.toolUsesThisTurn.length;
        const bash = (command: string): Reply => ({
          content: [{ type: 'tool_use', name: 'Bash', input: { command, description: command } }],
        });
        if (done === 0) return bash('rune-echoes status');
        if (done === 1) return bash('rune-echoes evidence reviewer');
        if (done === 2) return bash('rune-echoes search retry backoff --kind log --since 3650d');
        const [, evidence = '', hits = ''] = resultsSoFar(call);
        const path = briefPath(evidence) ?? '(no brief)';
        const log = project.path('.claude/echoes/memories/archive-log-001.md');
        if (done === 3)
          return {
            content: [
              agentUse(
                'memory-auditor',
                `Audit the reviewer memory against the code and git history. Your brief: ${path}\nTOOL: Read ${JSON.stringify({ file_path: path })}`,
              ),
              agentUse(
                'signal-discoverer',
                `Mine the last 5 archive logs. Search hits:\n${hits}\nTOOL: Read ${JSON.stringify({ file_path: log })}`,
              ),
            ],
          };
        return `Both agents reported:\n${call.toolResults.map((r) => r.text).join('\n---\n')}`;
      },
      scriptedSteps,
    ]);
    command = await suite.rune(project, ['-p', '/rune:echoes evidence reviewer']);
    skill = await suite.rune(project, ['-p', '/rune:extract-learnings reviewer']);
  });

  test('/rune:echoes evidence expands with the brief the CLI wrote, and the auditor reports from it', { timeout: testTimeout }, () => {
    const prompt = command.calls[0]!.promptText;
    const path = briefPath(prompt);
    assert.ok(path && existsSync(path), prompt.slice(0, 1500));
    assert.match(prompt, /^1 entry \(1 stale|^2 entries \(1 stale/m);
    const read = collectToolResults(agentCalls(command, 'memory-auditor')).at(-1);
    assert.equal(read?.isError, false, read?.text);
    const last = mainCalls(command).at(-1)!;
    assert.match(last.toolResults.at(-1)?.text ?? '', /reviewer#retry-backoff-jitter[\s\S]*2026-04-02 Raise the retry cap to 5/);
  });

  test("extract-learnings runs the CLI under the skill's own permissions, then both agents at once, each reporting from what it was handed", {
    timeout: testTimeout,
  }, () => {
    const main = mainCalls(skill);
    const results = resultsSoFar(main.at(-1)!);
    assert.match(results[0] ?? '', /reviewer/, 'status ran');
    assert.ok(briefPath(results[1] ?? ''), `evidence ran: ${results[1]}`);
    assert.match(results[2] ?? '', /archive-log-001\.md/, 'search ran');
    const reports = main.at(-1)!.toolResults;
    assert.equal(reports.length, 2, 'two agents in one message');
    assert.match(reports.map((r) => r.text).join('\n'), /Raise the retry cap to 5/);
    assert.match(reports.map((r) => r.text).join('\n'), /Tune the retry backoff of the payment client/);
    for (const agent of ['memory-auditor', 'signal-discoverer']) {
      const calls = agentCalls(skill, agent);
      assert.ok(calls.length >= 2, `${agent} ran`);
      for (const c of calls) assert.deepEqual([...c.toolNames].sort(), ['Glob', 'Grep', 'Read']);
    }
  });

  test('nothing but the CLI wrote: memory is unchanged and no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
    assert.match(project.read('.claude/echoes/reviewer/MEMORY.md') ?? '', /retry-backoff-jitter/);
  });
});
