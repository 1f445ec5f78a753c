// Claude Code's auto memory (and native subagent memory, and recall-echo's
// curated MEMORY.md, which share its shape): an index MEMORY.md whose lines
// point at topic files (`- [Title](feedback_x.md) — hook`), or a monolithic
// one with `##` sections of notes; and topic files with `name`,
// `description` and `type` frontmatter.
//
// What becomes an entry: each index line (title from the link, the hook as
// the learning), each run of notes under a `##` heading (titled by it), each
// topic file (title from its name or description, the body as the learning).
// Outside a `##` section (a flat index, items under `###`, after a `---` rule)
// each list item is an entry of its own. What stays verbatim: titles,
// headings, prose outside sections, and what `rune-echoes export` wrote.

import { parseDocument } from 'yaml';
import type { EchoEntry } from '../entry/echo-entry.ts';
import { slugifyTitle } from '../entry/entry-ids.ts';
import { filterSecrets } from '../security/secret-filter.ts';
import { clip, isBlank } from '../text.ts';
import { EXPORT_TOPIC_KEY, isExportBegin, isExportEnd } from './export-section.ts';
import {
  blankAt,
  headingLevel,
  headingText,
  isRule,
  isTopItem,
  itemBody,
  itemEnd,
  type Outline,
  outline,
  textOf,
} from './markdown-outline.ts';
import {
  draftEntry,
  evidenceAt,
  latestDay,
  plainText,
  pushPart,
  type ReadContext,
  type SourcePart,
  type SourceReading,
  titleFrom,
} from './source-reading.ts';

const LINK_ITEM_RE = /^(?:\*\*)?\[([^\]]+)\]\((<[^>\n]+\.md>|[^)\s]+\.md)\)(?:\*\*)?[ \t]*(?:[—–:-]+[ \t]*)?([\s\S]*)$/;

/** A link's target as a path relative to the index: `<spaced name.md>` and `my%20topic.md` are `spaced name.md` and `my topic.md`. */
export function linkTarget(raw: string): string {
  let t = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
  try {
    t = decodeURIComponent(t);
  } catch {
    /* a stray % stays as written */
  }
  return t.replace(/^(?:\.\/)+/, '');
}

/** Auto memory's four types, and the file-name prefixes that carry them in index lines. */
const TYPE_KIND: Record<string, string> = { user: 'User', feedback: 'Feedback', project: 'Project', reference: 'Reference' };

/**
 * Why auto memory about the user (`type: user`, a `user_…` topic: a phone
 * number, leave dates) is never imported: every role's memory is shared
 * through git in team mode, and Claude Code gives the user's own memory to
 * their sessions already.
 */
const PERSONAL = 'personal memory (type: user): never imported, since role memory is shared with the team';

function kindOfFile(name: string): string {
  const prefix = /^(user|feedback|project|reference)[_-]/i.exec(name.replace(/^.*\//, ''))?.[1]?.toLowerCase();
  return (prefix && TYPE_KIND[prefix]) || 'Note';
}

/** `Market Intelligence (added 2026-03-01)` → `Market Intelligence`. */
function sectionTitle(heading: string): string {
  const plain = plainText(heading)
    .replace(/\((?:added|updated|as of|since|verified|snapshot)[^)]*\)/gi, '')
    .trim();
  return clip(plain || plainText(heading), 100);
}

/** A tag for the section, when its heading has latin words to make one of (never of a secret: filtered first, the slug would hide it). */
function sectionTag(heading: string): string[] {
  if (heading.trim() === '') return [];
  const slug = slugifyTitle(sectionTitle(filterSecrets(heading).text).replace(/\[REDACTED:[^\]]*\]/g, ' '));
  return slug.startsWith('entry-') || slug === 'entry' ? [] : [slug.slice(0, 40).replace(/-+$/, '')];
}

