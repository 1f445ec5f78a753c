import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { keptCommands } from '../../src/core/session/summary-commands.ts';
import { mergeSummaries } from '../../src/core/session/summary-merge.ts';
import type { SessionSummary, SummaryCommand } from '../../src/core/session/summary-model.ts';
import { DRAFT_COMMANDS, emptySummary, isEmptySummary, SUMMARY_LIMITS } from '../../src/core/session/summary-model.ts';
import { RequestLog } from '../../src/core/session/summary-requests.ts';

function part(over: Partial<SessionSummary> = {}): SessionSummary {
  return { ...emptySummary(), ...over };
}

/** Rows without when they last ran (an order the merge numbers, checked where it matters). */
const rows = (list: readonly SummaryCommand[]) => list.map(({ last: _last, ...row }) => row);

const cmd = (command: string, count = 1, failed = false, failures?: number): SummaryCommand => ({
  command,
  count,
  failed,
  ...(failures === undefined ? {} : { failures }),
});

test('an empty summary is empty, and one with any request, file, command or todo is not', () => {
  assert.equal(isEmptySummary(emptySummary()), true);
  assert.equal(isEmptySummary(part({ requests: ['x'] })), false);
  assert.equal(isEmptySummary(part({ filesRead: ['a.ts'] })), false);
  assert.equal(isEmptySummary(part({ commands: [cmd('npm test')] })), false);
  assert.equal(isEmptySummary(part({ openTodos: ['t'] })), false);
});

test('emptySummary gives fresh lists each time', () => {
  const a = emptySummary();
  a.requests.push('x');
  assert.deepEqual(emptySummary().requests, []);
});

test('merging with an empty part on either side keeps what the other part says', () => {
  const s = part({
    sessionId: 's1',
    cwd: '/p',
    branch: 'main',
    firstTs: '2026-05-01T10:00:00Z',
    lastTs: '2026-05-01T11:00:00Z',
    requests: ['fix the retry'],
    decisions: ['cap retries at 3'],
    filesEdited: ['src/a.ts'],
    filesRead: ['src/b.ts'],
    commands: [cmd('npm test', 2, false, 1)],
    openTodos: ['add a metric'],
    todosSeen: true,
    unresolved: ['flaky test'],
    lines: 40,
    skippedLines: 1,
    namedTerms: ['retry'],
    searches: ['backoff'],
  });
  for (const merged of [mergeSummaries(emptySummary(), s), mergeSummaries(s, emptySummary())]) {
    assert.deepEqual(merged, s);
  }
});

test('ids and branch come from the later part when it has them; the first timestamp from the earlier', () => {
  const a = part({ sessionId: 's1', cwd: '/p', branch: 'main', firstTs: 'T1', lastTs: 'T2' });
  const b = part({ sessionId: null, cwd: null, branch: 'feat/x', firstTs: 'T3', lastTs: 'T4' });
  const m = mergeSummaries(a, b);
  assert.equal(m.sessionId, 's1');
  assert.equal(m.cwd, '/p');
  assert.equal(m.branch, 'feat/x');
  assert.equal(m.firstTs, 'T1');
  assert.equal(m.lastTs, 'T4');
  const noTimes = mergeSummaries(part(), part({ firstTs: 'T9', lastTs: null }));
  assert.equal(noTimes.firstTs, 'T9');
  assert.equal(mergeSummaries(part({ lastTs: 'T5' }), part()).lastTs, 'T5');
});

test('lists are deduplicated across parts ignoring case and surrounding space, keeping the first wording', () => {
  const m = mergeSummaries(
    part({ requests: ['Fix the retry', 'add tests'], decisions: ['Use jitter'], namedTerms: ['retry'] }),
    part({ requests: ['  fix the RETRY ', 'ship it'], decisions: ['use jitter', 'cap at 3'], namedTerms: ['Retry', 'backoff'] }),
  );
  assert.deepEqual(m.requests, ['Fix the retry', 'add tests', 'ship it']);
  assert.deepEqual(m.decisions, ['Use jitter', 'cap at 3']);
  assert.deepEqual(m.namedTerms, ['retry', 'backoff']);
});

test('over the cap, a list keeps the opening items and the latest ones', () => {
  const first = Array.from({ length: 6 }, (_, i) => `early request ${i}`);
  const later = Array.from({ length: 6 }, (_, i) => `late request ${i}`);
  const m = mergeSummaries(part({ requests: first }), part({ requests: later }));
  assert.equal(m.requests.length, 8);
  assert.deepEqual(m.requests.slice(0, 3), ['early request 0', 'early request 1', 'early request 2']);
  assert.deepEqual(m.requests.slice(-5), later.slice(-5));
});

