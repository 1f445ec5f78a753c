import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { createSummaryBuilder } from '../../src/core/session/session-summary.ts';
import { renderSummaryLine, renderSummaryMarkdown, summaryTopics } from '../../src/core/session/session-summary-render.ts';
import { didWork } from '../../src/core/session/session-work.ts';
import { DRAFT_COMMANDS, type SessionSummary, SUMMARY_LIMITS, type SummaryCommand } from '../../src/core/session/summary-model.ts';
import { settleSummary } from '../../src/core/session/summary-settle.ts';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/transcripts/${name}`, import.meta.url), 'utf8');

function summarize(text: string, watchTerms?: string[]): SessionSummary {
  const b = createSummaryBuilder({ watchTerms });
  for (const l of text.split('\n')) b.addLine(l);
  return b.finish();
}

const base = { sessionId: 's1', cwd: '/repo', gitBranch: 'main', isSidechain: false };
let n = 0;
function entry(obj: object): string {
  n++;
  return JSON.stringify({ ...base, uuid: `u${n}`, timestamp: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`, ...obj });
}
const user = (content: unknown, extra: object = {}) => entry({ type: 'user', message: { role: 'user', content }, ...extra });
const assistant = (id: string, content: unknown[], extra: object = {}) =>
  entry({ type: 'assistant', message: { id, role: 'assistant', content }, ...extra });
const bash = (id: string, command: string) => ({ type: 'tool_use', id, name: 'Bash', input: { command } });
const result = (id: string, content: string, isError = false) =>
  user([{ type: 'tool_result', tool_use_id: id, content, is_error: isError }]);

const everyKind = summarize(fixture('every-kind.jsonl'), ['RetryPolicy', 'hunter2', 'absent-term']);

test('session facts come from conversation lines, timestamps span the whole file', () => {
  assert.equal(everyKind.sessionId, '11111111-2222-3333-4444-555555555555');
  assert.equal(everyKind.cwd, '/repo');
  assert.equal(everyKind.branch, 'feat/retry');
  assert.equal(everyKind.firstTs, '2026-11-22T14:05:00.000Z');
  assert.ok(everyKind.lastTs! > everyKind.firstTs!);
});

test('requests are the user’s own prompts: no meta, plumbing, compact summary or subagent prompt', () => {
  assert.deepEqual(everyKind.requests, [
    'Fix the payment retry backoff in src/payments.ts and keep the tests green',
    '/review src/payments.ts',
    'Now plan the metric work',
  ]);
});

test('private text is never captured, in any field or rendering', () => {
  const all = JSON.stringify(everyKind) + renderSummaryMarkdown(everyKind, { title: 't' }) + renderSummaryLine(everyKind);
  assert.ok(!all.includes('hunter2'));
  assert.ok(!all.includes('internal-url'));
  assert.ok(!everyKind.namedTerms.includes('hunter2'), 'a private word is not a named term either');
});

test('decisions: root cause, wrap-up, commit, user answer and plan; no question, no narration', () => {
  const d = everyKind.decisions;
  assert.ok(
    d.some((x) => x.startsWith('The root cause was that retries were never capped')),
    d.join('\n'),
  );
  assert.ok(
    d.some((x) => x.startsWith('Retries are now capped at 3')),
    'the turn wrap-up, without the "Done." filler',
  );
  assert.ok(d.includes('Committed: fix: cap payment retries at 3'));
  assert.ok(d.includes('Which metrics backend? → Prometheus'));
  assert.ok(d.some((x) => x.startsWith('Plan: Retry exhaustion metric — Count exhaustion')));
  assert.ok(!d.some((x) => x.includes('Let me') || x.includes("I'll look")));
  assert.ok(!d.some((x) => x.endsWith('?') && x.startsWith('Should I')));
  assert.ok(!d.some((x) => x.includes('I decided nothing')), 'subagent prose is not a decision of the session');
});

test('files: edits and reads relative to cwd, edited files not listed as read, internal files left out', () => {
  assert.deepEqual(everyKind.filesEdited, ['src/payments.ts', 'test/payments.spec.ts', 'notebooks/retry.ipynb', '/elsewhere/notes.md']);
  assert.deepEqual(everyKind.filesRead, ['src/http.ts']);
  assert.deepEqual(everyKind.searches, ['retryDelay in src', '**/*.metrics.ts']);
});

