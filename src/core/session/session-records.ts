// The texts written from session summaries (SPEC §13): EPHEMERAL.md, archive
// logs and their ARCHIVE.md lines. Every one passes the security filter.
import { filterSecrets } from '../security/secret-filter.ts';
import { clip, markdownLine } from '../text.ts';
import type { ToolCall } from '../transcript/transcript-tools.ts';
import { shortId } from './hand-off-owner.ts';
import { renderSummaryMarkdown, summaryTopics } from './session-summary-render.ts';
import type { CheckRun } from './summary-checks.ts';
import type { SessionSummary } from './summary-model.ts';

/**
 * A summary with every captured text passed through the filter, before it is
 * stored anywhere and before anything is derived from it (a title, a short
 * id, topics, an index line): a secret cut at any position cannot survive in
 * part when the cut is made in text already filtered.
 */
export function filterSummary(s: SessionSummary): SessionSummary {
  const f = (t: string) => filterSecrets(t.replace(/\u0000/g, '')).text;
  const fn = (t: string | null) => (t === null ? null : f(t));
  const list = (l: string[] | undefined) => (l ? { value: l.map(f) } : null);
  const call = (c: ToolCall): ToolCall => ({
    ...c,
    file: c.file ? { ...c.file, path: f(c.file.path) } : null,
    command: fn(c.command),
    search: c.search ? { pattern: f(c.search.pattern), path: fn(c.search.path) } : null,
    todos: c.todos ? c.todos.map((t) => ({ ...t, content: f(t.content) })) : null,
    plan: fn(c.plan),
    task: c.task ? { ...c.task, subject: fn(c.task.subject) ?? '' } : null,
  });
  const run = (r: CheckRun): CheckRun => ({ ...r, command: f(r.command), dir: f(r.dir), paths: r.paths.map(f) });
  const optional = {
    searches: list(s.searches),
    written: list(s.written),
    filesDeleted: list(s.filesDeleted),
    filesReverted: list(s.filesReverted),
    doneTodos: list(s.doneTodos),
    recalledRequests: list(s.recalledRequests),
    recalledOpen: list(s.recalledOpen),
  };
  return {
    ...s,
    sessionId: fn(s.sessionId),
    cwd: fn(s.cwd),
    branch: fn(s.branch),
    requests: s.requests.map(f),
    decisions: s.decisions.map(f),
    ...(s.lastWord ? { lastWord: f(s.lastWord) } : {}),
    ...(s.provisional ? { provisional: f(s.provisional) } : {}),
    filesEdited: s.filesEdited.map(f),
    filesRead: s.filesRead.map(f),
    commands: s.commands.map((c) => ({ ...c, command: f(c.command) })),
    openTodos: s.openTodos.map(f),
    unresolved: s.unresolved.map(f),
    ...Object.fromEntries(Object.entries(optional).flatMap(([k, v]) => (v ? [[k, v.value]] : []))),
    ...(s.checks ? { checks: { failing: s.checks.failing.map(run), passed: s.checks.passed.map(run) } } : {}),
    ...(s.failedWrites ? { failedWrites: s.failedWrites.map((w) => ({ ...w, path: f(w.path) })) } : {}),
    ...(s.carry
      ? {
          carry: {
            ...s.carry,
            awaiting: s.carry.awaiting.map((a) => ({ ...a, call: call(a.call), path: fn(a.path), dir: fn(a.dir) })),
            question: fn(s.carry.question),
            ...(s.carry.turnText ? { turnText: f(s.carry.turnText) } : {}),
            interrupted: fn(s.carry.interrupted),
            lastRequest: fn(s.carry.lastRequest),
            lastPlan: fn(s.carry.lastPlan),
            ...(s.carry.uncommitted ? { uncommitted: s.carry.uncommitted.map(f) } : {}),
          },
        }
      : {}),
  };
}

export type ArchiveTrigger = 'precompact manual' | 'precompact auto' | 'session-end' | 'recovery';