test('an early item said again in the latest part is kept when the middle is cut', () => {
  const m = mergeSummaries(
    part({ unresolved: ['a', 'b', 'c', 'npm test fails', 'd', 'e'] }),
    part({ unresolved: ['f', 'g', 'h', 'NPM test fails'] }),
  );
  assert.deepEqual(m.unresolved, ['a', 'b', 'c', 'e', 'f', 'g', 'h', 'npm test fails']);
});

test('property: every merged list is capped, duplicate-free and made only of input items, with the first ask and the latest item kept', () => {
  const item: fc.Arbitrary<string> = fc.constantFrom(
    'a',
    'A',
    ' a ',
    'b',
    'c',
    'd',
    'e',
    'f',
    'g',
    'h',
    'i',
    'j',
    'k',
    'l',
    'm',
    'n',
    'o',
    'p',
  );
  const list = fc.array(item, { maxLength: 15 });
  const caps = { requests: 8, decisions: 10, unresolved: 8, namedTerms: 200 } as const;
  // A draft's requests are what its request log kept: cleaned, each once, none a mere "ok" or "n".
  const asked = (items: string[]) => {
    const log = new RequestLog(SUMMARY_LIMITS.firstRequests, SUMMARY_LIMITS.requests, SUMMARY_LIMITS.requestChars);
    for (const i of items) log.add(i);
    return log.list();
  };
  fc.assert(
    fc.property(list, list, (x, y) => {
      const m = mergeSummaries(
        part({ requests: asked(x), decisions: x, unresolved: x, namedTerms: x }),
        part({ requests: asked(y), decisions: y, unresolved: y, namedTerms: y }),
      );
      for (const key of Object.keys(caps) as Array<keyof typeof caps>) {
        const out = m[key];
        assert.ok(out.length <= caps[key], key);
        const keys = out.map((s) => s.trim().toLowerCase());
        assert.equal(new Set(keys).size, keys.length, `${key} has no duplicates`);
        const [from, to] = key === 'requests' ? [asked(x), asked(y)] : [x, y];
        for (const s of out) assert.ok(from.includes(s) || to.includes(s));
        const all = [...from, ...to];
        if (all.length) {
          assert.equal(keys[0], all[0]!.trim().toLowerCase(), `${key} keeps the first item`);
          assert.ok(keys.includes(all.at(-1)!.trim().toLowerCase()), `${key} keeps the latest item`);
        }
      }
    }),
    { numRuns: 1000 },
  );
});

test('files: in the order they were first edited or read, without repeats; over 30 the first few and the latest stay; a file edited is not also listed as read', () => {
  const m = mergeSummaries(
    part({ filesEdited: ['a.ts', 'b.ts'], filesRead: ['c.ts', 'd.ts'] }),
    part({ filesEdited: ['d.ts', 'a.ts'], filesRead: ['e.ts', 'b.ts'] }),
  );
  assert.deepEqual(m.filesEdited, ['a.ts', 'b.ts', 'd.ts']);
  assert.deepEqual(m.filesRead, ['c.ts', 'e.ts']);
  const many = (p: string) => Array.from({ length: 25 }, (_, i) => `${p}${i}.ts`);
  const capped = mergeSummaries(part({ filesEdited: many('old') }), part({ filesEdited: many('new') }));
  assert.equal(capped.filesEdited.length, 30);
  assert.deepEqual(capped.filesEdited.slice(0, 10), many('old').slice(0, 10));
  assert.deepEqual(capped.filesEdited.slice(10), many('new').slice(5));
});

test('commands: runs are counted across parts, failures added, and the latest run decides failed', () => {
  const m = mergeSummaries(
    part({ commands: [cmd('npm test', 2, true, 2), cmd('git status', 1)] }),
    part({ commands: [cmd('npm test', 1, false, 0), cmd('npm run build', 1, true, 1)] }),
  );
  const byName = new Map(rows(m.commands).map((c) => [c.command, c]));
  assert.deepEqual(byName.get('npm test'), { command: 'npm test', failed: false, count: 3, failures: 2 });
  assert.deepEqual(byName.get('git status'), { command: 'git status', failed: false, count: 1 });
  assert.deepEqual(byName.get('npm run build'), { command: 'npm run build', failed: true, count: 1, failures: 1 });
  // Listed where each was first run, as one read of the whole lists them.
  assert.deepEqual(
    m.commands.map((c) => c.command),
    ['npm test', 'git status', 'npm run build'],
  );
});

test('commands without a failures count (older drafts) count a failed run as one failure', () => {
  const m = mergeSummaries(part({ commands: [cmd('make', 1, true)] }), part({ commands: [cmd('make', 1, true)] }));
  assert.deepEqual(rows(m.commands), [{ command: 'make', failed: true, count: 2, failures: 2 }]);
  const fixed = mergeSummaries(part({ commands: [cmd('make', 1, true)] }), part({ commands: [cmd('make', 4, false)] }));
  assert.deepEqual(rows(fixed.commands), [{ command: 'make', failed: false, count: 5, failures: 1 }]);
});