/** Rows without when they last ran (an order within the session, checked where it matters). */
const rows = (list: readonly SummaryCommand[]) => list.map(({ last: _last, ...row }) => row);

test('commands are normalized and counted, with failures noted', () => {
  assert.deepEqual(rows(everyKind.commands), [
    { command: 'npm test', failed: false, count: 2, failures: 1, check: true },
    { command: 'git add -A && git commit -m …', failed: false, count: 1, failures: 0, check: true },
    { command: 'npm run build', failed: true, count: 1, failures: 1, check: true },
  ]);
});

test('open: the last todo list, the unanswered question, the interrupted request and the still-failing build', () => {
  assert.deepEqual(everyKind.openTodos, ['Add a metric for retry exhaustion', 'Document the backoff policy (in progress)']);
  assert.equal(everyKind.todosSeen, true);
  assert.deepEqual(everyKind.unresolved, [
    'Claude asked: Should I add the alert rule now, or leave it for the next session?',
    'Interrupted: Now plan the metric work',
  ]);
  assert.deepEqual(settleSummary(everyKind).open, [
    '[ ] Add a metric for retry exhaustion',
    '[ ] Document the backoff policy (in progress)',
    '`npm run build` failed on its last run',
    'Claude asked: Should I add the alert rule now, or leave it for the next session?',
    'Interrupted: Now plan the metric work',
  ]);
});

test('lines and unreadable lines are counted', () => {
  assert.equal(everyKind.lines, 58);
  assert.equal(everyKind.skippedLines, 3);
});

test('watch terms named in user or assistant text are reported, case-insensitively, in the given order', () => {
  assert.deepEqual(everyKind.namedTerms, ['RetryPolicy']);
  const s = summarize(
    [user('look at the REVIEWER/unused-imports entry'), assistant('m', [{ type: 'text', text: 'and db-pool' }])].join('\n'),
    ['db-pool', 'reviewer/unused-imports', 'nope'],
  );
  assert.deepEqual(s.namedTerms, ['db-pool', 'reviewer/unused-imports']);
});

test('one message split over several lines is merged and repeated blocks are counted once', () => {
  const lines = [
    user('go'),
    assistant('msg_1', [bash('t1', 'make')]),
    assistant('msg_1', [bash('t1', 'make')]),
    result('t1', 'ok'),
    assistant('msg_1', [{ type: 'text', text: 'The root cause was a stale cache, fixed by clearing it.' }]),
    assistant('msg_1', [{ type: 'text', text: 'The root cause was a stale cache, fixed by clearing it.' }]),
  ];
  const s = summarize(lines.join('\n'));
  assert.deepEqual(rows(s.commands), [{ command: 'make', failed: false, count: 1, failures: 0, check: true }]);
  assert.deepEqual(s.decisions, ['The root cause was a stale cache, fixed by clearing it.']);
});

test('a non-zero exit code marks a command failed even without is_error', () => {
  const s = summarize([assistant('m', [bash('t', 'cargo test')]), result('t', 'Exit code 101\npanicked')].join('\n'));
  assert.equal(s.commands[0]!.failed, true);
});

test('a separate subagent file summarizes its own task and findings', () => {
  const s = summarize(fixture('subagent-file.jsonl'));
  assert.deepEqual(s.requests, ['(subagent) Find every caller of retry() and report which ones pass a custom delay.']);
  assert.ok(s.decisions.some((d) => d.includes('src/queue.ts passes a fixed 10s delay')));
  assert.deepEqual(s.filesRead, ['src/queue.ts']);
  assert.equal(s.todosSeen, false);
});

