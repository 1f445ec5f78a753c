// What reading a memory file written by another tool gives (issue 12): the
// file cut into consecutive parts, each either an entry (with the exact text
// it came from) or text kept verbatim (with the reason), plus one-line notes
// about problems. The parts always add up to the file byte for byte, so a
// reader can never lose anything silently. Pure: the store passes the text,
// how evidence should cite the file, and the file's day.

import type { EchoEntry, Layer } from '../entry/echo-entry.ts';
import { parseIsoDate } from '../entry/field-values.ts';
import { filterHead, filterSecrets } from '../security/secret-filter.ts';
import { clip, oneLine } from '../text.ts';

/** The memory formats `import` reads. */
export const SOURCE_KINDS = ['auto-memory', 'agent-memory', 'rune', 'continuity', 'archeflow', 'claude-md', 'recall-echo'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export type SourcePart =
  | { type: 'entry'; line: number; raw: string; entry: EchoEntry }
  | { type: 'verbatim'; line: number; raw: string; why: string };

export interface SourceReading {
  parts: SourcePart[];
  /** One line per problem (a malformed line, broken frontmatter); the rest is still read. */
  notes: string[];
}

export interface ReadContext {
  /** How evidence cites the file: project-relative, or `~/…` under the home folder. */
  ref: string;
  /** YYYY-MM-DD of the file (its modification day), for facts that carry no date. */
  fileDay: string;
  /** Who wrote it, for the entry's source: `auto-memory`, `agent-memory:<agent>`, … */
  source: string;
  /** Topic files read on their own beside an index MEMORY.md: index lines pointing at them are not entries twice. */
  topicFiles?: ReadonlySet<string>;
}

export const entriesOf = (r: SourceReading): Array<Extract<SourcePart, { type: 'entry' }>> =>
  r.parts.filter((p): p is Extract<SourcePart, { type: 'entry' }> => p.type === 'entry');

export const verbatimOf = (r: SourceReading): Array<Extract<SourcePart, { type: 'verbatim' }>> =>
  r.parts.filter((p): p is Extract<SourcePart, { type: 'verbatim' }> => p.type === 'verbatim');

/** Appends a part, merging neighbouring verbatim parts with the same reason. */
export function pushPart(parts: SourcePart[], part: SourcePart): void {
  if (part.raw === '') return;
  const last = parts[parts.length - 1];
  if (part.type === 'verbatim' && last?.type === 'verbatim' && last.why === part.why) last.raw += part.raw;
  else parts.push(part);
}

export interface EntryDraft {
  title: string;
  kind: string;
  learning: string;
  layer?: Layer;
  confidence?: number;
  /** A day named in the source; the file's day when absent. */
  date?: string;
  verified?: string;
  evidence: string;
  source?: string;
  tags?: string[];
  supersedes?: string;
  id?: string;
  extra?: Array<[string, string]>;
}

/** A complete entry from what a reader found; ids are assigned when it is written. */
export function draftEntry(d: EntryDraft, ctx: ReadContext): EchoEntry {
  const day = d.date || ctx.fileDay;
  return {
    id: d.id ?? '',
    idExplicit: d.id !== undefined,
    date: day,
    kind: d.kind,
    title: d.title,
    layer: d.layer ?? 'inscribed',
    source: d.source ?? ctx.source,
    confidence: d.confidence ?? 0.7,
    evidence: d.evidence,
    verified: d.verified || day,
    supersedes: d.supersedes ?? 'none',
    tags: d.tags ?? [],
    learning: d.learning,
    extra: d.extra ?? [],
  };
}

/** Evidence that points back at the line an entry came from. */
export function evidenceAt(ctx: ReadContext, line: number, what: string): string {
  return `\`${ctx.ref}:${line}\` — ${what}`;
}

/** Markdown reduced to its words: links to their text, no emphasis or code marks. */
export function plainText(text: string): string {
  // Filtered first, for the same reason as titleFrom.
  const md = filterSecrets(text).text;
  return oneLine(
    md
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[\[([^\]]*)\]\]/g, '$1')
      .replace(/<!--.*?-->/g, '')
      .replace(/[*_`]{1,3}([^*_`]+)[*_`]{1,3}/g, '$1')
      .replace(/^#+\s*/gm, ''),
  );
}

/** A title from free text: a leading bold phrase (after a parenthetical aside), else the first sentence, at most 100 characters. */
export function titleFrom(full: string): string {
  // A title is read from the opening only (a whole file's text would cost its length, and a stack, per pattern),
  // and filtered before markup is taken off and it is cut: `aws_secret_access_key` read as emphasis, or a key cut
  // to its first 30 characters, is a secret the filter no longer knows.
  const md = filterHead(full, 2000);
  const aside = leadingAside(md);
  const bold = /^\s*\*\*([^*]{3,120}?)\*\*/.exec(md.slice(aside)) ?? /^\s*\*\*([^*]{3,120}?)\*\*/.exec(md);
  const text = bold ? plainText(bold[1] ?? '') : plainText(md);
  const sentence = /^(.{12,}?[.!?])(?:\s|$)/.exec(text)?.[1] ?? text;
  return clip(sentence.replace(/[.:;,\s—–-]+$/, ''), 100) || 'Untitled note';
}

/** Length of a `(status — …)` aside that opens a text, when a bold title follows it; else 0. */
function leadingAside(md: string): number {
  if (!md.startsWith('(')) return 0;
  let depth = 0;
  for (let i = 0; i < Math.min(md.length, 600); i++) {
    if (md[i] === '(') depth++;
    else if (md[i] === ')' && --depth === 0) return /^\s*\*\*/.test(md.slice(i + 1)) ? i + 1 : 0;
  }
  return 0;
}

/** The latest real YYYY-MM-DD date written in a text, not after `notAfter` (a deadline is not when a fact was seen), or ''. */
export function latestDay(text: string, notAfter: string): string {
  let best = '';
  for (const m of text.matchAll(/(?<![0-9])(\d{4}-\d{2}-\d{2})(?![0-9])/g)) {
    const day = parseIsoDate(m[1] ?? '');
    if (day && day > best && (notAfter === '' || day <= notAfter)) best = day;
  }
  return best;
}
