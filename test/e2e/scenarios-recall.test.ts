// End-to-end: issue 11 through the real Claude Code CLI (offline, scripted
// fake model, this repository loaded with --plugin-dir):
//   P1. UserPromptSubmit recall: a prompt that matches an entry gets it in its
//       request, inside the inert wrapper; an unrelated prompt gets nothing;
//   P2. SubagentStart: a subagent whose type the config maps to a role starts
//       with that role's entries in its first request, and only it;
//   P3. a session of only `/rune:echoes status` between two working sessions
//       leaves the hand-off as the first one wrote it.
//
// The hooks run from dist/: rebuild (npm run build) after changing src/.

import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { makeEntry } from '../unit/entry-arbitrary.ts';
import { readJsonLines } from './claude-harness.ts';
import type { MessagesCall } from './messages-call.ts';
import { section } from './scenario-handoff.ts';
import { errorLogLines, type RuneRun, runeEchoesBlocks, type ScenarioProject, scenarioSuite } from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;

const suite = scenarioSuite();

/** Runs claude with the plugin on the usual scripted model. */
function rune(project: ScenarioProject, args: string[]): Promise<RuneRun> {
  suite.server.setRules(defaultRules());
  return suite.rune(project, args);
}

const entry = (over: Partial<EchoEntry>): EchoEntry =>
  makeEntry({
    id: 'x',
    date: '2026-11-01',
    title: 'X',
    layer: 'traced',
    source: 'e2e',
    confidence: 0.8,
    evidence: '',
    verified: '2026-11-01',
    learning: 'Something.',
    ...over,
  });

/** A reviewer memory (traced lessons: a search away, so never in the SessionStart digest) and a planner fact. */
async function seededProject(name: string, files: Record<string, string> = {}): Promise<ScenarioProject> {
  const project = await suite.project(name);
  const header = '<!-- echo-schema: v2 -->\n# Memory\n\n';
  await project.write({
    '.claude/echoes/reviewer/MEMORY.md': `${header}${[
      entry({
        id: 'retry-backoff-jitter',
        title: 'Payment retries use jittered backoff',
        evidence: '`src/payments/retry.ts:40-58` — capped at 3 attempts',
        learning: 'Payment retries are capped at 3 with full jitter backoff; raising the cap needs a retry exhaustion metric.',
      }),
      entry({
        id: 'review-needs-two-approvals',
        title: 'Every pull request needs two approvals',
        layer: 'etched',
        learning: 'Two approvals before merge, one from the owning team.',
      }),
    ]
      .map((e) => renderEntry(e))
      .join('\n')}`,
    '.claude/echoes/planner/MEMORY.md': `${header}${renderEntry(entry({ id: 'node-20-only', title: 'Node 20 only', layer: 'etched', learning: 'The service runs on Node 20 only.' }))}`,
    ...files,
  });
  return project;
}

const PROMPT_CONTEXT = 'UserPromptSubmit hook additional context: <rune-echoes note="Project memory that matches this prompt';