test('every list is capped and long strings end with …', () => {
  const lines: string[] = [];
  for (let i = 0; i < 40; i++) {
    lines.push(user(`Request number ${i} ${'word '.repeat(80)}`));
    lines.push(
      assistant(`m${i}`, [
        { type: 'tool_use', id: `e${i}`, name: 'Edit', input: { file_path: `/repo/src/f${i}.ts` } },
        { type: 'tool_use', id: `r${i}`, name: 'Read', input: { file_path: `/repo/lib/g${i}.ts` } },
        bash(`b${i}`, `npm run task${i}`),
      ]),
    );
    lines.push(
      user([
        { type: 'tool_result', tool_use_id: `e${i}`, content: 'ok' },
        { type: 'tool_result', tool_use_id: `b${i}`, content: 'ok' },
      ]),
    );
    lines.push(assistant(`m${i}`, [{ type: 'text', text: `The root cause ${i} was a missing guard in module ${i}.` }]));
  }
  const s = summarize(lines.join('\n'));
  assert.equal(s.requests.length, SUMMARY_LIMITS.requests);
  assert.ok(s.requests[0]!.startsWith('Request number 0 '), 'the opening request is kept');
  assert.ok(s.requests.at(-1)!.startsWith('Request number 39 '), 'and the latest');
  assert.ok(s.requests.every((r) => r.length <= SUMMARY_LIMITS.requestChars && r.endsWith('…')));
  assert.equal(s.decisions.length, SUMMARY_LIMITS.decisions);
  assert.equal(s.filesEdited.length, SUMMARY_LIMITS.files);
  assert.equal(s.filesRead.length, SUMMARY_LIMITS.files);
  assert.equal(s.commands.length, DRAFT_COMMANDS, 'the draft keeps more commands than a hand-off shows');
  assert.equal(
    (renderSummaryMarkdown(s, { title: 'Last session' }).split('## Commands\n')[1] ?? '').split('\n').filter((l) => l.startsWith('- '))
      .length,
    SUMMARY_LIMITS.commands,
  );
});

test('finish can be called again: a running draft keeps growing', () => {
  const b = createSummaryBuilder();
  b.addLine(user('first ask'));
  const one = b.finish();
  b.addLine(user('second ask'));
  const two = b.finish();
  assert.deepEqual(one.requests, ['first ask']);
  assert.deepEqual(two.requests, ['first ask', 'second ask']);
  assert.deepEqual(b.finish(), two);
});

test('trivial prompts and consecutive repeats are not listed as requests', () => {
  const s = summarize([user('Add retries'), user('continue'), user('ok'), user('Add retries'), user('Add retries')].join('\n'));
  assert.deepEqual(s.requests, ['Add retries']);
});

test('the same lines always give the same summary', () => {
  const text = fixture('every-kind.jsonl');
  assert.deepEqual(summarize(text), summarize(text));
});

test('random private text in prompts, answers and commands never appears in the summary', () => {
  fc.assert(
    fc.property(fc.stringMatching(/^[A-Za-z0-9]{6,12}$/), fc.string({ maxLength: 30 }), (secret, noise) => {
      const tag = `<private>ZQ${secret}</private>`;
      const s = summarize(
        [
          user(`${noise} ask ${tag} more`),
          assistant('m', [{ type: 'text', text: `The root cause ${tag} was found.` }, bash('t', `echo ${tag}`)]),
          result('t', `out ${tag}`),
          assistant('m2', [
            { type: 'tool_use', id: 'td', name: 'TodoWrite', input: { todos: [{ content: `todo ${tag}`, status: 'pending' }] } },
          ]),
        ].join('\n'),
        [`ZQ${secret}`],
      );
      const all = JSON.stringify(s) + renderSummaryMarkdown(s, { title: 't' });
      assert.ok(!all.includes(`ZQ${secret}`));
    }),
    { numRuns: 100 },
  );
});

test('markdown rendering has the §13 sections and leaves empty ones out', () => {
  const md = renderSummaryMarkdown(everyKind, { title: 'Last session — 14:05 → 14:57', meta: 'trigger: session-end' });
  assert.ok(md.startsWith('# Last session — 14:05 → 14:57\ntrigger: session-end\n## Asked\n'));
  for (const h of ['## Asked', '## Done and decided', '## Files', '## Commands', '## Open']) assert.ok(md.includes(`\n${h}\n`), h);
  assert.ok(md.includes('- `npm test` (×2, failed once, then passed)'));
  assert.ok(md.includes('- [ ] Add a metric for retry exhaustion'));
  const sparse = renderSummaryMarkdown(summarize(user('only a question')), { title: 'x' });
  assert.equal(sparse, '# x\n## Asked\n- only a question\n');
});

