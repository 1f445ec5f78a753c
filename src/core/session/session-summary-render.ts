// Text renderings of a SessionSummary: the EPHEMERAL.md / archive-log body
// (SPEC §13), the one-line digest form and a few topic words for ARCHIVE.md.
// Pure string functions; printing and writing live elsewhere.

import { clip, markdownLine, oneLine } from '../text.ts';
import { keptCommands } from './summary-commands.ts';
import { type SessionSummary, SUMMARY_LIMITS, type SummaryCommand } from './summary-model.ts';
import { settledFailure, settleSummary } from './summary-settle.ts';

function times(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`;
}

function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

/** A command row; `settled` when its last run failed but a later run of the same check passed. */
export function renderCommand(c: SummaryCommand, settled = false): string {
  const failures = c.failures ?? (c.failed ? 1 : 0);
  const notes: string[] = [];
  if (c.count > 1) notes.push(`×${c.count}`);
  if (c.failed && settled) notes.push(`failed ${times(Math.max(failures, 1))}, a later run passed`);
  else if (c.failed && failures >= c.count) notes.push('failed');
  else if (c.failed) notes.push(`failed ${times(failures)}, last run failed`);
  else if (failures > 0) notes.push(`failed ${times(failures)}, then passed`);
  return notes.length > 0 ? `${code(c.command)} (${notes.join(', ')})` : code(c.command);
}

function section(title: string, items: string[]): string[] {
  // An item is one line, whatever it holds: a request or a file name cannot open a section of its own.
  return items.length === 0 ? [] : [`## ${title}`, ...items.map((i) => `- ${markdownLine(i)}`)];
}

/** The §13 sections; empty sections are left out. Ends with a newline. */
export function renderSummaryMarkdown(s: SessionSummary, header: { title: string; meta?: string }): string {
  const settled = settleSummary(s);
  const out: string[] = [`# ${markdownLine(header.title)}`];
  if (header.meta) out.push(header.meta.trim());
  out.push(...section('Asked', settled.requests));
  const privateNote = s.privateWork
    ? [
        `(${s.privateWork === 1 ? 'one tool call was' : `${s.privateWork} tool calls were`} made inside a private span; nothing of them is kept here)`,
      ]
    : [];
  out.push(...section('Done and decided', [...settled.decisions, ...privateNote]));
  const files: string[] = [];
  if (settled.filesEdited.length > 0) files.push(`edited: ${settled.filesEdited.join(', ')}`);
  if (s.filesDeleted && s.filesDeleted.length > 0) files.push(`deleted: ${s.filesDeleted.join(', ')}`);
  if (s.filesReverted && s.filesReverted.length > 0) files.push(`reverted: ${s.filesReverted.join(', ')}`);
  if (settled.filesRead.length > 0) files.push(`read: ${settled.filesRead.join(', ')}`);
  if (s.searches && s.searches.length > 0) files.push(`searched: ${s.searches.map(code).join(', ')}`);
  out.push(...section('Files', files));
  const settledRun = (c: SummaryCommand) => c.failed && c.check === true && settledFailure(s, c.command);
  out.push(
    ...section(
      'Commands',
      keptCommands(s.commands, SUMMARY_LIMITS.commands).map((c) => renderCommand(c, settledRun(c))),
    ),
  );
  out.push(...section('Open', settled.open));
  return `${out.join('\n')}\n`;
}

/** One line for the session-start digest: what was done, and what is open. */
export function renderSummaryLine(s: SessionSummary): string {
  const settled = settleSummary(s);
  const lead =
    settled.decisions.at(-1) ??
    settled.requests.at(-1) ??
    (settled.filesEdited.length > 0 ? `edited ${settled.filesEdited.slice(0, 3).join(', ')}` : 'no requests');
  const open = settled.open[0]?.replace(/^\[ \] /, '');
  const head = clip(oneLine(lead), 160).replace(/[.!]$/, '');
  return open ? `${head}; open: ${clip(oneLine(open), 90)}` : head;
}

