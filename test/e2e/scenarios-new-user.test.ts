// What a new user met (issue 20), through the real Claude Code CLI 2.1.330:
// a background subagent's edits and a piped failing `node --test` run reach the
// hand-off; on a machine without Node.js only the session's start says so.
//
// The hooks and the CLI run from dist/: rebuild (npm run build) after changing src/.
// RUNE_E2E_SAVE_TRANSCRIPT=<dir> copies the subagent session's transcript (with its
// subagents/ folder) there: that is how test/fixtures/handoff-transcripts/ was made.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, test } from 'node:test';
import type { ScriptRule } from './fake-anthropic-server.ts';
import { scenarioSuite, transcriptPath } from './scenario-kit.ts';
import { compactionSummary } from './script-rules.ts';

// A bound only a hang trips: a loaded machine is slow, not wrong.
const testTimeout = 900_000;
const suite = scenarioSuite();

const ASK = 'The discount total is off by a cent. Have a helper fix the rounding in src/discount.js, then run the tests.';
const HELPER = 'Rewrite src/discount.js so the discounted price is rounded to whole cents.';

/** The main session hands the fix to a background subagent, waits, and runs the suite through a pipe. */
function discountSession(file: string): ScriptRule {
  return (call) => {
    const done = call.toolUsesThisTurn.length;
    if (call.promptText.startsWith(HELPER)) {
      if (done === 0)
        return {
          content: [
            { type: 'text', text: 'I will round the result to cents.' },
            {
              type: 'tool_use',
              name: 'Edit',
              input: { file_path: file, old_string: 'price - (price * pct) / 100', new_string: 'Math.round(price * (100 - pct)) / 100' },
            },
          ],
        };
      return 'src/discount.js now rounds the discounted price to whole cents.';
    }
    if (!call.promptText.startsWith(ASK)) return undefined;
    const steps = [
      {
        name: 'Agent',
        input: { description: 'Fix discount rounding', prompt: HELPER, subagent_type: 'general-purpose', run_in_background: true },
      },
      { name: 'Bash', input: { command: 'sleep 3', description: 'Wait for the helper' } },
      { name: 'Bash', input: { command: 'npm test 2>&1 | tail -12', description: 'Run the tests' } },
    ];
    const next = steps[done];
    if (next) return { content: [{ type: 'tool_use', ...next }] };
    return 'The helper rewrote src/discount.js to round to cents, and I ran the tests.';
  };
}

/**
 * A transcript as saved for a fixture: the conversation's lines (user, assistant, system) exactly as
 * Claude Code wrote them; in its own bookkeeping lines (the system prompt, tool and skill listings it
 * keeps) every text longer than 200 characters is cut to its start, the shape and keys kept.
 */
function shortened(jsonl: string): string {
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string') return v.length > 200 ? `${v.slice(0, 160)}… [shortened for the fixture]` : v;
    if (Array.isArray(v)) return v.map(cut);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
    return v;
  };
  return jsonl
    .split('\n')
    .map((line) => {
      if (!line.trim()) return line;
      const o = JSON.parse(line) as { type?: string };
      return ['user', 'assistant', 'system'].includes(o.type ?? '') ? line : JSON.stringify(cut(o));
    })
    .join('\n');
}

