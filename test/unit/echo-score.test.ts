import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { echoScore, parseDay, scoreEntries } from '../../src/core/lifecycle/echo-score.ts';
import {
  compactEvents,
  entryUsage,
  formatUsageEvent,
  parseUsageLog,
  relevanceIndex,
  type UsageEvent,
} from '../../src/core/lifecycle/usage-events.ts';
import { makeEntry } from './entry-arbitrary.ts';

const now = new Date('2026-04-01T12:00:00Z');

function ev(session: string, ts: string, ids: string[], event: UsageEvent['event'] = 'used'): UsageEvent {
  return { ts, session, event, ids };
}

/** What the digest gives a session at its start, as the hook writes it. */
const given = (session: string, ts: string, ids: string[]): UsageEvent => ({ ts, session, event: 'injected', via: 'session-start', ids });

describe('usage log', () => {
  test('parses valid lines and reports bad ones without losing the rest', () => {
    const text = [
      '{"ts":"2026-03-01T10:00:00Z","session":"a","event":"injected","via":"session-start","ids":["reviewer#x","team#y"],"tokens":812}',
      '',
      '{"ts":"2026-03-01T10:05:00Z","session":"a","event":"used","ids":["reviewer#x"]}\r',
      '{"ts":"2026-03-02T10:00:00Z","session":"b","event":"inj', // crash mid-append
      '{"ts":"2026-03-02T10:00:00Z","session":"b","event":"read","ids":[]}',
      '[1,2]',
      '{"ts":"2026-03-02T10:00:00Z","session":"b","event":"used","ids":[3]}',
      '{"ts":"2026-03-02T11:00:00Z","session":"b","event":"used","ids":["team#z"],"extra":true}',
    ].join('\n');
    const { events, issues } = parseUsageLog(text);
    assert.deepEqual(events, [
      { ts: '2026-03-01T10:00:00Z', session: 'a', event: 'injected', via: 'session-start', ids: ['reviewer#x', 'team#y'], tokens: 812 },
      { ts: '2026-03-01T10:05:00Z', session: 'a', event: 'used', ids: ['reviewer#x'] },
      { ts: '2026-03-02T11:00:00Z', session: 'b', event: 'used', ids: ['team#z'] },
    ]);
    assert.deepEqual(
      issues.map((i) => [i.code, i.line]),
      [
        ['bad-json', 4],
        ['bad-event', 5],
        ['bad-event', 6],
        ['bad-event', 7],
      ],
    );
  });

  test('a formatted event is one line that parses back to the same event', () => {
    const e: UsageEvent = { ts: '2026-03-01T10:00:00Z', session: 's1', event: 'injected', via: 'prompt', ids: ['r#a', 'r#b'], tokens: 40 };
    const line = formatUsageEvent(e);
    assert.equal(line, '{"ts":"2026-03-01T10:00:00Z","session":"s1","event":"injected","via":"prompt","ids":["r#a","r#b"],"tokens":40}\n');
    const { via: _via, ...plain } = e;
    assert.deepEqual(parseUsageLog(line + formatUsageEvent({ ...plain, tokens: undefined })).events, [
      e,
      { ts: e.ts, session: 's1', event: 'injected', ids: ['r#a', 'r#b'] },
    ]);
  });

  test('only use counts for relevance: an entry injected in every session and never used has none', () => {
    const index = relevanceIndex([
      ev('a', '2026-03-01T10:00:00Z', ['r#x', 'r#y'], 'injected'),
      ev('a', '2026-03-01T10:01:00Z', ['r#x', 'r#x']),
      ev('b', '2026-03-02T10:00:00Z', ['r#x', 'r#y'], 'injected'),
      ev('b', '2026-03-02T10:01:00Z', ['r#x']),
    ]);
    assert.deepEqual(index.sessions, ['a', 'b']);
    assert.deepEqual(entryUsage(index, 'x', 'r'), { sessions: 2, lastUsed: '2026-03-02T10:01:00Z', injected: 2, used: 3 });
    assert.deepEqual(entryUsage(index, 'y', 'r'), { sessions: 0, lastUsed: undefined, injected: 2, used: 0 });
  });

  test('usage is per role: the same id in two roles is counted apart', () => {
    const index = relevanceIndex([ev('a', '2026-03-01T10:00:00Z', ['reviewer#dup']), ev('b', '2026-03-02T10:00:00Z', ['team#other'])]);
    assert.equal(entryUsage(index, 'dup', 'reviewer').sessions, 1);
    assert.equal(entryUsage(index, 'dup', 'team').sessions, 0);
  });

  test('the window keeps only the last N sessions, ordered by their first timestamp', () => {
    // c started before b but appended later (concurrent sessions interleave).
    const events = [
      ev('a', '2026-03-01T10:00:00Z', ['r#x']),
      ev('b', '2026-03-03T10:00:00Z', ['r#y']),
      ev('c', '2026-03-02T10:00:00Z', ['r#z']),
      ev('c', '2026-03-04T10:00:00Z', ['r#z']),
    ];
    const index = relevanceIndex(events, 2);
    assert.deepEqual(index.sessions, ['c', 'b']);
    assert.equal(entryUsage(index, 'x', 'r').sessions, 0);
    assert.equal(entryUsage(index, 'x', 'r').lastUsed, '2026-03-01T10:00:00Z', 'last use looks at the whole log');
    assert.equal(entryUsage(index, 'z', 'r').lastUsed, '2026-03-04T10:00:00Z');
  });

  test('only sessions that worked are in the window: six idle sessions change no share and no total', () => {
    // Issue 20 item 7: six `claude -p hello` runs took a used entry from 0.88 to 0.62.
    const events = [given('work', '2026-03-01T10:00:00Z', ['r#x', 'r#y']), ev('work', '2026-03-01T11:00:00Z', ['r#x'])];
    for (let i = 0; i < 6; i++) events.push(given(`hello-${i}`, `2026-03-0${2 + i}T10:00:00Z`, ['r#x', 'r#y']));
    const index = relevanceIndex(events);
    assert.deepEqual(index.sessions, ['work']);
    assert.deepEqual(entryUsage(index, 'x', 'r'), { sessions: 1, lastUsed: '2026-03-01T11:00:00Z', injected: 1, used: 1 });
    assert.equal(entryUsage(index, 'y', 'r').injected, 1, 'what idle sessions were given is not counted');
    const fresh = makeEntry({ id: 'x', layer: 'inscribed', verified: '2026-04-01' });
    assert.equal(scoreEntries([fresh], events, now, 20, { role: 'r' })[0]!.score, 0.88);
    // A session that worked and used nothing (a `used` line without ids) counts, and lowers the share.
    const withWork = [...events, ev('work-2', '2026-03-09T10:00:00Z', [])];
    assert.equal(scoreEntries([fresh], withWork, now, 20, { role: 'r' })[0]!.relevance, 0.5);
  });

  test('compaction keeps the working sessions however many idle sessions follow them', () => {
    const events = [ev('a', '2026-03-01T10:00:00Z', ['r#x']), ev('b', '2026-03-02T10:00:00Z', [])];
    for (let i = 0; i < 50; i++) events.push(given(`idle-${i}`, new Date(Date.UTC(2026, 2, 3, i)).toISOString(), ['r#x']));
    const { events: kept, changed } = compactEvents(events, 2);
    assert.equal(changed, true);
    assert.deepEqual(relevanceIndex(kept).sessions, ['a', 'b']);
    assert.deepEqual(
      [...new Set(kept.map((e) => e.session))],
      ['a', 'b', 'idle-48', 'idle-49'],
      'the last idle sessions are kept (they may still be running), older ones dropped',
    );
    assert.deepEqual(entryUsage(relevanceIndex(kept), 'x', 'r'), entryUsage(relevanceIndex(events), 'x', 'r'));
  });

  test('sessions without a valid timestamp keep their place in file order', () => {
    const index = relevanceIndex([ev('a', '2026-03-01T10:00:00Z', []), ev('b', 'garbage', []), ev('c', '2026-03-02T10:00:00Z', [])]);
    assert.deepEqual(index.sessions, ['a', 'b', 'c']);
  });
});

