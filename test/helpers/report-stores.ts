// Synthetic stores for the memory report: empty, typical (a few weeks of a
// small team's use), large (5 roles at their limits, 3,000 archive logs,
// 10,000 usage events) and hostile (markup and script in every text the page
// shows). Written the way the hooks and the CLI leave them; every date is
// relative to `now`, so "this week" is this week for whoever runs it.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';

const DAY = 86_400_000;
const dayOf = (now: Date, back: number) => new Date(now.getTime() - back * DAY).toISOString().slice(0, 10);

export const REPORT_ROLES = ['planner', 'workers', 'reviewer', 'auditor', 'team'];
const HOOK_NAMES = ['session-start', 'user-prompt-submit', 'stop', 'subagent-start', 'subagent-stop', 'pre-compact', 'session-end'];
const CAPTURED = ['commands', 'fix', 'correction', 'obstacle'] as const;
const TOPICS = ['payment retries', 'auth tokens', 'flaky tests', 'build cache', 'search index', 'migrations', 'rate limits', 'logging'];

function makeEntry(role: string, i: number, now: Date, over: Partial<EchoEntry> = {}): EchoEntry {
  const origin = i % 5;
  const base: EchoEntry = {
    id: `${role}-lesson-${i}`,
    idExplicit: true,
    date: dayOf(now, 3 + ((i * 7) % 80)),
    kind: 'Pattern',
    title: `${role} lesson ${i}: ${TOPICS[i % TOPICS.length]} need a second look`,
    layer: i < 2 ? 'etched' : i % 3 === 0 ? 'traced' : 'inscribed',
    source: origin === 0 ? 'user' : origin === 1 ? 'auto-memory' : `agent:${role}-agent`,
    confidence: 0.8,
    evidence: `\`src/${role}/module${i % 7}.ts:${10 + i}\` — where it showed`,
    verified: dayOf(now, 2 + ((i * 5) % 60)),
    supersedes: 'none',
    tags: [],
    learning: `When working on ${TOPICS[i % TOPICS.length]}, check module ${i % 7} first; it is where the ${role} found the problem.`,
    extra: origin === 4 && role === 'team' ? [['provenance', 'alex@example.org']] : [],
  };
  return { ...base, ...over };
}

function capturedEntry(i: number, now: Date): EchoEntry {
  const kind = CAPTURED[i % CAPTURED.length]!;
  return makeEntry('team', 100 + i, now, {
    id: `captured-${kind}-${i}`,
    kind: kind === 'commands' ? 'Commands' : 'Lesson',
    title: `Captured ${kind} ${i}: ${kind === 'fix' ? 'regenerate the client before the build' : kind === 'correction' ? 'keep the public API stable' : kind === 'obstacle' ? 'the cache folder fills the disk' : 'npm run build, npm test'}`,
    date: dayOf(now, (i * 3) % 35),
    verified: dayOf(now, (i * 3) % 35),
    layer: i % 4 === 0 ? 'inscribed' : 'traced',
    source: `capture (session ${String(i).padStart(8, 'a')})`,
    captured: kind,
    extra: [],
    signature: `${kind}:sig-${i}`,
    sessions: i % 4 === 0 ? 'aaaa0001, aaaa0002' : 'aaaa0003',
  });
}

function writeRole(echoes: string, role: string, entries: EchoEntry[], knowledgeLines = 0): void {
  mkdirSync(join(echoes, role), { recursive: true });
  writeFileSync(join(echoes, role, 'MEMORY.md'), memoryText(role, entries));
  if (knowledgeLines > 0) {
    const lines = [`# ${role} knowledge`, ''];
    for (let i = 0; lines.length < knowledgeLines; i++) lines.push(`- knowledge line ${i}: keep the ${role} checks in module ${i % 9}`);
    writeFileSync(join(echoes, role, 'knowledge.md'), `${lines.join('\n')}\n`);
  }
}

const memoryText = (role: string, entries: EchoEntry[]) =>
  `<!-- echo-schema: v2 -->\n# ${role} Memory\n\n${entries.map((e) => renderEntry(e)).join('\n')}`;

/** As many entries as fit in `limit` lines. */
function entriesToLimit(role: string, limit: number, now: Date): EchoEntry[] {
  const out: EchoEntry[] = [];
  for (let i = 0; ; i++) {
    const next = [...out, makeEntry(role, i, now)];
    if (memoryText(role, next).split('\n').length - 1 > limit) return out;
    out.push(next.at(-1)!);
  }
}

function archive(echoes: string, count: number, now: Date, spanDays: number, topics: (i: number) => string): void {
  mkdirSync(join(echoes, 'memories'), { recursive: true });
  const index: string[] = [];
  for (let i = 1; i <= count; i++) {
    const n = String(i).padStart(3, '0');
    const date = dayOf(now, Math.floor(((count - i) * spanDays) / count));
    const trigger = i % 7 === 0 ? 'pre-compact' : 'session-end';
    writeFileSync(
      join(echoes, 'memories', `archive-log-${n}.md`),
      `# Archive log ${n}\n- session: sess${n}\n- trigger: ${trigger}\n- span: ${date} 09:00 → ${date} 10:00\n\n## Asked\n- ${topics(i)}\n`,
    );
    index.push(`- ${n} · ${date} · ${trigger} · ${topics(i)}`);
  }
  writeFileSync(
    join(echoes, 'ARCHIVE.md'),
    `# Archive\n\nOne line per archive log in memories/: number · date · trigger · topics.\n\n${index.join('\n')}\n`,
  );
}