describe('20. a new user on Claude Code 2.1.330', () => {
  test('items 1 and 2: a background subagent’s edit is in Files, and a piped failing node --test run is failed and open', {
    timeout: testTimeout,
  }, async () => {
    const project = await suite.project('discount');
    await project.write({
      'package.json': `${JSON.stringify({ name: 'shop', version: '1.0.0', private: true, scripts: { test: 'node --test' } }, null, 2)}\n`,
      'src/discount.js': 'exports.discount = (price, pct) => price - (price * pct) / 100;\n',
      'test/discount.test.js': [
        "const test = require('node:test');",
        "const assert = require('node:assert');",
        "const { discount } = require('../src/discount.js');",
        "test('rounds to cents', () => assert.strictEqual(discount(9.99, 15), 8.49));",
        "test('never below zero', () => assert.strictEqual(discount(5, 150), 0));",
        '',
      ].join('\n'),
    });
    suite.server.setRules([compactionSummary, discountSession(project.path('src/discount.js'))]);
    const run = await suite.rune(project, ['-p', ASK, '--permission-mode', 'bypassPermissions'], { env: { IS_SANDBOX: '1' } });
    const sessionId = run.result?.session_id ?? '';
    const transcript = transcriptPath(suite.home, project, sessionId);
    const subagents = join(transcript.replace(/\.jsonl$/, ''), 'subagents');
    assert.ok(existsSync(subagents), 'Claude Code 2.1.330 keeps the subagent’s transcript beside the session’s');
    assert.match(project.read('src/discount.js') ?? '', /Math\.round/, 'the subagent edited the file');

    const handoff = project.read('.claude/echoes/EPHEMERAL.md') ?? '';
    assert.match(handoff, /^- edited: src\/discount\.js$/m, handoff);
    assert.match(handoff, /^- `npm test 2>&1 \| tail -12` \(failed\)$/m, handoff);
    assert.match(handoff, /## Open\n(?:- .*\n)*- `npm test 2>&1 \| tail -12` failed on its last run/, handoff);

    const save = process.env.RUNE_E2E_SAVE_TRANSCRIPT;
    if (save) {
      mkdirSync(join(save, sessionId, 'subagents'), { recursive: true });
      writeFileSync(join(save, `${sessionId}.jsonl`), shortened(readFileSync(transcript, 'utf8')));
      for (const f of readdirSync(subagents))
        writeFileSync(join(save, sessionId, 'subagents', f), shortened(readFileSync(join(subagents, f), 'utf8')));
    }
  });

  test('item 16: with no node on PATH, the session’s start says once what is missing and how to get it; the other hooks stay silent', {
    timeout: testTimeout,
  }, async () => {
    const project = await suite.project('no-node');
    // A PATH with a shell for Claude Code's shell-form hooks, and no node (claude itself is a native binary here).
    const bin = project.path('.no-node-bin');
    mkdirSync(bin);
    for (const tool of ['sh', 'bash']) {
      const found = (process.env.PATH ?? '')
        .split(delimiter)
        .map((d) => join(d, tool))
        .find((p) => existsSync(p));
      if (found) symlinkSync(found, join(bin, tool));
    }
    suite.server.setRules([compactionSummary, () => 'Hello.']);
    const first = await suite.rune(project, ['-p', 'Fix the discount rounding, please.'], { env: { PATH: bin } });
    const second = await suite.rune(project, ['-p', 'And again.'], { env: { PATH: bin } });
    for (const run of [first, second]) {
      assert.doesNotMatch(run.stderr, /hook|node/i, `nothing printed on stderr: ${run.stderr}`);
      const lines = readFileSync(transcriptPath(suite.home, project, run.result?.session_id ?? ''), 'utf8')
        .split('\n')
        .filter(Boolean);
      const hookLines = lines
        .map((l) => JSON.parse(l) as { attachment?: { type?: string; hookEvent?: string; content?: string; exitCode?: number } })
        .flatMap((o) => (o.attachment?.type?.startsWith('hook_') ? [o.attachment] : []));
      // Every hook ran and exited 0; the one thing shown is the start's message to the user.
      assert.ok(
        hookLines.every((a) => a.type === 'hook_success' || a.type === 'hook_system_message'),
        `no hook failed: ${JSON.stringify(hookLines)}`,
      );
      const shown = hookLines.filter((a) => a.type === 'hook_system_message');
      assert.deepEqual(
        shown.map((a) => a.hookEvent),
        ['SessionStart'],
        `one message, at the start: ${JSON.stringify(shown)}`,
      );
      assert.match(shown[0]!.content ?? '', /needs Node\.js 20 or later on PATH/, 'it names what is missing');
      assert.match(shown[0]!.content ?? '', /https:\/\/nodejs\.org/, 'and how to get it');
      assert.ok(
        hookLines.some((a) => a.type === 'hook_success' && a.hookEvent === 'Stop'),
        'Stop ran and was quiet',
      );
    }
    assert.equal(existsSync(project.path('.claude/echoes/EPHEMERAL.md')), false, 'memory did nothing');
  });
});