test('the digest line says what was done and what is open', () => {
  assert.equal(
    renderSummaryLine(everyKind),
    'Plan: Retry exhaustion metric — Count exhaustion in a Prometheus counter named retry_exhausted_total; open: Add a metric for retry exhaustion',
  );
  assert.equal(renderSummaryLine(summarize('')), 'no requests');
});

test('topics are a few deterministic keywords', () => {
  const topics = summaryTopics(everyKind);
  assert.ok(topics.length > 0 && topics.length <= 4);
  assert.deepEqual(summaryTopics(everyKind), topics);
  assert.ok(topics.includes('payments'), topics.join(','));
  assert.deepEqual(summaryTopics(everyKind, 2), topics.slice(0, 2));
});

test('the 2.1.x task list (TaskCreate/TaskUpdate/TaskList) gives the open todos', () => {
  const create = (id: string, subject: string, taskId: string) => [
    assistant(`m${id}`, [{ type: 'tool_use', id, name: 'TaskCreate', input: { subject, description: 'd' } }]),
    user([{ type: 'tool_result', tool_use_id: id, content: `Task #${taskId} created` }], {
      toolUseResult: { task: { id: taskId, subject } },
    }),
  ];
  const update = (id: string, taskId: string, status: string) => [
    assistant(`m${id}`, [{ type: 'tool_use', id, name: 'TaskUpdate', input: { taskId, status } }]),
    user([{ type: 'tool_result', tool_use_id: id, content: 'Updated' }], {
      toolUseResult: { success: true, taskId, updatedFields: ['status'] },
    }),
  ];
  const lines = [
    ...create('c1', 'Write the parser', '1'),
    ...create('c2', 'Wire the hook', '2'),
    ...create('c3', 'Drop the old code', '3'),
    ...update('u1', '1', 'completed'),
    ...update('u2', '2', 'in_progress'),
    ...update('u3', '3', 'deleted'),
  ];
  const s = summarize(lines.join('\n'));
  assert.deepEqual(s.openTodos, ['Wire the hook (in progress)']);
  assert.equal(s.todosSeen, true);
  const listed = summarize(
    [
      ...lines,
      assistant('ml', [{ type: 'tool_use', id: 'l1', name: 'TaskList', input: {} }]),
      user([{ type: 'tool_result', tool_use_id: 'l1', content: '…' }], {
        toolUseResult: { tasks: [{ id: '7', subject: 'Ship it', status: 'pending', blockedBy: [] }] },
      }),
    ].join('\n'),
  );
  assert.deepEqual(listed.openTodos, ['Ship it'], 'a TaskList result is the whole current list');
});

test('plan mode: the approved plan is a decision, a rejected one is not, an unanswered one is open', () => {
  const exit = (id: string) => assistant(`m${id}`, [{ type: 'tool_use', id, name: 'ExitPlanMode', input: {} }]);
  const approved = summarize(
    [
      exit('p1'),
      user([{ type: 'tool_result', tool_use_id: 'p1', content: 'User has approved your plan.' }], {
        toolUseResult: { plan: '# Cache the token\n\n## Approach\n\nKeep it in memory for 5 minutes.', isAgent: false },
      }),
    ].join('\n'),
  );
  assert.deepEqual(approved.decisions, ['Plan: Cache the token — Keep it in memory for 5 minutes.']);
  const rejected = summarize(
    [exit('p2'), user([{ type: 'tool_result', tool_use_id: 'p2', content: "The user doesn't want to proceed", is_error: true }])].join(
      '\n',
    ),
  );
  assert.deepEqual(rejected.decisions, []);
  const waiting = summarize(
    [
      assistant('w', [
        {
          type: 'tool_use',
          id: 'f1',
          name: 'Write',
          input: { file_path: '/home/u/.claude/plans/x.md', content: '# Plan: Split the module\n\nBecause it is big.' },
        },
      ]),
      user([{ type: 'tool_result', tool_use_id: 'f1', content: 'ok' }]),
      exit('p3'),
    ].join('\n'),
  );
  assert.deepEqual(waiting.unresolved, ['Awaiting approval: Plan: Split the module — Because it is big.']);
  assert.deepEqual(waiting.filesEdited, [], 'the plan file is Claude Code’s, not the project’s');
});