describe('usage log of the older format', () => {
  // What the foundation wrote: `referenced` (injection counted as use) and bare ids, plus compaction's carried lines.
  const OLD = [
    '{"ts":"2026-02-01T10:00:00Z","session":"compacted","event":"referenced","ids":["old-lesson"]}',
    '{"ts":"2026-03-01T10:00:00Z","session":"s1","event":"injected","ids":["retry-backoff","unused-imports"],"tokens":700}',
    '{"ts":"2026-03-01T11:00:00Z","session":"s1","event":"referenced","ids":["retry-backoff"]}',
    '{"ts":"2026-03-02T10:00:00Z","session":"s2","event":"injected","ids":["retry-backoff","unused-imports"],"tokens":700}',
    '{"ts":"2026-03-02T11:00:00Z","session":"s2","event":"referenced","ids":["retry-backoff"]}',
    '',
  ].join('\n');

  test('reads every old line: referenced becomes used, bare ids match the entry in any role', () => {
    const { events, issues, legacy } = parseUsageLog(OLD);
    assert.deepEqual(issues, []);
    assert.equal(legacy, 3);
    assert.deepEqual(
      events.map((e) => e.event),
      ['used', 'injected', 'used', 'injected', 'used'],
    );
    const index = relevanceIndex(events);
    assert.deepEqual(index.sessions, ['s1', 's2'], 'carried history is not a session of the window');
    assert.deepEqual(entryUsage(index, 'retry-backoff', 'reviewer'), {
      sessions: 2,
      lastUsed: '2026-03-02T11:00:00Z',
      injected: 2,
      used: 2,
    });
    assert.deepEqual(entryUsage(index, 'unused-imports', 'reviewer'), { sessions: 0, lastUsed: undefined, injected: 2, used: 0 });
    assert.equal(entryUsage(index, 'old-lesson', 'team').lastUsed, '2026-02-01T10:00:00Z', 'the carried date survives');
  });

  test('compaction folds old sessions into carried totals in the new format, losing no count', () => {
    const events = [
      ...parseUsageLog(OLD).events,
      ev('s3', '2026-03-03T10:00:00Z', ['reviewer#retry-backoff']),
      ev('s3', '2026-03-03T10:00:00Z', ['reviewer#retry-backoff', 'reviewer#unused-imports'], 'injected'),
    ];
    const { events: folded, changed } = compactEvents(events, 1);
    assert.equal(changed, true);
    const text = folded.map(formatUsageEvent).join('');
    assert.doesNotMatch(text, /"referenced"/);
    const before = relevanceIndex(events);
    const after = relevanceIndex(parseUsageLog(text).events);
    for (const [id, role] of [
      ['retry-backoff', 'reviewer'],
      ['unused-imports', 'reviewer'],
      ['old-lesson', 'team'],
    ] as const) {
      const a = entryUsage(before, id, role);
      const b = entryUsage(after, id, role);
      assert.equal(b.injected, a.injected, `${id} injected`);
      assert.equal(b.used, a.used, `${id} used`);
      assert.equal(b.lastUsed, a.lastUsed, `${id} last used`);
    }
    assert.deepEqual(after.sessions, ['s3']);
    assert.deepEqual(compactEvents(parseUsageLog(text).events, 1).changed, false, 'a second compaction changes nothing');
  });
});