/** `count` usage events over `sessions` sessions: each session's digest, prompt recall and subagent starts, and what it used of them. */
function usage(echoes: string, roles: Array<{ role: string; ids: string[] }>, now: Date, count: number, sessions: number): number {
  const keys = roles.flatMap((r) => r.ids.map((id) => `${r.role}#${id}`));
  const key = (n: number) => keys[((n % keys.length) + keys.length) % keys.length]!;
  const lines: string[] = [];
  for (let round = 0; lines.length < count; round++) {
    for (let s = 0; s < sessions && lines.length < count; s++) {
      const session = `${(0x1000 + s).toString(16)}aaaa-bbbb-cccc-dddd-${String(s).padStart(12, '0')}`;
      const ts = new Date(now.getTime() - (sessions - s) * 3_600_000 * 5 + round * 60_000).toISOString();
      const digest = Array.from({ length: 6 }, (_, j) => key(j * 5 + (s % 3)));
      const prompt = [key(s * 7 + round), key(s * 7 + round + 13)];
      const subagent = [key(s * 3 + 2), key(s * 3 + 19), key(s * 3 + 23)];
      const used = [
        ...(s % 2 === 0 ? [digest[s % 6]!] : []),
        ...(s % 3 !== 2 ? [prompt[0]!] : []),
        ...(s % 4 === 1 ? [subagent[1]!] : []),
        ...(s % 5 === 0 ? [key(s + 31)] : []),
      ];
      const batch = [
        round === 0 ? { ts, session, event: 'injected', via: 'session-start', ids: digest, tokens: 900 } : null,
        { ts, session, event: 'injected', via: 'prompt', ids: prompt, tokens: 200 },
        round % 2 === 0 ? { ts, session, event: 'injected', via: 'subagent', agent: 'reviewer', ids: subagent, tokens: 400 } : null,
        // A session that worked writes its `used` line at its end, with no ids when it used nothing.
        { ts, session, event: 'used', ids: used },
      ];
      for (const e of batch) if (e && lines.length < count) lines.push(JSON.stringify(e));
    }
  }
  writeFileSync(join(echoes, 'usage.jsonl'), `${lines.join('\n')}\n`);
  return lines.length;
}

function hookRuns(echoes: string, now: Date, never: string[] = []): void {
  mkdirSync(join(echoes, '.state'), { recursive: true });
  HOOK_NAMES.forEach((hook, i) => {
    if (never.includes(hook)) return;
    const file = join(echoes, '.state', `last-run-${hook}`);
    writeFileSync(file, '');
    const at = new Date(now.getTime() - (i + 1) * 600_000);
    utimesSync(file, at, at);
  });
}

export interface StoreFacts {
  roles: number;
  entries: number;
  archiveLogs: number;
  usageEvents: number;
  captured: number;
}

/** A project with `.claude/` and no memory yet. */
export function emptyReportStore(dir: string): StoreFacts {
  mkdirSync(join(dir, '.claude'), { recursive: true });
  return { roles: 0, entries: 0, archiveLogs: 0, usageEvents: 0, captured: 0 };
}

/** A few weeks of a small team's use: four roles, captured lessons, 40 hand-offs, 25 sessions of usage. */
export function typicalReportStore(dir: string, now: Date): StoreFacts {
  const echoes = join(dir, '.claude', 'echoes');
  const roles = [
    { role: 'planner', n: 6 },
    { role: 'reviewer', n: 9 },
    { role: 'workers', n: 7 },
  ].map(({ role, n }) => ({ role, entries: Array.from({ length: n }, (_, i) => makeEntry(role, i, now)) }));
  const team = [
    ...Array.from({ length: 4 }, (_, i) => makeEntry('team', i + 1, now)),
    ...Array.from({ length: 8 }, (_, i) => capturedEntry(i, now)),
  ];
  roles.push({ role: 'team', entries: team });
  for (const r of roles) writeRole(echoes, r.role, r.entries, r.role === 'team' ? 40 : 0);
  writeFileSync(
    join(echoes, 'reviewer', 'reviewer-agent-findings.md'),
    '### [2026-01-01] Pattern: pending\n- **layer**: traced\n\npending\n',
  );
  archive(echoes, 40, now, 30, (i) => `${TOPICS[i % TOPICS.length]}, ${TOPICS[(i + 3) % TOPICS.length]}`);
  const events = usage(
    echoes,
    roles.map((r) => ({ role: r.role, ids: r.entries.map((e) => e.id) })),
    now,
    100,
    25,
  );
  hookRuns(echoes, now, ['subagent-stop']);
  writeFileSync(join(echoes, '.log'), `${dayOf(now, 4)}T10:00:00Z stop: consolidation waited too long for the lock\n`);
  writeFileSync(join(echoes, 'EPHEMERAL.md'), '# Last session\n## Asked\n- Fix the payment retry backoff\n');
  const entries = roles.reduce((n, r) => n + r.entries.length, 0);
  return { roles: roles.length, entries, archiveLogs: 40, usageEvents: events, captured: 8 };
}