test('Claude Code 2.1 subagent work, carried in agent_progress lines, counts: its edits are files edited, its looking around is not listed', () => {
  const progress = (inner: object) =>
    entry({
      type: 'progress',
      data: { type: 'agent_progress', message: { uuid: `p${n}`, timestamp: '2026-01-01T00:00:30.000Z', ...inner } },
    });
  const s = summarize(
    [
      user('Split the API module with a subagent'),
      assistant('m1', [
        {
          type: 'tool_use',
          id: 'task1',
          name: 'Task',
          input: { description: 'split', prompt: 'split it', subagent_type: 'general-purpose' },
        },
      ]),
      progress({ type: 'assistant', message: { id: 'sm1', role: 'assistant', content: [bash('sb1', 'ls -la src/api')] } }),
      progress({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'sb1', content: 'users.ts' }] } }),
      progress({
        type: 'assistant',
        message: {
          id: 'sm2',
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'se1', name: 'Edit', input: { file_path: '/repo/src/api/users.ts', old_string: 'a', new_string: 'b' } },
          ],
        },
      }),
      progress({
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'se1', content: 'The file has been updated.' }] },
      }),
      result('task1', 'Done: users split out.'),
      assistant('m2', [{ type: 'text', text: 'The subagent split the users API out.' }]),
    ].join('\n'),
  );
  assert.deepEqual(s.filesEdited, ['src/api/users.ts']);
  assert.ok(!s.commands.some((c) => c.command.startsWith('ls')), 'a subagent’s ls is not a command of the session');
});

/** The Open lines of a session that ran `runs` in turn ([command, output, failed]) after being asked to make the tests pass. */
function openAfter(runs: Array<[string, string, boolean]>, claim = 'All tests pass now.'): string[] {
  const lines = [user('fix the date parsing bug and make the tests pass')];
  runs.forEach(([command, output, failed], i) => {
    lines.push(assistant(`r${i}`, [bash(`b${i}`, command)]));
    lines.push(result(`b${i}`, failed ? `Exit code 1\n${output}` : output, failed));
  });
  lines.push(assistant('end', [{ type: 'text', text: claim }]));
  return settleSummary(summarize(lines.join('\n'))).open;
}

test('a test run through a wrapper is a check: a failed `python -m pytest`, `uv run pytest`, `mvn -q test`, `CGO_ENABLED=0 go test` stays open', () => {
  for (const command of [
    'python -m pytest tests/ -q',
    'uv run pytest',
    'poetry run pytest -x',
    'bundle exec rspec',
    'mvn -q test',
    'CGO_ENABLED=0 go test ./...',
    'timeout 300 cargo test',
  ]) {
    const open = openAfter([[command, '===== 2 failed, 10 passed =====', true]]);
    assert.ok(
      open.some((l) => l.includes(command) && /failed on its last run/.test(l)),
      `${command}: ${JSON.stringify(open)}`,
    );
  }
  // The same check run again plainly, passing, settles it.
  assert.deepEqual(
    openAfter([
      ['RUST_BACKTRACE=1 cargo test', 'test result: FAILED', true],
      ['cargo test', 'test result: ok', false],
    ]),
    [],
  );
});

test('tests picked by name passing settle nothing of the whole suite that failed', () => {
  for (const [suite, picked] of [
    ['cargo test', 'cargo test parse_iso'],
    ['pytest', 'pytest -k proration'],
    ['go test ./...', 'go test -run TestBurst ./...'],
    ['npm test', 'npm test -- -t parses'],
  ]) {
    const open = openAfter([
      [suite!, 'FAILED. 11 passed; 3 failed', true],
      [picked!, 'ok. 1 passed; 0 failed', false],
    ]);
    assert.ok(
      open.some((l) => l.includes(`\`${suite}\``) && /failed on its last run/.test(l)),
      `${picked}: ${JSON.stringify(open)}`,
    );
  }
  // The same picked tests failing, then passing: settled.
  assert.deepEqual(
    openAfter([
      ['pytest -k proration', '1 failed', true],
      ['pytest -k proration', '1 passed', false],
    ]),
    [],
  );
});