describe('echo score', () => {
  test('etched scores 1.0 whatever its age', () => {
    assert.equal(echoScore(makeEntry({ layer: 'etched', verified: '2001-01-01' }), { now, relevance: 0 }), 1);
  });

  test('a fresh, always-referenced inscribed entry scores 0.88', () => {
    assert.equal(echoScore(makeEntry({ layer: 'inscribed', verified: '2026-04-01' }), { now, relevance: 1 }), 0.88);
  });

  test('recency falls linearly over the layer max age', () => {
    // 45 of 90 days: recency 0.5 → 0.28 + 0 + 0.15
    assert.equal(echoScore(makeEntry({ layer: 'inscribed', verified: '2026-02-15' }), { now, relevance: 0 }), 0.43);
    // 15 of 30 days for traced: 0.12 + 0.15
    assert.equal(echoScore(makeEntry({ layer: 'traced', verified: '2026-03-17' }), { now, relevance: 0 }), 0.27);
  });

  test('recency uses the heading date when verified is missing, and 0 when both are', () => {
    const noVerified = makeEntry({ layer: 'traced', verified: '', date: '2026-04-01' });
    assert.equal(echoScore(noVerified, { now, relevance: 0 }), 0.42);
    const noDates = makeEntry({ layer: 'traced', verified: 'soon', date: '' });
    assert.equal(echoScore(noDates, { now, relevance: 0 }), 0.12);
  });

  test('scores stay within 0..1 for future dates and out-of-range relevance', () => {
    const future = makeEntry({ layer: 'inscribed', verified: '2027-01-01' });
    assert.equal(echoScore(future, { now, relevance: 7 }), 0.88);
    assert.equal(echoScore(future, { now, relevance: Number.NaN }), 0.58);
  });

  test('impossible calendar days are not dates', () => {
    assert.equal(parseDay('2026-02-31'), null);
    assert.equal(parseDay('2026-2-3'), null);
    assert.equal(parseDay('2024-02-29'), Date.UTC(2024, 1, 29));
  });

  test('scoreEntries derives relevance, age and unreferenced days from the log', () => {
    const entries = [
      makeEntry({ id: 'a', layer: 'inscribed', verified: '2026-01-01' }),
      makeEntry({ id: 'b', layer: 'traced', verified: '2026-03-25' }),
      makeEntry({ id: 'c', layer: 'inscribed', verified: '', date: '' }),
    ];
    const events = [
      ev('s1', '2026-03-20T09:00:00Z', ['r#a'], 'injected'),
      ev('s1', '2026-03-20T09:00:00Z', ['r#a']),
      ev('s2', '2026-03-21T09:00:00Z', []),
      ev('s3', '2026-03-22T09:00:00Z', ['r#a', 'r#b']),
      ev('s4', '2026-03-23T09:00:00Z', []),
    ];
    const [a, b, c] = scoreEntries(entries, events, now, 20, { role: 'r' });
    assert.deepEqual(a, { id: 'a', score: 0.43, relevance: 0.5, ageDays: 90, unreferencedDays: 10, injected: 1, used: 2 });
    // b was verified after its last reference: the later day counts.
    assert.equal(b!.unreferencedDays, 7);
    assert.equal(b!.relevance, 0.25);
    assert.deepEqual(c, { id: 'c', score: 0.28, relevance: 0, ageDays: null, unreferencedDays: null, injected: 0, used: 0 });
  });

  test('an entry whose evidence changed since it was verified has no recency until verified again', () => {
    const fresh = makeEntry({ layer: 'inscribed', verified: '2026-04-01' });
    assert.equal(echoScore(fresh, { now, relevance: 0 }), 0.58);
    assert.equal(echoScore(fresh, { now, relevance: 0, stale: true }), 0.28);
    assert.equal(echoScore(makeEntry({ layer: 'etched' }), { now, relevance: 0, stale: true }), 1, 'etched stays at the top');
  });

  test('with an empty log every relevance is 0', () => {
    const [a] = scoreEntries([makeEntry({ id: 'a' })], [], now, 20);
    assert.equal(a!.relevance, 0);
  });
});
