// Thirty sessions, simulated with the pure core and `now` passed in (issue 11):
// eight lessons are given by every digest but never used; three older ones,
// outside the digest at first, are used by the sessions (their evidence is
// touched). Relevance comes from use alone, so the used ones must overtake the
// never-used ones within five sessions; a lesson another one supersedes must
// leave the digest the session it is superseded; and the digest must stay
// within its budget all along.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { type UsageEvent, usageKey } from '../../src/core/lifecycle/usage-events.ts';
import { buildDigest, type DigestEntry, digestCandidates, MAX_LESSONS } from '../../src/core/recall/digest.ts';
import { makeEntry } from './entry-arbitrary.ts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 5, 1, 9);
const BUDGET = 1500;

const lesson = (id: string, verified: string, over: Partial<EchoEntry> = {}): EchoEntry =>
  makeEntry({
    id,
    title: `Lesson ${id}`,
    layer: 'inscribed',
    verified,
    date: verified,
    learning: `What ${id} says, in a sentence.`,
    ...over,
  });

test('over 30 sessions, used lessons overtake never-used ones within 5 sessions, a superseded one leaves at once, and the digest stays in budget', (t) => {
  // Given every time, never used: fresh, so they fill the digest's lessons at first.
  const idle = Array.from({ length: MAX_LESSONS }, (_, i) => lesson(`idle-${i + 1}`, '2026-06-01'));
  // Used by the sessions: verified two months earlier, so they start below every idle one.
  const used = ['used-a', 'used-b', 'used-c'].map((id) => lesson(id, '2026-04-01'));
  const facts = [makeEntry({ id: 'fact', title: 'Node 22 only', layer: 'etched', learning: 'The service runs on Node 22.' })];
  const entries: EchoEntry[] = [...facts, ...idle, ...used];
  const events: UsageEvent[] = [];
  const key = (id: string) => usageKey('reviewer', id);
  const lessonIds = (d: { lessons: DigestEntry[] }) =>
    [...d.lessons].sort((a, b) => b.score - a.score || (a.entry.id < b.entry.id ? -1 : 1)).map((l) => l.entry.id);

  let overtakenAt: number | null = null;
  const SUPERSEDE_AT = 12;
  for (let s = 1; s <= 30; s++) {
    const now = new Date(START + s * DAY);
    const session = `s${s}`;
    if (s === SUPERSEDE_AT)
      entries.push(lesson('used-a-v2', now.toISOString().slice(0, 10), { supersedes: 'used-a', learning: 'What used-a says now.' }));
    const items = entries.map((entry) => ({ role: 'reviewer', entry }));
    const candidates = digestCandidates(items, events, now, 20);
    const digest = buildDigest({
      lastSession: '# Last session — earlier\n## Asked\n- keep going\n',
      etched: candidates.etched,
      lessons: candidates.lessons,
      counts: { entries: candidates.live, archiveLogs: s, solutions: 0 },
      budgetTokens: BUDGET,
    });
    assert.ok(digest.tokens <= BUDGET, `session ${s}: ${digest.tokens} tokens`);
    assert.ok(digest.injectedIds.includes('fact'), `session ${s}: the etched fact is always given`);

    const ranked = lessonIds(candidates);
    const rank = (id: string) => ranked.indexOf(id);
    if (s === 1) {
      for (const u of used) assert.ok(!digest.injectedIds.includes(u.id), `${u.id} starts outside the digest`);
      assert.ok(
        used.every((u) => idle.every((i) => rank(u.id) > rank(i.id))),
        `at the start every idle lesson ranks above every used one: ${ranked.join(', ')}`,
      );
    }
    const stillUsed = used.filter((u) => !(s >= SUPERSEDE_AT && u.id === 'used-a'));
    if (overtakenAt === null && stillUsed.every((u) => idle.every((i) => rank(u.id) < rank(i.id)))) overtakenAt = s;
    if (overtakenAt !== null && s < SUPERSEDE_AT) {
      for (const u of used) assert.ok(digest.injectedIds.includes(u.id), `session ${s}: ${u.id} is in the digest once it has overtaken`);
    }

    if (s >= SUPERSEDE_AT) {
      assert.ok(!digest.injectedIds.includes('used-a'), `session ${s}: the superseded lesson is not given`);
      assert.ok(!ranked.includes('used-a'), `session ${s}: nor is it a candidate`);
      assert.ok(digest.injectedIds.includes('used-a-v2'), `session ${s}: its successor is given`);
    }

    // What the session did: the digest's entries were injected; the used lessons' evidence was touched.
    events.push({
      ts: now.toISOString(),
      session,
      event: 'injected',
      via: 'session-start',
      ids: digest.injectedKeys,
      tokens: digest.tokens,
    });
    const touched = stillUsed.map((u) => u.id).concat(s >= SUPERSEDE_AT ? ['used-a-v2'] : []);
    events.push({ ts: new Date(now.getTime() + 3600_000).toISOString(), session, event: 'used', ids: touched.map(key) });
  }
  assert.ok(overtakenAt !== null && overtakenAt <= 5, `the used lessons overtook the idle ones at session ${overtakenAt}`);
  t.diagnostic(`the used lessons ranked above every idle one from session ${overtakenAt}`);

  // Given 30 times, used never: no relevance at all (the old log made them 0.88 and kept them on top).
  const final = digestCandidates(
    entries.map((entry) => ({ role: 'reviewer', entry })),
    events,
    new Date(START + 31 * DAY),
    20,
  );
  const idleScores = final.lessons.filter((l) => l.entry.id.startsWith('idle-')).map((l) => l.score);
  const usedScores = final.lessons.filter((l) => l.entry.id.startsWith('used-')).map((l) => l.score);
  assert.ok(Math.min(...usedScores) > Math.max(...idleScores), `used ${usedScores} above idle ${idleScores}`);
});