test('output through a pipe tells a failed go test or build, though its exit status is hidden', () => {
  const goTest = openAfter([
    ['go test ./... 2>&1 | tail -20', '--- FAIL: TestBurst (0.00s)\nFAIL\tgithub.com/acme/gosvc/internal/limit\t0.01s', false],
  ]);
  assert.ok(
    goTest.some((l) => /go test \.\/\.\.\..*failed on its last run/.test(l)),
    JSON.stringify(goTest),
  );
  const goBuild = openAfter(
    [['go build ./... 2>&1 | head -20', 'internal/limit/burst.go:12:3: undefined: rate', false]],
    'The build is clean.',
  );
  assert.ok(
    goBuild.some((l) => /go build.*failed on its last run/.test(l)),
    JSON.stringify(goBuild),
  );
  const mocha = openAfter([['npx mocha | tail -5', '  12 passing\n  2 failing', false]]);
  assert.ok(mocha.length > 0, 'mocha failing');
  assert.deepEqual(openAfter([['go test ./... 2>&1 | tail -5', 'ok  \tgithub.com/acme/gosvc/internal/limit\t0.01s', false]]), []);
});

test('a refused tool call with a note from the user: the note is what they asked next', () => {
  const refusal =
    "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nno redis - we decided against new infra. use functools.lru_cache instead";
  const s = summarize(
    [
      user('Add a redis cache in front of get_user'),
      assistant('m1', [
        { type: 'tool_use', id: 'e1', name: 'Edit', input: { file_path: '/repo/app/users.py', old_string: 'a', new_string: 'redis' } },
      ]),
      result('e1', refusal, true),
      assistant('m2', [
        { type: 'tool_use', id: 'e2', name: 'Edit', input: { file_path: '/repo/app/users.py', old_string: 'a', new_string: 'lru_cache' } },
      ]),
      result('e2', 'The file has been updated.'),
    ].join('\n'),
  );
  assert.deepEqual(s.requests, [
    'Add a redis cache in front of get_user',
    'no redis - we decided against new infra. use functools.lru_cache instead',
  ]);
});

test('work reverted with git is not listed as edited: checkout --, restore and reset --hard put files back; git clean and git mv remove them', () => {
  const edit = (id: string, file: string) =>
    assistant(`m${id}`, [{ type: 'tool_use', id, name: 'Write', input: { file_path: `/repo/${file}`, content: 'x' } }]);
  const s = summarize(
    [
      user('Add an LRU cache to the users store'),
      edit('w1', 'internal/users/store.go'),
      result('w1', 'File created successfully'),
      edit('w2', 'internal/users/cache.go'),
      result('w2', 'File created successfully'),
      edit('w3', 'internal/util/strings.go'),
      result('w3', 'File created successfully'),
      user('scrap the cache, revert all of that'),
      assistant('r1', [bash('b1', 'git checkout -- internal/users/store.go && git clean -f internal/users/cache.go')]),
      result('b1', ''),
      assistant('r2', [bash('b2', 'git mv internal/util/strings.go internal/textutil/strings.go')]),
      result('b2', ''),
    ].join('\n'),
  );
  assert.deepEqual(s.filesEdited, ['internal/textutil/strings.go']);
  assert.deepEqual(s.filesReverted, ['internal/users/store.go']);
  assert.deepEqual(s.filesDeleted, ['internal/users/cache.go', 'internal/util/strings.go']);
  const all = summarize(
    [
      user('try it'),
      edit('w1', 'a.go'),
      result('w1', 'ok'),
      assistant('r', [bash('b', 'git reset --hard')]),
      result('b', 'HEAD is now at 1234567 x'),
    ].join('\n'),
  );
  assert.deepEqual(all.filesEdited, []);
  assert.deepEqual(all.filesReverted, ['a.go']);
  assert.match(renderSummaryMarkdown(all, { title: 't' }), /- reverted: a\.go/);
});

