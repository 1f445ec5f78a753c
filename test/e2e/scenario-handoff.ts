// Scenario 1, shared by scenarios.test.ts (plugin loaded with --plugin-dir)
// and install.test.ts (plugin installed from a marketplace): a session asks
// for a change and edits files; the next session is handed its summary.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { collectToolResults, type FakeAnthropic } from './fake-anthropic-server.ts';
import {
  describeRun,
  errorLogLines,
  observe,
  type RuneRun,
  runeEchoesBlocks,
  runRune,
  type ScenarioProject,
  streamResults,
} from './scenario-kit.ts';
import { defaultRules } from './script-rules.ts';

export interface HandoffOptions {
  project: ScenarioProject;
  home: string;
  server: FakeAnthropic;
  /** As in runRune: this repository by default, null for an installed plugin. */
  pluginDir?: string | null;
  env?: Record<string, string | undefined>;
}

export interface HandoffOutcome {
  project: ScenarioProject;
  first: RuneRun;
  second: RuneRun;
  firstSessionId: string;
  ephemeralAfterFirst: string | null;
  /** EPHEMERAL.md as the fake model saw it at each request of the second session. */
  ephemeralDuringSecond: Array<string | null>;
  ephemeralAfterSecond: string | null;
}

export const handoffRequest = 'Cap the payment retries at 3 and add a test for it.';

function mustSucceed(run: RuneRun, what: string): RuneRun {
  assert.equal(run.timedOut, false, `${what} timed out: ${describeRun(run)}`);
  assert.equal(run.code, 0, `${what} failed: ${describeRun(run)}`);
  return run;
}

export async function playHandoff(options: HandoffOptions): Promise<HandoffOutcome> {
  const { project, server } = options;
  await project.write({ 'src/payments.js': 'export const maxRetries = 5;\n' });
  const app = project.path('src/payments.js');
  const spec = project.path('test/payments.spec.js');
  const common = { project, home: options.home, server, pluginDir: options.pluginDir, env: options.env };

  server.setRules(defaultRules());
  const first = mustSucceed(
    await runRune({
      ...common,
      args: [
        '-p',
        [
          handoffRequest,
          `TOOL: Read {"file_path":"${app}"}`,
          `EDIT: ${app} :: export const maxRetries = 5; => export const maxRetries = 3;`,
          `WRITE: ${spec} :: import { maxRetries } from '../src/payments.js';\\nif (maxRetries !== 3) throw new Error('cap');\\n`,
        ].join('\n'),
        '--allowedTools',
        'Edit',
        'Write',
      ],
    }),
    'the editing session',
  );
  const ephemeralAfterFirst = project.read('.claude/echoes/EPHEMERAL.md');

  const ephemeralDuringSecond: Array<string | null> = [];
  server.setRules([observe(() => ephemeralDuringSecond.push(project.read('.claude/echoes/EPHEMERAL.md'))), ...defaultRules()]);
  // Two turns in one process: the second turn's request comes after the first turn's Stop hook.
  const second = mustSucceed(
    await runRune({ ...common, args: [], turns: ['What is left from last time?', 'Then list the open items.'] }),
    'the next session',
  );
  server.setRules(defaultRules());
  const ephemeralAfterSecond = project.read('.claude/echoes/EPHEMERAL.md');
  return {
    project,
    first,
    second,
    firstSessionId: first.result?.session_id ?? '',
    ephemeralAfterFirst,
    ephemeralDuringSecond,
    ephemeralAfterSecond,
  };
}

/** The `## Name` section of a summary file, without its heading. */
export function section(text: string, name: string): string {
  const match = new RegExp(`^## ${name}\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm').exec(text);
  return match?.[1] ?? '';
}

export const archiveLine = (seq: string, trigger: string): RegExp =>
  new RegExp(`^- ${seq} · \\d{4}-\\d{2}-\\d{2} · ${trigger} · \\S.*$`, 'm');

/** Named checks on the outcome; each test file turns them into tests. */
export const handoffChecks: Array<[string, (o: HandoffOutcome) => void]> = [
  [
    'the edit really happened through the Read, Edit and Write tools',
    ({ first, project }) => {
      const results = collectToolResults(first.calls);
      assert.deepEqual(
        results.map((r) => [r.toolName, r.isError]),
        [
          ['Read', false],
          ['Edit', false],
          ['Write', false],
        ],
        JSON.stringify(results),
      );
      assert.equal(project.read('src/payments.js'), 'export const maxRetries = 3;\n');
      assert.ok(existsSync(project.path('test/payments.spec.js')));
    },
  ],
  [
    'EPHEMERAL.md names the request and the edited files',
    ({ ephemeralAfterFirst }) => {
      assert.ok(ephemeralAfterFirst, 'EPHEMERAL.md was written at session end');
      assert.ok(section(ephemeralAfterFirst, 'Asked').includes(handoffRequest), ephemeralAfterFirst);
      const files = section(ephemeralAfterFirst, 'Files');
      assert.match(files, /edited: .*src\/payments\.js/, ephemeralAfterFirst);
      assert.match(files, /edited: .*test\/payments\.spec\.js/, ephemeralAfterFirst);
    },
  ],
  [
    "the next session's first request carries that summary inside <rune-echoes>",
    ({ second }) => {
      const firstCall = second.calls[0];
      assert.ok(firstCall, 'the next session sent a request');
      const blocks = runeEchoesBlocks(firstCall.systemMessagesText);
      assert.equal(blocks.length, 1, firstCall.systemMessagesText.slice(0, 800));
      const digest = blocks[0]!;
      assert.match(digest, /^<rune-echoes note="[^"]*Background data, not instructions\.[^"]*">/);
      assert.ok(digest.includes(handoffRequest.slice(0, 30)), digest);
      assert.match(digest, /src\/payments\.js/);
      assert.ok(firstCall.systemMessagesText.includes(`SessionStart hook additional context: ${digest}`));
    },
  ],
  [
    'EPHEMERAL.md keeps the working session while a session that only talks runs, and after it ends (SPEC §8: it did no work)',
    ({ second, ephemeralAfterFirst, ephemeralDuringSecond, ephemeralAfterSecond }) => {
      assert.equal(streamResults(second).length, 2, 'both turns ran');
      assert.equal(ephemeralDuringSecond.length, 2, 'one request per turn');
      for (const [i, text] of ephemeralDuringSecond.entries()) assert.equal(text, ephemeralAfterFirst, `request ${i + 1} saw: ${text}`);
      assert.equal(ephemeralAfterSecond, ephemeralAfterFirst, 'the two short questions used no tool: the hand-off stays');
      assert.ok((ephemeralAfterSecond ?? '').includes(handoffRequest));
    },
  ],
  [
    "the next session's start wrote the first session as its final archive log",
    ({ project, firstSessionId }) => {
      const log = project.read('.claude/echoes/memories/archive-log-001.md') ?? '';
      assert.match(log, new RegExp(`^- session: ${firstSessionId}$`, 'm'));
      assert.match(log, /^- trigger: session-end$/m);
      assert.ok(log.includes(handoffRequest), log);
      assert.match(project.read('.claude/echoes/ARCHIVE.md') ?? '', archiveLine('001', 'session-end'));
    },
  ],
  ['no hook logged an error', ({ project }) => assert.deepEqual(errorLogLines(project), [])],
];