describe('P1. a prompt that matches memory gets it in its request; an unrelated prompt gets nothing', () => {
  let project: ScenarioProject;
  let matching: RuneRun;
  let unrelated: RuneRun;

  before(async () => {
    project = await seededProject('p1');
    matching = await rune(project, ['-p', 'The payment retry backoff cap looks wrong; should we raise it?']);
    unrelated = await rune(project, ['-p', 'Add a dark mode toggle to the settings page.']);
  });

  test("the matching prompt's request carries the entry in the prompt hook's wrapper, beside the digest", { timeout: testTimeout }, () => {
    const call = matching.calls[0]!;
    const text = call.systemMessagesText;
    assert.ok(text.includes(PROMPT_CONTEXT), text.slice(0, 1500));
    const blocks = runeEchoesBlocks(text);
    assert.equal(blocks.length, 2, 'the SessionStart digest and the prompt recall');
    const recall = blocks.find((b) => b.includes('matches this prompt'))!;
    assert.match(recall, /Payment retries use jittered backoff: Payment retries are capped at 3 with full jitter backoff/);
    assert.match(recall, /reviewer#retry-backoff-jitter/);
    assert.doesNotMatch(blocks.find((b) => !b.includes('matches this prompt'))!, /Payment retries/, 'a traced lesson is not in the digest');
  });

  test("the unrelated prompt's request has the digest only", { timeout: testTimeout }, () => {
    const text = unrelated.calls[0]!.systemMessagesText;
    assert.ok(!text.includes('UserPromptSubmit hook additional context'), text.slice(0, 1500));
    assert.equal(runeEchoesBlocks(text).length, 1);
  });

  test('usage.jsonl says the entry was injected by the prompt hook, and nothing says it was used', { timeout: testTimeout }, async () => {
    const lines = await readJsonLines(project.path('.claude/echoes/usage.jsonl'));
    const prompt = lines.filter((l) => l.via === 'prompt');
    assert.deepEqual(
      prompt.map((l) => l.ids),
      [['reviewer#retry-backoff-jitter']],
    );
    assert.equal(prompt[0]!.session, matching.result!.session_id);
    assert.ok(!lines.some((l) => l.event === 'used' && JSON.stringify(l.ids).includes('retry-backoff-jitter')));
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe("P2. a subagent whose type maps to a role starts with that role's memory", () => {
  let project: ScenarioProject;
  let run: RuneRun;
  const isSentinel = (c: MessagesCall) => c.systemText.includes('You are the ward sentinel');

  before(async () => {
    project = await seededProject('p2', {
      '.claude/rune-config.yml': 'echoes:\n  agents: { ward-sentinel: reviewer }\n',
      '.claude/agents/ward-sentinel.md':
        '---\nname: ward-sentinel\ndescription: Reviews diffs before merge.\n---\nYou are the ward sentinel. Review the diff you are given.\n',
    });
    const task = { description: 'review', prompt: 'Review the pending diff.', subagent_type: 'ward-sentinel', run_in_background: false };
    run = await rune(project, ['-p', `Get the diff reviewed.\nTOOL: Agent ${JSON.stringify(task)}`]);
  });

  test("the subagent's first request carries the reviewer role's entries; no other role's", { timeout: testTimeout }, () => {
    const first = run.calls.find(isSentinel);
    assert.ok(first, `a request of the subagent (${run.calls.length} requests)`);
    const text = first.systemMessagesText;
    assert.ok(text.includes('SubagentStart hook additional context: <rune-echoes note="Memory of the reviewer role'), text.slice(0, 1500));
    const [block] = runeEchoesBlocks(text);
    assert.match(block!, /recalled for this ward-sentinel subagent/);
    assert.match(block!, /Every pull request needs two approvals \(reviewer\)/);
    assert.match(block!, /Payment retries use jittered backoff/);
    assert.doesNotMatch(block!, /Node 20 only/);
  });

  test("the parent's requests never hold the subagent's start", { timeout: testTimeout }, () => {
    for (const c of run.calls.filter((c) => !isSentinel(c))) assert.ok(!c.allText.includes('Memory of the reviewer role'));
  });

  test('usage.jsonl names the subagent type and the role-qualified ids it was given', { timeout: testTimeout }, async () => {
    const lines = await readJsonLines(project.path('.claude/echoes/usage.jsonl'));
    const sub = lines.find((l) => l.via === 'subagent');
    assert.ok(sub, JSON.stringify(lines));
    assert.equal(sub.agent, 'ward-sentinel');
    assert.deepEqual(sub.ids, ['reviewer#review-needs-two-approvals', 'reviewer#retry-backoff-jitter']);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});

describe('P3. a session of only /rune:echoes status between two working sessions leaves the hand-off intact', () => {
  let project: ScenarioProject;
  let afterWork: string | null;
  let afterStatus: string | null;
  let status: RuneRun;
  let next: RuneRun;
  const request = 'Cap the payment retries at 3 in src/payments.js.';

  before(async () => {
    project = await seededProject('p3', { 'src/payments.js': 'export const maxRetries = 5;\n' });
    const app = project.path('src/payments.js');
    await rune(project, [
      '-p',
      [request, `TOOL: Read {"file_path":"${app}"}`, `EDIT: ${app} :: export const maxRetries = 5; => export const maxRetries = 3;`].join(
        '\n',
      ),
      '--allowedTools',
      'Edit',
    ]);
    afterWork = project.read('.claude/echoes/EPHEMERAL.md');
    status = await rune(project, ['-p', '/rune:echoes status']);
    afterStatus = project.read('.claude/echoes/EPHEMERAL.md');
    next = await rune(project, ['-p', 'What did we do last time?']);
  });

  test('the status session ran the CLI and used no tool', { timeout: testTimeout }, () => {
    assert.match(status.calls[0]!.promptText, /Rune Echoes — /);
    assert.equal(status.calls.length, 1, 'one request, no tool use');
  });

  test('EPHEMERAL.md is exactly what the working session wrote', { timeout: testTimeout }, () => {
    assert.ok(afterWork && section(afterWork, 'Asked').includes(request), afterWork ?? '(none)');
    assert.equal(afterStatus, afterWork);
    assert.equal(project.read('.claude/echoes/EPHEMERAL.md'), afterWork, 'and after the third session, which only asked');
  });

  test('the next session is handed the working session, its Asked line included', { timeout: testTimeout }, () => {
    const [digest] = runeEchoesBlocks(next.calls[0]!.systemMessagesText);
    assert.match(digest!, /Asked:\n- Cap the payment retries at 3 in src\/payments\.js\./);
    assert.doesNotMatch(digest!, /\/rune:echoes status/);
  });

  test('the status session added no archive log of its own', { timeout: testTimeout }, () => {
    const index = project.read('.claude/echoes/ARCHIVE.md') ?? '';
    const lines = index.split('\n').filter((l) => l.startsWith('- '));
    assert.equal(lines.length, 1, index);
    assert.match(project.read('.claude/echoes/memories/archive-log-001.md') ?? '', /Cap the payment retries/);
  });

  test('no hook logged an error', { timeout: testTimeout }, () => {
    assert.deepEqual(errorLogLines(project), []);
  });
});