test('a failed commit is never said to have passed later when every later commit failed too', () => {
  const s = summarize(
    [
      user('commit the fix'),
      assistant('c1', [bash('g1', 'git commit -m "fix"')]),
      result('g1', 'Exit code 1\nruff....Failed', true),
      assistant('c2', [bash('g2', 'git commit --no-verify -m "fix"')]),
      result('g2', "The user doesn't want to proceed with this tool use. The tool use was rejected.", true),
      user("don't skip hooks. fix the lint error first"),
      assistant('c3', [bash('g3', 'git commit -m "fix"')]),
      result('g3', 'Exit code 1\nmypy....Failed', true),
      assistant('end', [{ type: 'text', text: 'Committed the fix.' }]),
    ].join('\n'),
  );
  const text = renderSummaryMarkdown(s, { title: 't' });
  assert.doesNotMatch(text, /a later run passed/);
  assert.match(text, /git commit.*failed on its last run/);
});

test('a command run in the background is judged by the outcome its output shows once it ended, not by its start', () => {
  const run = (outcome: string) =>
    summarize(
      [
        user('run the e2e tests'),
        assistant('b1', [{ type: 'tool_use', id: 'bg', name: 'Bash', input: { command: 'npx playwright test', run_in_background: true } }]),
        result('bg', 'Command running in background with ID: bash_1'),
        assistant('b2', [{ type: 'tool_use', id: 'out', name: 'BashOutput', input: { bash_id: 'bash_1' } }]),
        result('out', outcome),
        assistant('end', [{ type: 'text', text: 'The e2e tests pass.' }]),
      ].join('\n'),
    );
  const failed = settleSummary(run('<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<stdout>  2 failing</stdout>')).open;
  assert.ok(
    failed.some((l) => /npx playwright test.*failed on its last run/.test(l)),
    JSON.stringify(failed),
  );
  assert.deepEqual(settleSummary(run('<status>completed</status>\n\n<exit_code>0</exit_code>\n\n<stdout>  12 passing</stdout>')).open, []);
  const still = run('<status>running</status>\n\n<stdout>…</stdout>');
  assert.ok(
    !still.commands.some((c) => c.command.includes('playwright') && !c.failed && c.count > 0 && c.check),
    'still running: no pass claimed',
  );
});

test('a <private> span left open hides what follows, yet the session is still known to have worked', () => {
  const s = summarize(
    [
      user('Our HTML sanitizer should drop custom tags like <private> and <secret>. Add that to src/sanitize.ts'),
      assistant('m1', [
        { type: 'tool_use', id: 'e1', name: 'Edit', input: { file_path: '/repo/src/sanitize.ts', old_string: 'a', new_string: 'b' } },
      ]),
      result('e1', 'The file has been updated.'),
      assistant('m2', [bash('t1', 'npm test')]),
      result('t1', 'ok'),
    ].join('\n'),
  );
  assert.deepEqual(s.filesEdited, [], 'nothing inside the span is kept');
  assert.equal(s.privateWork, 2);
  assert.ok(didWork(s), 'the session worked, so its hand-off replaces the last one');
  const text = renderSummaryMarkdown(s, { title: 't' });
  assert.match(text, /2 tool calls were made inside a private span; nothing of them is kept here/);
  assert.doesNotMatch(text, /sanitize\.ts|npm test/);
});

test('a failing test run whose status `|| true` or a later `; echo` hides is still a failure; a claim of a commit that failed is left out', () => {
  for (const command of ['python3 -m pytest -q || true', 'python3 -m pytest -q; echo done', 'npm test; exit 0']) {
    const open = openAfter([[command, '1 failed, 3 passed in 0.12s', false]]);
    assert.ok(
      open.some((l) => /failed on its last run/.test(l)),
      `${command}: ${JSON.stringify(open)}`,
    );
  }
  assert.deepEqual(openAfter([['python3 -m pytest -q || true', '4 passed in 0.12s', false]]), []);
  const s = summarize(
    [
      user('Commit it'),
      assistant('c1', [bash('g1', 'git commit -qm wip2')]),
      result('g1', 'Exit code 1\nnothing added to commit but untracked files present', true),
      assistant('end', [{ type: 'text', text: 'Committed the fix as wip2 and the tree is clean.' }]),
    ].join('\n'),
  );
  const settled = settleSummary(s);
  assert.ok(!settled.decisions.some((d) => d.startsWith('Committed the fix')), JSON.stringify(settled.decisions));
});