// Session ids, branches and times come from hook input and transcript lines, which anyone can write:
// each is made one plain line before it lands in a header, so none can forge a section.
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)?$/;
const time = (ts: string | null): string | null => (ts && ISO_TIME.test(ts) ? ts : null);
// Filtered before it is cut, like every text here: a secret cut by `clip` or `shortId` cannot be recognised any more.
const header = (v: string | null, max = 120): string => (v ? clip(markdownLine(filterSecrets(v).text), max) : '');
const sessionOf = (s: SessionSummary): string => header(s.sessionId) || 'unknown';
const minute = (ts: string | null): string => (time(ts) ? ts!.slice(0, 16).replace('T', ' ') : '?');

function span(s: SessionSummary): string {
  const sameDay = time(s.firstTs) && time(s.lastTs) && s.lastTs!.slice(0, 10) === s.firstTs!.slice(0, 10);
  return `${minute(s.firstTs)} → ${sameDay ? s.lastTs!.slice(11, 16) : minute(s.lastTs)}`;
}

export function renderEphemeral(raw: SessionSummary): string {
  return renderHandOff(raw, 'Last session');
}

function renderHandOff(raw: SessionSummary, lead: string): string {
  const s = filterSummary(raw);
  // Outside git (or on a detached HEAD) Claude Code records the branch as `HEAD`: that names no branch.
  const branch = header(s.branch) && s.branch !== 'HEAD' ? `, branch ${header(s.branch)}` : '';
  const title = `${lead} — ${span(s)} (session ${shortId(sessionOf(s))}${branch})`;
  return filterSecrets(renderSummaryMarkdown(s, { title })).text;
}

/** Header lines that identify one checkpoint of one session (see renderArchiveLog). */
export function archiveLogIdentity(s: SessionSummary, trigger: ArchiveTrigger): string[] {
  return [`- session: ${sessionOf(s)}\n`, `- trigger: ${trigger}\n`, `- span: ${spanField(s)}\n`];
}

const spanField = (s: SessionSummary): string => `${time(s.firstTs) ?? '?'} → ${time(s.lastTs) ?? '?'}`;

export function renderArchiveLog(seq: number, raw: SessionSummary, trigger: ArchiveTrigger, now: Date): string {
  const s = filterSummary(raw);
  const number = String(seq).padStart(3, '0');
  const meta = [
    `- session: ${sessionOf(s)}`,
    `- trigger: ${trigger}`,
    `- span: ${spanField(s)}`,
    ...(header(s.branch) ? [`- branch: ${header(s.branch)}`] : []),
    `- written: ${now.toISOString()}`,
  ].join('\n');
  return filterSecrets(renderSummaryMarkdown(s, { title: `Archive log ${number}`, meta })).text;
}

export function archiveIndexText(raw: SessionSummary, trigger: ArchiveTrigger, now: Date): string {
  const s = filterSummary(raw);
  const date = (time(s.lastTs) ?? now.toISOString()).slice(0, 10);
  const topics = summaryTopics(s, 4);
  return filterSecrets(`${date} · ${trigger} · ${topics.length ? topics.join(', ') : 'no topics'}`).text;
}

/** Rebuilds an index line from a log's own header, for logs whose line was lost. */
export function describeArchiveLog(text: string): string {
  const field = (name: string) => new RegExp(`^- ${name}: (.*)$`, 'm').exec(text)?.[1]?.trim() ?? '';
  const spanText = field('span');
  const date = (/(\d{4}-\d{2}-\d{2})\S* *$/.exec(spanText)?.[1] ?? field('written').slice(0, 10)) || 'unknown date';
  const asked = /^## Asked\s*\n- (.*)$/m.exec(text)?.[1] ?? '';
  return `${date} · ${field('trigger') || 'unknown trigger'} · ${asked.slice(0, 80) || 'recovered index line'}`;
}