test('commands: a draft keeps more rows than a hand-off shows; of rows weighing the same, the hand-off shows the 12 last run', () => {
  const a = part({ commands: Array.from({ length: 30 }, (_, i) => cmd(`old-${i}`)) });
  const b = part({ commands: Array.from({ length: 20 }, (_, i) => cmd(`new-${i}`)) });
  const m = mergeSummaries(a, b);
  assert.equal(m.commands.length, DRAFT_COMMANDS);
  assert.deepEqual(
    m.commands.map((c) => c.command),
    [...Array.from({ length: 20 }, (_, i) => `old-${i + 10}`), ...Array.from({ length: 20 }, (_, i) => `new-${i}`)],
  );
  assert.deepEqual(
    keptCommands(m.commands, SUMMARY_LIMITS.commands).map((c) => c.command),
    Array.from({ length: 12 }, (_, i) => `new-${i + 8}`),
  );
});

test('decisions of parts are picked by what they weighed, as a whole read picks them; drafts without weights merge as before', () => {
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet'];
  const said = (prefix: string) => words.map((w) => `${prefix} ${w} settled`);
  const a = part({ decisions: said('Early'), decisionWeights: words.map((_, i) => ({ score: i === 5 ? 7 : 5 })) });
  const b = part({ decisions: said('Later'), decisionWeights: words.map(() => ({ score: 5 })) });
  const m = mergeSummaries(a, b);
  assert.equal(m.decisions.length, 10);
  assert.ok(m.decisions.includes('Early foxtrot settled'), 'the decision that weighed most stays, wherever it was said');
  assert.deepEqual(m.decisions.slice(1), said('Later').slice(1), 'the rest: the latest of those weighing the same');
  const old = mergeSummaries(part({ decisions: said('Early') }), part({ decisions: said('Later') }));
  assert.deepEqual(old.decisions, [...said('Early').slice(0, 4), ...said('Later').slice(4)]);
});

test('merging does not change either input', () => {
  const a = part({ requests: ['x'], commands: [cmd('npm test', 1, true, 1)], filesEdited: ['a.ts'] });
  const b = part({ requests: ['y'], commands: [cmd('npm test', 1, false, 0)], filesEdited: ['b.ts'] });
  const before = JSON.stringify([a, b]);
  mergeSummaries(a, b);
  assert.equal(JSON.stringify([a, b]), before);
});

test('todos: the latest todo list wins, even when it is empty because everything was done', () => {
  const a = part({ openTodos: ['write tests', 'add metric'], todosSeen: true });
  assert.deepEqual(mergeSummaries(a, part({ openTodos: ['add metric'], todosSeen: true })).openTodos, ['add metric']);
  const allDone = mergeSummaries(a, part({ openTodos: [], todosSeen: true }));
  assert.deepEqual(allDone.openTodos, []);
  assert.equal(allDone.todosSeen, true);
});

test('todos: a later part that never touched the todo list keeps the earlier state', () => {
  const a = part({ openTodos: ['write tests'], todosSeen: true });
  const m = mergeSummaries(a, part({ requests: ['more work'], todosSeen: false }));
  assert.deepEqual(m.openTodos, ['write tests']);
  assert.equal(m.todosSeen, true);
  // Parts without the flag (older drafts): a non-empty list is a new state, an empty one is no news.
  assert.deepEqual(mergeSummaries(a, part({ openTodos: ['deploy'] })).openTodos, ['deploy']);
  assert.deepEqual(mergeSummaries(a, part()).openTodos, ['write tests']);
});

test('line counts add up', () => {
  const m = mergeSummaries(part({ lines: 10, skippedLines: 2 }), part({ lines: 5, skippedLines: 1 }));
  assert.equal(m.lines, 15);
  assert.equal(m.skippedLines, 3);
});

test('incremental merging of many small parts matches one merge of the whole when no cap is hit', () => {
  const parts = Array.from({ length: 5 }, (_, i) =>
    part({
      requests: [`ask ${i}`],
      decisions: [`decide ${i}`],
      commands: [cmd('npm test', 1, i % 2 === 0, i % 2 === 0 ? 1 : 0)],
      lines: 1,
    }),
  );
  const running = parts.reduce((acc, p) => mergeSummaries(acc, p), emptySummary());
  assert.deepEqual(running.requests, ['ask 0', 'ask 1', 'ask 2', 'ask 3', 'ask 4']);
  assert.deepEqual(running.decisions, ['decide 0', 'decide 1', 'decide 2', 'decide 3', 'decide 4']);
  assert.deepEqual(rows(running.commands), [{ command: 'npm test', failed: true, count: 5, failures: 3 }]);
  assert.equal(running.lines, 5);
});