/** The index MEMORY.md of auto memory, agent memory or recall-echo, index-style or monolithic. */
export function readMemoryIndex(text: string, ctx: ReadContext): SourceReading {
  const o = outline(text);
  const parts: SourcePart[] = [];
  const n = o.lines.length;
  let section: string | null = null;
  let afterRule = false;
  // The `###` heading above items that stand outside any `##` section.
  let subsection = '';
  let inExport = false;
  const verbatim = (i: number, end: number, why: string) => pushPart(parts, { type: 'verbatim', line: i + 1, raw: textOf(o, i, end), why });
  for (let i = 0; i < n; ) {
    const line = o.lines[i]?.text ?? '';
    if (inExport || isExportBegin(line)) {
      inExport = !isExportEnd(line);
      verbatim(i, i + 1, 'written by rune-echoes export');
      i++;
      continue;
    }
    const level = headingLevel(o, i);
    if (level === 1 || level === 2) {
      section = level === 2 ? headingText(line) : null;
      subsection = '';
      afterRule = false;
      verbatim(i, i + 1, 'heading');
      i++;
      continue;
    }
    if (isRule(o, i)) {
      afterRule = true;
      verbatim(i, i + 1, 'a --- rule');
      i++;
      continue;
    }
    if (blankAt(o, i)) {
      verbatim(i, i + 1, 'blank');
      i++;
      continue;
    }
    if (section === null || afterRule) {
      // Outside a `##` section (a flat index, notes under `###`, after a rule) prose stays as written,
      // and each list item is a note of its own: a flat list is how Claude Code often keeps its index.
      if (level >= 3) subsection = headingText(line);
      if (level >= 3 || !isTopItem(o, i)) {
        verbatim(i, i + 1, level >= 3 ? 'heading' : section === null ? 'text before the first section' : 'text after a --- rule');
        i++;
        continue;
      }
      const end = itemEnd(o, i, n);
      const link = linkItem(o, i, n);
      if (link && ctx.topicFiles?.has(link.target)) verbatim(i, end, 'an index line whose topic file is read on its own');
      else if (link && kindOfFile(link.target) === TYPE_KIND.user) verbatim(i, end, PERSONAL);
      else if (link) parts.push({ type: 'entry', line: i + 1, raw: textOf(o, i, end), entry: indexEntry(link, subsection, i + 1, ctx) });
      else parts.push({ type: 'entry', line: i + 1, raw: textOf(o, i, end), entry: noteEntry(textOf(o, i, end), subsection, i + 1, ctx) });
      i = end;
      continue;
    }
    const link = isTopItem(o, i) ? linkItem(o, i, n) : null;
    if (link) {
      const end = itemEnd(o, i, n);
      if (ctx.topicFiles?.has(link.target) || kindOfFile(link.target) === TYPE_KIND.user) {
        verbatim(i, end, ctx.topicFiles?.has(link.target) ? 'an index line whose topic file is read on its own' : PERSONAL);
        i = end;
        continue;
      }
      parts.push({ type: 'entry', line: i + 1, raw: textOf(o, i, end), entry: indexEntry(link, section, i + 1, ctx) });
      i = end;
      continue;
    }
    const end = runEnd(o, i, n);
    const body = textOf(o, i, end);
    parts.push({ type: 'entry', line: i + 1, raw: body, entry: noteEntry(body, section, i + 1, ctx) });
    i = end;
  }
  return { parts, notes: [] };
}

/** Notes under a heading (or none): titled by the heading, else by their own first words. */
function noteEntry(body: string, heading: string, line: number, ctx: ReadContext): EchoEntry {
  // A bare `##` heading names nothing: the notes' own first words do.
  const title = sectionTitle(heading) || titleFrom(trimBlankEdges(body).replace(/^\s*(?:[-*+]|\d+\.)\s+/, ''));
  return draftEntry(
    {
      title,
      kind: 'Note',
      learning: trimBlankEdges(body),
      confidence: 0.8,
      date: latestDay(`${heading}\n${body}`, ctx.fileDay),
      evidence: evidenceAt(ctx, line, `${ctx.source} ${heading ? `section "${title}"` : 'note'}`),
      tags: sectionTag(heading),
    },
    ctx,
  );
}

interface LinkItem {
  text: string;
  target: string;
  hook: string;
  raw: string;
}

function linkItem(o: Outline, i: number, n: number): LinkItem | null {
  const end = itemEnd(o, i, n);
  const body = itemBody(o, i, end).text;
  const m = LINK_ITEM_RE.exec(body);
  if (!m || /^[a-z]+:/i.test(m[2] ?? '')) return null;
  return { text: m[1] ?? '', target: linkTarget(m[2] ?? ''), hook: trimBlankEdges(m[3] ?? ''), raw: body };
}

function indexEntry(link: LinkItem, section: string, line: number, ctx: ReadContext) {
  // Some indexes use the file name as the link text: then the hook is the better title.
  const fileLike = /\.md$/i.test(link.text) || link.text === link.target;
  const title = fileLike && link.hook ? titleFrom(link.hook) : clip(plainText(link.text).replace(/\.md$/i, ''), 100);
  return draftEntry(
    {
      title,
      kind: kindOfFile(link.target),
      learning: link.hook || plainText(link.text),
      confidence: 0.8,
      date: latestDay(link.raw, ctx.fileDay),
      evidence: evidenceAt(ctx, line, `${ctx.source} index → ${link.target}`),
      tags: sectionTag(section),
    },
    ctx,
  );
}

