// The memory report's pure parts: the one escaper, where an entry came from,
// what each hook gave and what was used, weeks and timelines, and the page:
// self-contained, under a strict policy, with no markup from data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import type { UsageEvent } from '../../src/core/lifecycle/usage-events.ts';
import { escapeHtml, html, Markup } from '../../src/core/report/report-html-text.ts';
import {
  archiveTimeline,
  capturedByWeek,
  entryOrigin,
  MAX_BUCKETS,
  parseArchiveIndex,
  type ReportInput,
  usageView,
  weekOf,
  windowUse,
} from '../../src/core/report/report-model.ts';
import { REPORT_CSP, renderReport } from '../../src/core/report/report-page.ts';
import { isPersonalPath, PERSONAL_PATTERNS } from '../../src/core/team/shared-files.ts';
import { HOSTILE } from '../helpers/report-stores.ts';

/** What a browser's parser would take from escaped text: entities back to characters. */
const decodeEntities = (s: string) =>
  s.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' })[e]!);

test('escapeHtml leaves no character that opens a tag, ends an attribute or starts an entity, and reads back as the text', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
      const out = escapeHtml(text);
      assert.doesNotMatch(out, /[<>"'`]/);
      assert.doesNotMatch(out, /&(?!(amp|lt|gt|quot|#39|#96);)/);
      assert.equal(decodeEntities(out), text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g, '\uFFFD'));
    }),
  );
  assert.equal(escapeHtml(`<script>alert("x")</script>`), '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  assert.equal(escapeHtml(`" onerror='x'`), '&quot; onerror=&#39;x&#39;');
  assert.equal(escapeHtml('a\u0000b\uD800c'), 'a\uFFFDb\uFFFDc');
});

test('the html template escapes every value, in text and in attributes, and keeps only markup it made', () => {
  const payload = `"><img src=x onerror=alert(1)>`;
  const out = html`<p title="${payload}">${payload}${[payload, 3]}${new Markup('<b>ok</b>')}${null}${false}</p>`.text;
  assert.equal(
    out,
    '<p title="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt;3<b>ok</b></p>',
  );
  // A string that looks like markup is still text: only a Markup value made here passes.
  assert.equal(html`${'<b>'}`.text, '&lt;b&gt;');
});

const entry = (over: Partial<EchoEntry>): EchoEntry => ({
  id: 'e',
  idExplicit: true,
  date: '2026-11-02',
  kind: 'Pattern',
  title: 't',
  layer: 'inscribed',
  source: 'agent:reviewer',
  confidence: 0.8,
  evidence: '',
  verified: '2026-11-02',
  supersedes: 'none',
  tags: [],
  learning: '',
  extra: [],
  ...over,
});

test('an entry comes from capture, an agent, another tool, a person, or a teammate who is named on it', () => {
  assert.equal(entryOrigin(entry({ captured: 'fix', source: 'capture (session abcd1234)' })), 'captured');
  assert.equal(entryOrigin(entry({ source: 'capture (session abcd1234)' })), 'captured');
  assert.equal(entryOrigin(entry({ source: 'agent:reviewer' })), 'recorded');
  assert.equal(entryOrigin(entry({ source: 'review-agent' })), 'recorded');
  assert.equal(entryOrigin(entry({ source: 'auto-memory' })), 'imported');
  assert.equal(entryOrigin(entry({ source: 'agent-memory:code-reviewer' })), 'imported');
  assert.equal(entryOrigin(entry({ source: 'claude-md' })), 'imported');
  assert.equal(entryOrigin(entry({ source: 'user' })), 'remembered');
  assert.equal(entryOrigin(entry({ source: 'user', extra: [['provenance', 'sam']] })), 'teammate');
  assert.equal(entryOrigin(entry({ captured: 'fix', extra: [['author', 'sam']] })), 'teammate');
  // One's own name is not a teammate's.
  assert.equal(entryOrigin(entry({ source: 'user', extra: [['provenance', 'sam']] }), { self: 'sam' }), 'remembered');
  // What the store knows of team memory's provenance comes first.
  assert.equal(entryOrigin(entry({ source: 'agent:reviewer' }), { teammate: true }), 'teammate');
  assert.equal(entryOrigin(entry({ source: 'agent:reviewer' }), { teammate: false }), 'recorded');
});

const ev = (session: string, ts: string, event: 'injected' | 'used', ids: string[], via?: UsageEvent['via']): UsageEvent => ({
  ts,
  session,
  event,
  ids,
  ...(via ? { via } : {}),
});

test('per session, each hook counts the entries it gave and how many of them the session used', () => {
  const events = [
    ev('compacted', '2026-01-01T00:00:00Z', 'injected', ['team#a'], 'session-start'),
    ev('s1', '2026-11-01T10:00:00Z', 'injected', ['team#a', 'team#b'], 'session-start'),
    ev('s1', '2026-11-01T10:01:00Z', 'injected', ['team#c'], 'prompt'),
    ev('s1', '2026-11-01T10:02:00Z', 'injected', ['team#c'], 'prompt'),
    ev('s1', '2026-11-01T10:03:00Z', 'used', ['team#a', 'team#c', 'team#z']),
    ev('s2', '2026-11-02T10:00:00Z', 'injected', ['team#a']),
    ev('s2', '2026-11-02T10:01:00Z', 'injected', ['team#d'], 'subagent'),
    ev('s2', '2026-11-02T10:02:00Z', 'injected', ['team#d'], 'failure'),
    ev('s2', '2026-11-02T10:05:00Z', 'used', ['d']),
  ];
  const view = usageView(events, 20);
  assert.deepEqual(
    view.sessions.map((s) => s.session),
    ['s1', 's2'],
  );
  assert.deepEqual(view.sessions[0]!.byVia, {
    'session-start': { injected: 2, used: 1 },
    prompt: { injected: 1, used: 1 },
    subagent: { injected: 0, used: 0 },
    failure: { injected: 0, used: 0 },
  });
  assert.equal(view.sessions[0]!.used, 3);
  assert.equal(view.sessions[0]!.start, '2026-11-01T10:00:00Z');
  // An injected line without a hook is the digest's; a bare id used is the role's entry.
  assert.deepEqual(view.sessions[1]!.byVia['session-start'], { injected: 1, used: 0 });
  assert.deepEqual(view.sessions[1]!.byVia.subagent, { injected: 1, used: 1 });
  assert.deepEqual(view.sessions[1]!.byVia.failure, { injected: 1, used: 1 });
  assert.deepEqual(view.byVia.prompt, { injected: 1, used: 1 });
  assert.deepEqual(windowUse(view, 'team', 'a'), {
    key: 'team#a',
    givenBy: { 'session-start': 2, prompt: 0, subagent: 0, failure: 0 },
    usedIn: 1,
  });
  assert.deepEqual(windowUse(view, 'team', 'd'), {
    key: 'team#d',
    givenBy: { 'session-start': 0, prompt: 0, subagent: 1, failure: 1 },
    usedIn: 1,
  });
  // The window keeps the last sessions only.
  assert.deepEqual(
    usageView(events, 1).sessions.map((s) => s.session),
    ['s2'],
  );
});

test('captured lessons count by ISO week and kind, empty weeks included', () => {
  assert.equal(weekOf('2026-11-27'), '2026-11-23');
  assert.equal(weekOf('2026-11-23'), '2026-11-23');
  assert.equal(weekOf('2026-11-22'), '2026-11-16');
  assert.equal(weekOf('soon'), null);
  const weeks = capturedByWeek([
    entry({ captured: 'fix', date: '2026-11-02' }),
    entry({ captured: 'fix', date: '2026-11-03' }),
    entry({ captured: 'commands', date: '2026-11-20' }),
    entry({ date: '2026-11-20' }),
    entry({ captured: 'obstacle', date: '', verified: '2026-11-21' }),
  ]);
  assert.deepEqual(
    weeks.map((w) => [w.week, w.total, w.counts]),
    [
      ['2026-11-02', 2, { fix: 2 }],
      ['2026-11-09', 0, {}],
      ['2026-11-16', 2, { commands: 1, obstacle: 1 }],
    ],
  );
});

test('ARCHIVE.md lines become a timeline by day, by week past its width, gaps kept', () => {
  const lines = parseArchiveIndex(
    '# Archive\n\nOne line…\n\n- 001 · 2026-11-01 · session-end · a, b\n- 002 · 2026-11-03 · pre-compact · c\n- 003 · unknown date · session-end · recovered index line\nnot a line\n',
  );
  assert.deepEqual(lines[0], { seq: 1, date: '2026-11-01', trigger: 'session-end', topics: 'a, b' });
  assert.equal(lines[2]!.date, '');
  const daily = archiveTimeline(lines);
  assert.deepEqual(
    daily.buckets.map((b) => [b.from, b.logs.length]),
    [
      ['2026-11-01', 1],
      ['2026-11-02', 0],
      ['2026-11-03', 1],
    ],
  );
  assert.equal(daily.undated, 1);
  const year = Array.from({ length: 400 }, (_, i) => ({
    seq: i + 1,
    date: new Date(Date.UTC(2025, 0, 1) + i * 86_400_000 * 2).toISOString().slice(0, 10),
    trigger: 'session-end',
    topics: 'x',
  }));
  const weekly = archiveTimeline(year);
  assert.equal(weekly.buckets[0]!.days, 7);
  assert.equal(weekly.cut, 0);
  assert.equal(
    weekly.buckets.reduce((n, b) => n + b.logs.length, 0),
    400,
  );
  // Past the widest timeline, the earliest weeks are left out and counted.
  const long = year.map((l, i) => ({ ...l, date: new Date(Date.UTC(2023, 0, 1) + i * 86_400_000 * 3).toISOString().slice(0, 10) }));
  const cut = archiveTimeline(long);
  assert.equal(cut.buckets.length, MAX_BUCKETS);
  assert.ok(cut.cut > 0);
});

function hostileInput(): ReportInput {
  const payloads = HOSTILE;
  const entries = payloads.map((p, i) => ({
    entry: entry({
      id: `e-${i}`,
      title: p,
      source: p,
      captured: i === 0 ? p : undefined,
      sessions: p,
      signature: p,
      extra: [['provenance', p]] as Array<[string, string]>,
      date: '2026-11-20',
    }),
    score: { id: `e-${i}`, score: 0.5, relevance: 0, ageDays: 3, unreferencedDays: 3, injected: 4, used: 0 },
    staleSince: p,
    supersededBy: p,
  }));
  return {
    generatedAt: '2026-11-27T10:00:00.000Z',
    project: payloads[0]!,
    limits: { memoryMaxLines: 150, knowledgeMaxLines: 300, relevanceWindow: 20 },
    roles: [{ role: payloads[1]!, memoryLines: 10, knowledgeLines: 0, pendingFindings: 0, entries, error: payloads[2] }],
    archive: { logs: 2, index: payloads.map((p, i) => ({ seq: i + 1, date: `2026-11-2${i}`, trigger: p, topics: p })) },
    ephemeral: 'waiting',
    problems: payloads,
    hooks: [{ hook: payloads[3]!, lastRun: null }],
    events: payloads.flatMap((p) => [
      { ts: '2026-11-27T09:00:00Z', session: p, event: 'injected' as const, via: 'prompt' as const, ids: [`${payloads[1]}#e-0`, p] },
      { ts: '2026-11-27T09:00:00Z', session: p, event: 'used' as const, ids: [p] },
    ]),
    readProblems: payloads,
  };
}

test('the page carries no markup from data: every hostile text is shown as text', () => {
  const page = renderReport(hostileInput());
  // The only tags are the page's own: no script, image, link, frame, object, form or event handler anywhere.
  assert.doesNotMatch(page, /<script|<img|<a\s[^>]*href="(?!#)|<iframe|<object|<embed|<form|<link|<base/i);
  assert.doesNotMatch(page, /<[^>]*\son[a-z]+\s*=/i);
  assert.doesNotMatch(page, /href="javascript:/i);
  // Each payload is there, escaped.
  for (const p of HOSTILE) assert.ok(page.includes(escapeHtml(p)), p);
});

test('the page is self-contained under a strict policy: no script, no network, no font or image from outside', () => {
  const page = renderReport({ ...hostileInput(), roles: [], events: [], archive: { logs: 0, index: [] }, problems: [], readProblems: [] });
  assert.ok(page.includes(`<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">`));
  assert.match(REPORT_CSP, /default-src 'none'/);
  assert.doesNotMatch(REPORT_CSP, /script-src|unsafe-eval|https?:/);
  assert.doesNotMatch(page, /https?:\/\/|\/\/[a-z0-9.-]+\.[a-z]{2,}\/|@import|url\((?!#)/i);
  assert.doesNotMatch(page, /\ssrc=|\shref="(?!#)/i);
});

test('the page says so when there is nothing yet', () => {
  const page = renderReport({
    generatedAt: '2026-11-27T10:00:00.000Z',
    project: 'p',
    limits: { memoryMaxLines: 150, knowledgeMaxLines: 300, relevanceWindow: 20 },
    roles: [],
    archive: { logs: 0, index: [] },
    ephemeral: 'none',
    problems: [],
    hooks: [{ hook: 'session-start', lastRun: null }],
    events: [],
    readProblems: [],
  });
  for (const text of ['No roles yet', 'No session has been given memory yet', 'Nothing captured yet', 'No archive logs yet', 'never'])
    assert.ok(page.includes(text), text);
  assert.match(page, /data-figure="entries">0</);
});

test('report.html is one of the personal files: git-ignored in every mode, never read from a copy git tracks', () => {
  assert.ok(PERSONAL_PATTERNS.some((p) => p.pattern === '/report.html'));
  assert.ok(isPersonalPath('report.html'));
  assert.ok(!isPersonalPath('team/report.html'));
});