const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by
  can could did do does doing done down during each few for from further had has have having he her here hers him his
  how i if in into is it its itself just let me more most my no nor not now of off on once only or other our out over own
  same she should so some such than that the their them then there these they this those through to too under until up
  very was we were what when where which while who whom why will with would you your yours please make sure need needs
  use using used add added adding update updated run running ran check fix fixed work working file files code new like
  get got see want also via per into onto lets let's i'll i'm it's that's don't can't won't yes ok okay thanks thank
  first next last still already now one two three all done complete completed task tasks start started find found
  session continue implement implementation change changes changed test tests issue issues ready details available
  subtask subtasks show able sure help way thing things something into via when what time now run runs function
  functions method class string number value int str true false null message text example summary user proper`.split(/\s+/),
);

function words(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.match(/[\p{L}\p{N}][\p{L}\p{N}_.-]*[\p{L}\p{N}]/gu) ?? []) {
    // "CLAUDE.md" and "claude" are one topic; a dotted version number is none.
    const w = raw.toLowerCase().replace(/\.(?:md|ts|js|tsx|jsx|py|rs|ex|exs|json|ya?ml|toml|css|html|sh)$/, '');
    if (w.length < 3 || w.length > 32 || STOPWORDS.has(w) || /^[\d.]+$/.test(w) || /^(?:https?|www)\b/.test(w)) continue;
    // Scripts without spaces (CJK) would give whole clauses as one "word".
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(w) && w.length > 6) continue;
    out.push(w);
  }
  return out;
}

/** Identifiers (snake_case, kebab-ids, CamelCase, dotted names) name the work better than prose words. */
function isIdentifier(raw: string): boolean {
  return /[_-]|\.[a-z]/i.test(raw) || /[a-z][A-Z]/.test(raw);
}

function stem(path: string): string {
  const base = path.split('/').pop() ?? path;
  return base.replace(/\.[^.]+$/, '').toLowerCase();
}

/** A few keywords for an ARCHIVE.md line: frequent request words and edited file names, deterministic. */
export function summaryTopics(s: SessionSummary, max = 4): string[] {
  const score = new Map<string, { score: number; order: number }>();
  let order = 0;
  const add = (w: string, weight: number): void => {
    if (w.length < 3 || STOPWORDS.has(w)) return;
    const cur = score.get(w);
    if (cur) cur.score += weight;
    else score.set(w, { score: weight, order: order++ });
  };
  const addText = (text: string, weight: number): void => {
    // A redaction marker says a secret was there; it is not what the session was about.
    for (const raw of text.replace(/\[REDACTED:[^\]]*\]/g, ' ').match(/\S+/g) ?? []) {
      if (/:\/\/|^www\.|\.(?:com|org|net|io|dev)\b/i.test(raw)) continue; // links are not topics
      // Of a path only its end says what the work was about, not /tmp/… or /home/….
      const token = raw.includes('/') ? raw.split('/').filter(Boolean).slice(-2).join('/') : raw;
      for (const w of words(token)) add(w, isIdentifier(token.replace(/[^\w.-]/g, '')) ? weight * 2 : weight);
    }
  };
  const settled = settleSummary(s);
  for (const r of settled.requests) addText(r.replace(/^\(from a compaction summary\) /, '').replace(/^\/\S+/, ''), 2);
  for (const d of settled.decisions) addText(d.replace(/^Committed[^:]*:/, ''), 1);
  for (const f of s.filesEdited) add(stem(f), 2);
  for (const f of s.filesRead.slice(0, 10)) add(stem(f), 1);
  return [...score.entries()]
    .filter(([, v]) => v.score >= 2)
    .sort((a, b) => b[1].score - a[1].score || a[1].order - b[1].order)
    .slice(0, max)
    .map(([w]) => w);
}