/** A run of notes in a section: until the next section heading, rule or index line. */
function runEnd(o: Outline, start: number, n: number): number {
  let i = start;
  while (i < n) {
    const level = headingLevel(o, i);
    if (level === 1 || level === 2 || isRule(o, i) || isExportBegin(o.lines[i]?.text ?? '')) break;
    if (i > start && isTopItem(o, i) && linkItem(o, i, n)) break;
    i++;
  }
  return i;
}

function trimBlankEdges(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  while (lines.length && isBlank(lines[0] ?? '')) lines.shift();
  while (lines.length && isBlank(lines[lines.length - 1] ?? '')) lines.pop();
  return lines.map((l) => l.trimEnd()).join('\n');
}

/** A topic file: frontmatter with name, description and type, then the fact in markdown. */
export function readTopicFile(text: string, ctx: ReadContext, fileName: string): SourceReading {
  const notes: string[] = [];
  const fm = frontmatter(text);
  if (fm.problem) notes.push(`${ctx.ref}: ${fm.problem}; read as a plain note`);
  const meta = fm.data ?? {};
  // Claude Code 2.1.330 writes `type` (and any other key) under `metadata:`; older topic files have it at the top.
  const nested =
    meta.metadata !== null && typeof meta.metadata === 'object' && !Array.isArray(meta.metadata)
      ? (meta.metadata as Record<string, unknown>)
      : {};
  const str = (k: string) => {
    const v = typeof meta[k] === 'string' ? meta[k] : nested[k];
    return typeof v === 'string' ? v.trim() : '';
  };
  if (meta[EXPORT_TOPIC_KEY] !== undefined || nested[EXPORT_TOPIC_KEY] !== undefined) {
    return { parts: [{ type: 'verbatim', line: 1, raw: text, why: 'written by rune-echoes export' }], notes };
  }
  const name = str('name');
  const description = str('description');
  const type = str('type').toLowerCase();
  const body = trimBlankEdges(fm.body);
  if (!description && isBlank(body)) return { parts: [{ type: 'verbatim', line: 1, raw: text, why: 'an empty topic file' }], notes };
  const stem = fileName.replace(/^.*\//, '').replace(/\.md$/i, '');
  if (type === 'user' || (type === '' && kindOfFile(stem) === TYPE_KIND.user))
    return { parts: [{ type: 'verbatim', line: 1, raw: text, why: PERSONAL }], notes };
  // A name with spaces is a title; `feedback_code_quality` is a file name, and the description says more.
  const title = /\s/.test(name)
    ? clip(name, 100)
    : description
      ? titleFrom(description)
      : body
        ? titleFrom(body.replace(/^#+\s*/, ''))
        : stem.replace(/[_-]+/g, ' ');
  const kept = trimBlankEdges(fm.unparsed ?? '');
  const learning = [description && titleFrom(description) !== title ? description : '', body, kept].filter((s) => s !== '').join('\n\n');
  const entry = draftEntry(
    {
      title,
      kind: TYPE_KIND[type] ?? kindOfFile(stem),
      learning: learning || description || title,
      confidence: 0.8,
      date: latestDay(`${name}\n${description}\n${stem}`, ctx.fileDay),
      evidence: evidenceAt(ctx, 1, `${ctx.source} topic${type ? ` (${type})` : ''}`),
      tags: type ? [type] : [],
    },
    ctx,
  );
  return { parts: [{ type: 'entry', line: 1, raw: text, entry }], notes };
}

/** `unparsed`: the lines of frontmatter that could not be read, kept with the note. */
function frontmatter(text: string): { data: Record<string, unknown> | null; body: string; unparsed?: string; problem?: string } {
  const lines = text.split(/(?<=\n)/);
  if (!/^\uFEFF?---[ \t]*\r?\n?$/.test(lines[0] ?? '')) return { data: null, body: text };
  const close = lines.findIndex((l, k) => k > 0 && /^---[ \t]*\r?\n?$/.test(l));
  // Frontmatter that cannot be read is kept as text: only its fence lines go.
  if (close < 0) return { data: null, body: lines.slice(1).join(''), problem: 'frontmatter never closes (no second --- line)' };
  const yaml = lines.slice(1, close).join('');
  const body = lines.slice(close + 1).join('');
  try {
    const doc = parseDocument(yaml, { prettyErrors: false, uniqueKeys: false });
    if (doc.errors[0]) throw doc.errors[0];
    const data = doc.toJS() as unknown;
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      return { data: null, body, unparsed: yaml, problem: 'frontmatter is not a mapping' };
    return { data: data as Record<string, unknown>, body };
  } catch (err) {
    const reason = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    return { data: null, body, unparsed: yaml, problem: `broken frontmatter (${reason})` };
  }
}