/** Months of use: 5 roles at their 150-line limit with 300-line knowledge.md, 3,000 archive logs over a year, 10,000 usage events. */
export function largeReportStore(dir: string, now: Date, limit = 150): StoreFacts {
  const echoes = join(dir, '.claude', 'echoes');
  const roles = REPORT_ROLES.map((role) => {
    let entries = entriesToLimit(role, limit, now);
    if (role === 'team') {
      // Captured lessons take the place of ordinary ones, and the file stays at its limit.
      const captured = Array.from({ length: 8 }, (_, i) => capturedEntry(i, now));
      entries = [...entries.slice(0, Math.max(0, entries.length - 8)), ...captured];
      while (memoryText(role, entries).split('\n').length - 1 > limit) entries.shift();
    }
    return { role, entries };
  });
  for (const r of roles) writeRole(echoes, r.role, r.entries, 300);
  archive(echoes, 3000, now, 400, (i) => `refactor module ${i % 50}, ${TOPICS[i % TOPICS.length]}`);
  const events = usage(
    echoes,
    roles.map((r) => ({ role: r.role, ids: r.entries.map((e) => e.id) })),
    now,
    10_000,
    400,
  );
  hookRuns(echoes, now);
  const entries = roles.reduce((n, r) => n + r.entries.length, 0);
  const captured = roles.reduce((n, r) => n + r.entries.filter((e) => e.captured).length, 0);
  return { roles: roles.length, entries, archiveLogs: 3000, usageEvents: events, captured };
}

/** What a hostile text would do if it ran: set the page's title, or mark the body. */
export const PWNED_TITLE = 'PWNED-BY-MEMORY';
export const PWNED_ATTR = 'data-pwned';
export const HOSTILE = [
  `<script>document.title='${PWNED_TITLE}'</script>`,
  `<img src=x onerror="document.body.setAttribute('${PWNED_ATTR}','1')">`,
  `<a href="javascript:document.title='${PWNED_TITLE}'">click</a>`,
  `"><svg onload="document.body.setAttribute('${PWNED_ATTR}','2')">`,
  `</title></style></textarea><script>document.body.setAttribute('${PWNED_ATTR}','3')</script>`,
  `' onmouseover='document.title=1' x='`,
];

/** Markup and script in titles, ids, sources, evidence, provenance, archive-log topics, session ids, agent names and logged problems. */
export function hostileReportStore(dir: string, now: Date): StoreFacts {
  const echoes = join(dir, '.claude', 'echoes');
  const entries = HOSTILE.map((payload, i) =>
    makeEntry('team', i, now, {
      id: `hostile-${i}`,
      title: `Lesson ${payload}`,
      source: i % 2 ? `agent:${payload}` : payload,
      evidence: `\`src/x.ts:1\` — ${payload}`,
      learning: `Body ${payload}`,
      kind: 'Pattern',
      ...(i === 2 ? { captured: 'fix', signature: payload, sessions: payload } : {}),
      ...(i === 3 ? { extra: [['provenance', payload]] as Array<[string, string]> } : {}),
      ...(i === 4 ? { supersedes: `team#hostile-5` } : {}),
    }),
  );
  writeRole(echoes, 'team', entries);
  mkdirSync(join(echoes, 'memories'), { recursive: true });
  writeFileSync(
    join(echoes, 'ARCHIVE.md'),
    `# Archive\n\n${HOSTILE.map((p, i) => `- ${String(i + 1).padStart(3, '0')} · ${dayOf(now, i)} · ${p} · ${p}`).join('\n')}\n`,
  );
  HOSTILE.forEach((p, i) => {
    writeFileSync(join(echoes, 'memories', `archive-log-${String(i + 1).padStart(3, '0')}.md`), `# Archive log\n- session: ${p}\n`);
  });
  const events = HOSTILE.flatMap((p, i) => [
    JSON.stringify({ ts: now.toISOString(), session: p, event: 'injected', via: 'subagent', agent: p, ids: [`team#hostile-${i}`, p] }),
    JSON.stringify({ ts: now.toISOString(), session: p, event: 'used', ids: [`team#hostile-${i}`, p] }),
  ]);
  writeFileSync(join(echoes, 'usage.jsonl'), `${events.join('\n')}\n`);
  writeFileSync(join(echoes, '.log'), `${HOSTILE.join('\n')}\n`);
  writeFileSync(join(echoes, 'EPHEMERAL.md'), `# Last session ${HOSTILE[0]}\n`);
  hookRuns(echoes, now);
  return { roles: 1, entries: entries.length, archiveLogs: HOSTILE.length, usageEvents: events.length, captured: 1 };
}
