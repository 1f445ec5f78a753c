import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { echoScore, parseDay, scoreEntries } from '../../src/core/lifecycle/echo-score.ts';
import { formatUsageEvent, parseUsageLog, relevanceIndex, type UsageEvent } from '../../src/core/lifecycle/usage-events.ts';
import { makeEntry } from './entry-arbitrary.ts';

const now = new Date('2026-04-01T12:00:00Z');

function ev(session: string, ts: string, ids: string[], event: UsageEvent['event'] = 'referenced'): UsageEvent {
  return { ts, session, event, ids };
}

describe('usage log', () => {
  test('parses valid lines and reports bad ones without losing the rest', () => {
    const text = [
      '{"ts":"2026-03-01T10:00:00Z","session":"a","event":"injected","ids":["x","y"],"tokens":812}',
      '',
      '{"ts":"2026-03-01T10:05:00Z","session":"a","event":"referenced","ids":["x"]}\r',
      '{"ts":"2026-03-02T10:00:00Z","session":"b","event":"inj', // crash mid-append
      '{"ts":"2026-03-02T10:00:00Z","session":"b","event":"read","ids":[]}',
      '[1,2]',
      '{"ts":"2026-03-02T10:00:00Z","session":"b","event":"referenced","ids":[3]}',
      '{"ts":"2026-03-02T11:00:00Z","session":"b","event":"referenced","ids":["z"],"extra":true}',
    ].join('\n');
    const { events, issues } = parseUsageLog(text);
    assert.deepEqual(events, [
      { ts: '2026-03-01T10:00:00Z', session: 'a', event: 'injected', ids: ['x', 'y'], tokens: 812 },
      { ts: '2026-03-01T10:05:00Z', session: 'a', event: 'referenced', ids: ['x'] },
      { ts: '2026-03-02T11:00:00Z', session: 'b', event: 'referenced', ids: ['z'] },
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
    const e: UsageEvent = { ts: '2026-03-01T10:00:00Z', session: 's1', event: 'injected', ids: ['a', 'b'], tokens: 40 };
    const line = formatUsageEvent(e);
    assert.equal(line, '{"ts":"2026-03-01T10:00:00Z","session":"s1","event":"injected","ids":["a","b"],"tokens":40}\n');
    assert.deepEqual(parseUsageLog(line + formatUsageEvent({ ...e, tokens: undefined })).events, [
      e,
      { ts: e.ts, session: 's1', event: 'injected', ids: ['a', 'b'] },
    ]);
  });

  test('an entry counts once per session whether injected, referenced or both', () => {
    const index = relevanceIndex([
      ev('a', '2026-03-01T10:00:00Z', ['x'], 'injected'),
      ev('a', '2026-03-01T10:01:00Z', ['x', 'x']),
      ev('b', '2026-03-02T10:00:00Z', ['x', 'y']),
    ]);
    assert.deepEqual(index.sessions, ['a', 'b']);
    assert.equal(index.referencedBy.get('x'), 2);
    assert.equal(index.referencedBy.get('y'), 1);
  });

  test('the window keeps only the last N sessions, ordered by their first timestamp', () => {
    // c started before b but appended later (concurrent sessions interleave).
    const events = [
      ev('a', '2026-03-01T10:00:00Z', ['x']),
      ev('b', '2026-03-03T10:00:00Z', ['y']),
      ev('c', '2026-03-02T10:00:00Z', ['z']),
      ev('c', '2026-03-04T10:00:00Z', ['z']),
    ];
    const index = relevanceIndex(events, 2);
    assert.deepEqual(index.sessions, ['c', 'b']);
    assert.equal(index.referencedBy.get('x'), undefined);
    assert.equal(index.lastReferenced.get('x'), '2026-03-01T10:00:00Z', 'last reference looks at the whole log');
    assert.equal(index.lastReferenced.get('z'), '2026-03-04T10:00:00Z');
  });

  test('sessions without a valid timestamp keep their place in file order', () => {
    const index = relevanceIndex([ev('a', '2026-03-01T10:00:00Z', []), ev('b', 'garbage', []), ev('c', '2026-03-02T10:00:00Z', [])]);
    assert.deepEqual(index.sessions, ['a', 'b', 'c']);
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
      ev('s1', '2026-03-20T09:00:00Z', ['a'], 'injected'),
      ev('s2', '2026-03-21T09:00:00Z', []),
      ev('s3', '2026-03-22T09:00:00Z', ['a', 'b']),
      ev('s4', '2026-03-23T09:00:00Z', []),
    ];
    const [a, b, c] = scoreEntries(entries, events, now, 20);
    assert.deepEqual(a, { id: 'a', score: 0.43, relevance: 0.5, ageDays: 90, unreferencedDays: 10 });
    // b was verified after its last reference: the later day counts.
    assert.equal(b!.unreferencedDays, 7);
    assert.equal(b!.relevance, 0.25);
    assert.deepEqual(c, { id: 'c', score: 0.28, relevance: 0, ageDays: null, unreferencedDays: null });
  });

  test('with an empty log every relevance is 0', () => {
    const [a] = scoreEntries([makeEntry({ id: 'a' })], [], now, 20);
    assert.equal(a!.relevance, 0);
  });
});
