// The memory report: one HTML page that holds everything it shows (styles
// inline, charts as inline SVG, no script, no font, no image, no link out),
// under a Content-Security-Policy that allows nothing else to load or run.
// Every text from memory, logs or usage goes through the one escaper.

import { VIAS } from '../lifecycle/usage-events.ts';
import { columns, FILLS, type Fill, givenUsedGroups, limitBars, patternDefs, swatch } from './report-charts.ts';
import { type HtmlValue, html, Markup } from './report-html-text.ts';
import {
  archiveTimeline,
  CAPTURE_KINDS,
  capturedByWeek,
  entryOrigin,
  entryProvenance,
  IDLE_GIVEN,
  ORIGINS,
  type ReportInput,
  type ReportRole,
  usageView,
  VIA_NAMES,
  weekOf,
  windowUse,
} from './report-model.ts';

/** The page's policy: nothing loads or runs but its own inline styles and data: images. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** Rows a table shows before saying how many more there are. */
export const ROW_CAP = { entries: 300, usage: 200, idle: 50, captured: 60, logs: 60, problems: 5 } as const;

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1b1b1b;background:#fbfbf8;margin:0 auto;max-width:1180px;padding:18px 24px 48px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:32px 0 8px;border-bottom:2px solid #ccc;padding-bottom:3px}h3{font-size:15px;margin:18px 0 6px}
.meta{color:#555;margin:0 0 14px}
.figures{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0;padding:0}
.figures div{border:1px solid #bbb;border-radius:6px;padding:6px 12px;background:#fff;min-width:110px}
.figures dt{font-size:12px;color:#555}.figures dd{margin:0;font-size:20px;font-weight:600}
table{border-collapse:collapse;margin:6px 0 10px;background:#fff}th,td{border:1px solid #d4d4d4;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#efefea;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.title{min-width:220px;max-width:420px;overflow-wrap:anywhere}td.id{min-width:150px}code{font-size:12px;overflow-wrap:anywhere}
.note{color:#555;font-size:13px}.warn{font-weight:600}
.chart{display:block;max-width:100%;height:auto;margin:6px 0}.chart text{font-size:11px;fill:#222}.chart .tick{font-size:10px;fill:#444}.chart .n{font-size:10px}
.legend{display:flex;flex-wrap:wrap;gap:14px;font-size:12px;margin:2px 0 6px}.swatch svg{vertical-align:-2px}
.defs{position:absolute}
ul.problems{font-family:ui-monospace,monospace;font-size:12px}
details{margin:6px 0}summary{cursor:pointer;padding:2px 0}
`;

const pct = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`);
const shortId = (s: string) => (s.length > 12 ? `${s.slice(0, 8)}…` : s);
const day = (iso: string) => iso.slice(0, 10);
const more = (shown: number, total: number, what: string) =>
  total > shown ? html`<p class="note">${total - shown} more ${what} not shown (the newest or largest ${shown} are).</p>` : '';

function figure(name: string, label: string, value: string | number): Markup {
  return html`<div><dt>${label}</dt><dd data-figure="${name}">${value}</dd></div>`;
}

function table(head: readonly string[], rows: readonly Markup[], numeric: readonly number[] = []): Markup {
  const th = head.map((h, i) => html`<th${numeric.includes(i) ? html` class="num"` : ''}>${h}</th>`);
  return html`<table><thead><tr>${th}</tr></thead><tbody>${rows}</tbody></table>`;
}

const num = (v: number | string) => html`<td class="num">${v}</td>`;

/** A part a person opens when they want the detail: native <details>, no script. */
const fold = (summary: HtmlValue, body: Markup) => html`<details><summary>${summary}</summary>${body}</details>`;

// ── sections ──

function health(input: ReportInput): Markup {
  const { memoryMaxLines, knowledgeMaxLines } = input.limits;
  const bars = input.roles.map((r) => ({
    label: r.role,
    value: r.memoryLines,
    limit: memoryMaxLines,
    note: `${r.memoryLines}/${memoryMaxLines} lines${r.memoryLines > memoryMaxLines ? ' (over the limit)' : ''}`,
  }));
  const rows = input.roles.map(
    (r) =>
      html`<tr><td>${r.role}</td>${num(`${r.memoryLines}/${memoryMaxLines}`)}${num(`${r.knowledgeLines}/${knowledgeMaxLines}`)}${num(
        r.entries.length,
      )}${num(r.pendingFindings)}<td>${r.error ? `not readable: ${r.error}` : r.memoryLines > memoryMaxLines ? 'over the limit' : 'ok'}</td></tr>`,
  );
  const hookRows = input.hooks.map(
    (h) => html`<tr><td>${h.hook}</td><td>${h.lastRun ? h.lastRun.slice(0, 16).replace('T', ' ') : 'never'}</td></tr>`,
  );
  const problems = input.problems.slice(-ROW_CAP.problems);
  const ephemeral =
    input.ephemeral === 'waiting'
      ? 'a hand-off waits for the next session'
      : input.ephemeral === 'handed-on'
        ? 'none waiting (the last one was handed on)'
        : 'none yet';
  return html`<section id="health"><h2>Store health</h2>
${input.roles.length ? limitBars('MEMORY.md lines of each role against the limit (dashed line)', bars) : html`<p>No roles yet: nothing has been recorded.</p>`}
${input.roles.length ? table(['role', 'MEMORY.md lines', 'knowledge.md lines', 'entries', 'pending findings', 'state'], rows, [1, 2, 3, 4]) : ''}
<p>Archive logs: <strong data-figure="archive-logs-health">${input.archive.logs}</strong> (${input.archive.index.length} indexed in ARCHIVE.md) · EPHEMERAL.md: ${ephemeral} · logged problems: <strong>${input.problems.length}</strong></p>
${problems.length ? html`<h3>Latest logged problems</h3><ul class="problems">${problems.map((p) => html`<li>${p}</li>`)}</ul>` : ''}
${input.readProblems.length ? html`<h3>Read while making this report</h3><ul class="problems">${input.readProblems.map((p) => html`<li>${p}</li>`)}</ul>` : ''}
<h3>When each hook last ran</h3>${table(['hook', 'last run (UTC)'], hookRows)}
</section>`;
}

function entryState(e: ReportRole['entries'][number]): string {
  const out: string[] = [];
  if (e.entry.status === 'retracted') out.push('retracted');
  if (e.supersededBy) out.push(`superseded by ${e.supersededBy}`);
  else if (e.entry.status === 'superseded') out.push('superseded');
  if (e.staleSince) out.push(`stale (evidence changed ${e.staleSince})`);
  return out.join('; ') || 'live';
}

function entriesSection(input: ReportInput): Markup {
  const fills: Record<string, Fill> = {};
  ORIGINS.forEach((o, i) => {
    fills[o] = FILLS[i % FILLS.length]!;
  });
  const originRows = input.roles.map((r) => {
    const counts = new Map<string, number>();
    for (const e of r.entries) {
      const o = entryOrigin(e.entry, { teammate: e.teammate });
      counts.set(o, (counts.get(o) ?? 0) + 1);
    }
    return html`<tr><td>${r.role}</td>${ORIGINS.map((o) => num(counts.get(o) ?? 0))}</tr>`;
  });
  const perRole = input.roles.map((r) => {
    const sorted = [...r.entries].sort((a, b) => b.score.score - a.score.score);
    const rows = sorted.slice(0, ROW_CAP.entries).map((e) => {
      const origin = entryOrigin(e.entry, { teammate: e.teammate });
      const by = entryProvenance(e.entry);
      const captured = e.entry.captured ? ` (${e.entry.captured})` : '';
      return html`<tr><td class="id"><code>${e.entry.id}</code></td><td class="title">${e.entry.title}</td><td>${e.entry.layer}</td>${num(
        e.score.score.toFixed(2),
      )}${num(e.score.ageDays === null ? '—' : `${e.score.ageDays} d`)}<td>${origin}${captured}${origin === 'teammate' && by ? `: ${by}` : ''}</td><td class="title">${e.entry.source}</td><td>${entryState(e)}</td></tr>`;
    });
    const layers = (['etched', 'inscribed', 'traced'] as const)
      .map((l) => `${r.entries.filter((e) => e.entry.layer === l).length} ${l}`)
      .join(', ');
    const stale = r.entries.filter((e) => e.staleSince).length;
    const retired = r.entries.filter((e) => e.supersededBy || e.entry.status).length;
    const summary = html`<strong>${r.role}</strong> — ${r.entries.length} ${r.entries.length === 1 ? 'entry' : 'entries'}: ${layers}; ${stale} stale, ${retired} superseded or retracted`;
    return fold(
      summary,
      html`${r.entries.length ? table(['id', 'title', 'layer', 'Echo Score', 'age', 'origin', 'source', 'state'], rows, [3, 4]) : html`<p class="note">No entries.</p>`}
${more(ROW_CAP.entries, r.entries.length, 'entries')}`,
    );
  });
  return html`<section id="entries"><h2>Entries per role</h2>
<p class="note">Origin: captured (capture wrote it from a session), recorded (an agent's finding), imported (from another tool's memory), remembered (a person's <code>remember</code>), teammate (an entry naming who it came from). Highest Echo Score first.</p>
${input.roles.length ? table(['role', ...ORIGINS], originRows, [1, 2, 3, 4, 5]) : ''}
${perRole}
</section>`;
}

function usageSection(input: ReportInput): Markup {
  const view = usageView(input.events, input.limits.relevanceWindow);
  const letters = VIAS.map((v) => VIA_NAMES[v][0]!.toUpperCase());
  const viaFill = (i: number): Fill => FILLS[i % FILLS.length]!;
  const groups = view.sessions.map((s) => ({
    label: shortId(s.session),
    detail: `session ${s.session}${s.start ? ` (${s.start.slice(0, 16).replace('T', ' ')})` : ''}: ${VIAS.map(
      (v) => `${VIA_NAMES[v]} gave ${s.byVia[v].injected}, used ${s.byVia[v].used}`,
    ).join('; ')}; used in all ${s.used}`,
    pairs: VIAS.map((v, i) => ({ name: VIA_NAMES[v], fill: viaFill(i), given: s.byVia[v].injected, used: s.byVia[v].used })),
  }));
  const sessionRows = view.sessions.map(
    (s) =>
      html`<tr><td class="id"><code>${shortId(s.session)}</code></td><td>${s.start ? s.start.slice(0, 16).replace('T', ' ') : '—'}</td>${VIAS.map(
        (v) => num(`${s.byVia[v].used}/${s.byVia[v].injected}`),
      )}${num(s.used)}</tr>`,
  );
  const total = html`<tr><th>window</th><th></th>${VIAS.map((v) =>
    num(`${view.byVia[v].used}/${view.byVia[v].injected} (${pct(view.byVia[v].used, view.byVia[v].injected)})`),
  )}<th></th></tr>`;
  const entries = input.roles.flatMap((r) => r.entries.filter((e) => !e.entry.status).map((e) => ({ role: r.role, e })));
  const rows = entries
    .map(({ role, e }) => ({ role, e, w: windowUse(view, role, e.entry.id) }))
    .filter((x) => x.e.score.injected > 0 || x.e.score.used > 0)
    .sort((a, b) => b.e.score.injected - a.e.score.injected || b.e.score.used - a.e.score.used);
  const entryRows = rows
    .slice(0, ROW_CAP.usage)
    .map(
      (x) =>
        html`<tr><td class="id"><code>${x.role}#${x.e.entry.id}</code></td><td class="title">${x.e.entry.title}</td>${VIAS.map((v) => num(x.w.givenBy[v]))}${num(
          x.w.usedIn,
        )}${num(x.e.score.injected)}${num(x.e.score.used)}</tr>`,
    );
  const idle = entries
    .filter(({ e }) => e.score.used === 0 && e.score.injected >= IDLE_GIVEN)
    .sort((a, b) => b.e.score.injected - a.e.score.injected);
  const idleRows = idle
    .slice(0, ROW_CAP.idle)
    .map(
      ({ role, e }) =>
        html`<tr><td class="id"><code>${role}#${e.entry.id}</code></td><td class="title">${e.entry.title}</td>${num(e.score.injected)}<td>${e.entry.layer}</td></tr>`,
    );
  const legend = html`<div class="legend">${VIAS.map((v, i) => swatch(viaFill(i), `${letters[i]} = ${VIA_NAMES[v]}: filled part used, outline given`))}</div>`;
  return html`<section id="usage"><h2>What reached the model, and what was used</h2>
<p>Sessions in the relevance window: <strong data-figure="window-sessions">${view.sessions.length}</strong> (the last ${input.limits.relevanceWindow}) · usage events in the log: <strong data-figure="usage-events">${input.events.length}</strong></p>
${
  view.sessions.length
    ? html`${legend}${givenUsedGroups('Entries given per session by each hook, and how many of them the session used', groups, letters)}
${fold(`Per session: used/given by each hook (${view.sessions.length} sessions)`, table(['session', 'started (UTC)', ...VIAS.map((v) => `${VIA_NAMES[v]}: used/given`), 'used in all'], [...sessionRows, total], [2, 3, 4, 5]))}`
    : html`<p class="note">No session has been given memory yet.</p>`
}
${rows.length ? fold(`Per entry: which hook gave it, and its use (${rows.length} entries given or used)`, html`<p class="note">Sessions of the window each hook gave the entry to, the sessions that used it, and the totals over the whole log. Most given first.</p>${table(['entry', 'title', ...VIAS.map((v) => `${VIA_NAMES[v]}`), 'used in', 'given, all', 'used, all'], entryRows, [2, 3, 4, 5, 6, 7])}${more(ROW_CAP.usage, rows.length, 'entries')}`) : html`<p class="note">No entry has been given or used yet.</p>`}
<h3>Given often, never used</h3>
<p>Entries given ${IDLE_GIVEN} times or more and never used: <strong data-figure="idle-entries">${idle.length}</strong> — candidates to forget (<code>rune-echoes forget</code>) or to reword.</p>
${idle.length ? html`${table(['entry', 'title', 'given', 'layer'], idleRows, [2])}${more(ROW_CAP.idle, idle.length, 'entries')}` : ''}
</section>`;
}

function capturedSection(input: ReportInput): Markup {
  const captured = input.roles.flatMap((r) => r.entries.filter((e) => e.entry.captured).map((e) => ({ role: r.role, e })));
  const weeks = capturedByWeek(captured.map((c) => c.e.entry));
  const kinds = [
    ...CAPTURE_KINDS,
    ...new Set(captured.map((c) => c.e.entry.captured!).filter((k) => !(CAPTURE_KINDS as readonly string[]).includes(k))),
  ];
  const kindFill = (k: string): Fill => FILLS[Math.max(0, kinds.indexOf(k)) % FILLS.length]!;
  const cols = weeks.map((w) => ({
    label: w.week.slice(5),
    detail: `week of ${w.week}: ${w.total} captured${
      w.total
        ? ` (${Object.entries(w.counts)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ')})`
        : ''
    }`,
    parts: kinds.map((k) => ({ fill: kindFill(k), value: w.counts[k] ?? 0, name: k })),
  }));
  const thisWeek = weekOf(input.generatedAt);
  const newest = [...captured].sort((a, b) => (b.e.entry.date || b.e.entry.verified).localeCompare(a.e.entry.date || a.e.entry.verified));
  const recent = newest.filter((c) => weekOf(c.e.entry.date || c.e.entry.verified) === thisWeek).length;
  const rows = newest.slice(0, ROW_CAP.captured).map(({ role, e }) => {
    const sessions = (e.entry.sessions ?? '').split(',').filter((s) => s.trim() !== '').length;
    return html`<tr><td>${e.entry.date || e.entry.verified || '—'}</td><td>${e.entry.captured}</td><td class="title">${e.entry.title}</td><td><code>${role}#${e.entry.id}</code></td><td>${e.entry.layer}</td>${num(
      sessions,
    )}${num(e.score.used)}</tr>`;
  });
  return html`<section id="captured"><h2>Captured lessons over time</h2>
<p>Captured lessons in memory: <strong data-figure="captured">${captured.length}</strong> · this week (from ${thisWeek ?? '—'}): <strong data-figure="captured-this-week">${recent}</strong></p>
${weeks.length ? html`<div class="legend">${kinds.map((k) => swatch(kindFill(k), k))}</div>${columns('Captured lessons per week, by kind', cols)}` : html`<p class="note">Nothing captured yet: capture writes lessons from what sessions did when they end.</p>`}
${rows.length ? fold(`The captured lessons, newest first (${captured.length})`, html`${table(['day', 'kind', 'lesson', 'entry', 'layer', 'sessions that saw it', 'used'], rows, [5, 6])}${more(ROW_CAP.captured, captured.length, 'lessons')}`) : ''}
</section>`;
}

function handOffSection(input: ReportInput): Markup {
  const { buckets, undated, cut } = archiveTimeline(input.archive.index);
  const unit = buckets[0]?.days === 7 ? 'week' : 'day';
  const cols = buckets.map((b) => {
    const topics = b.logs.slice(0, 6).map((l) => `${String(l.seq).padStart(3, '0')}: ${l.topics}`);
    return {
      label: b.from.slice(5),
      detail: `${unit === 'week' ? 'week of ' : ''}${b.from}: ${b.logs.length} archive log${b.logs.length === 1 ? '' : 's'}${topics.length ? ` — ${topics.join(' · ')}${b.logs.length > 6 ? ' …' : ''}` : ''}`,
      parts: [{ fill: 'solid' as Fill, value: b.logs.length, name: 'archive logs' }],
    };
  });
  const latest = [...input.archive.index].sort((a, b) => b.seq - a.seq).slice(0, ROW_CAP.logs);
  const rows = latest.map(
    (l) =>
      html`<tr>${num(String(l.seq).padStart(3, '0'))}<td>${l.date || '—'}</td><td>${l.trigger}</td><td class="title">${l.topics}</td></tr>`,
  );
  return html`<section id="handoffs"><h2>Hand-off history</h2>
<p>Archive logs: <strong data-figure="archive-logs">${input.archive.logs}</strong> · indexed: ${input.archive.index.length}${undated ? ` (${undated} without a date)` : ''}</p>
${buckets.length ? columns(`Archive logs per ${unit}`, cols) : html`<p class="note">No archive logs yet: a session that did work leaves one when it ends or compacts.</p>`}
${cut ? html`<p class="note">The ${cut} earliest ${unit}s are not drawn.</p>` : ''}
${rows.length ? fold('Latest archive logs and their topics', html`${table(['log', 'date', 'trigger', 'topics'], rows, [0])}${more(ROW_CAP.logs, input.archive.index.length, 'logs')}`) : ''}
</section>`;
}

/** The whole page. */
export function renderReport(input: ReportInput): string {
  const entries = input.roles.reduce((n, r) => n + r.entries.length, 0);
  const captured = input.roles.reduce((n, r) => n + r.entries.filter((e) => e.entry.captured).length, 0);
  const over = input.roles.filter((r) => r.memoryLines > input.limits.memoryMaxLines).length;
  const page = html`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Rune Echoes memory report</title>
<style>${new Markup(STYLE)}</style></head>
<body>${patternDefs()}
<header><h1>Rune Echoes memory report</h1>
<p class="meta">Project <strong data-figure="project">${input.project}</strong> · made ${input.generatedAt.slice(0, 16).replace('T', ' ')} UTC by <code>rune-echoes report</code> · a personal file, never committed</p>
<dl class="figures">
${figure('roles', 'roles', input.roles.length)}
${figure('entries', 'entries', entries)}
${figure('over-limit', 'roles over the limit', over)}
${figure('captured-total', 'captured lessons', captured)}
${figure('archive-logs-total', 'archive logs', input.archive.logs)}
${figure('problems', 'logged problems', input.problems.length)}
${figure('generated', 'made on', day(input.generatedAt))}
</dl>
<nav class="note"><a href="#health">Store health</a> · <a href="#entries">Entries</a> · <a href="#usage">What reached the model</a> · <a href="#captured">Captured lessons</a> · <a href="#handoffs">Hand-offs</a></nav>
</header>
${health(input)}
${entriesSection(input)}
${usageSection(input)}
${capturedSection(input)}
${handOffSection(input)}
<footer><p class="note">Everything on this page was read from .claude/echoes/ when it was made; it loads nothing and runs no script.</p></footer>
</body></html>
`;
  return page.text;
}
