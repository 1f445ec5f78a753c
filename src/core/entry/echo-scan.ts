// The line scanner under echo-document.ts: splits text into lines that keep
// their exact endings, recognises code fences, comments and entry headings,
// and cuts the file into segments (entries and the text between them). One
// linear pass; no regex here can backtrack beyond one line.

import { isBlank } from '../text.ts';
import type { ParseIssue } from './echo-entry.ts';
import { parseFieldLine, splitInlineFields } from './field-syntax.ts';

/** canonical: `### [date] Kind: Title` + field lines; inline: the seed's one-line paste; legacy: Rune's `## Inscribed — Title`. */
export type EntryForm = 'canonical' | 'inline' | 'legacy';

// ---------------------------------------------------------------- lines

export interface Line {
  /** Exact source text including its line ending. */
  raw: string;
  /** Offset of the line in the source text. */
  offset: number;
  /** Without the line ending (and without a BOM on the first line). */
  text: string;
  eol: '' | '\n' | '\r\n' | '\r';
}

// CRLF, LF and a lone CR all end a line, as in CommonMark and in editors; so a
// value or a title never contains a line break of any kind.
const EOL_RE = /\r\n?|\n/g;

export function splitLines(source: string): Line[] {
  const lines: Line[] = [];
  let pos = 0;
  const push = (end: number, eol: Line['eol']) => {
    let text = source.slice(pos, end - eol.length);
    if (pos === 0 && text.startsWith('\uFEFF')) text = text.slice(1);
    lines.push({ raw: source.slice(pos, end), offset: pos, text, eol });
    pos = end;
  };
  EOL_RE.lastIndex = 0;
  for (let m = EOL_RE.exec(source); m; m = EOL_RE.exec(source)) push(m.index + m[0].length, m[0] as Line['eol']);
  if (pos < source.length) push(source.length, '');
  return lines;
}

/** Lines as an editor counts them: '' → 0, 'a' → 1, 'a\n' → 1, 'a\nb' → 2; CRLF and a lone CR end a line too. */
export function countLines(text: string): number {
  let n = 0;
  EOL_RE.lastIndex = 0;
  let last = 0;
  for (let m = EOL_RE.exec(text); m; m = EOL_RE.exec(text)) {
    n++;
    last = m.index + m[0].length;
  }
  return last < text.length ? n + 1 : n;
}

/** First character after leading spaces and tabs: a cheap gate before any regex runs on a line. */
function leadChar(text: string): string {
  let i = 0;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text[i] ?? '';
}

/** `---`, `***`, `___` (spaces allowed). `- - -` is left alone: it is a learning bullet of dashes, not a separator. */
export function isThematicBreak(text: string): boolean {
  const lead = leadChar(text);
  if (lead !== '-' && lead !== '*' && lead !== '_') return false;
  const s = text.trim();
  const ch = s[0];
  if (s.length < 3 || (ch !== '-' && ch !== '*' && ch !== '_') || s[1] !== ch) return false;
  let count = 0;
  for (const c of s) {
    if (c === ch) count++;
    else if (c !== ' ' && c !== '\t') return false;
  }
  return count >= 3;
}

function headingLevel(text: string): number {
  if (leadChar(text) !== '#') return 0;
  const m = /^ {0,3}(#{1,6})(?:[ \t]|$)/.exec(text);
  return m ? (m[1] ?? '').length : 0;
}

interface Fence {
  ch: string;
  len: number;
}

// Fences are recognised at any indentation (they are often nested in list
// items): a `## Inscribed` line inside an indented fence must stay code.
function fenceOpen(text: string): Fence | null {
  const lead = leadChar(text);
  if (lead !== '`' && lead !== '~') return null;
  const m = /^[ \t]*(`{3,}|~{3,})(.*)$/s.exec(text);
  if (!m) return null;
  const marker = m[1] ?? '';
  if (marker[0] === '`' && (m[2] ?? '').includes('`')) return null;
  return { ch: marker[0] ?? '`', len: marker.length };
}

/** `<!--` that does not close on its line: editors use it to switch entries off, so nothing inside is read. */
function commentOpens(text: string): boolean {
  if (leadChar(text) !== '<') return false;
  const m = /^ {0,3}<!--/.exec(text);
  return !!m && !text.includes('-->', m[0].length);
}

/**
 * Git's conflict markers (`<<<<<<< ours`, `|||||||`, `=======`, `>>>>>>> theirs`, seven
 * characters at the start of a line). The middle and closing ones count only after an opening one,
 * so a `=======` underline in prose stays prose.
 */
function conflictMarker(text: string, inConflict: boolean): 'open' | 'middle' | 'close' | null {
  const c = text[0];
  if (c !== '<' && c !== '=' && c !== '>' && c !== '|') return null;
  if (text.startsWith('<<<<<<<') && (text.length === 7 || text[7] === ' ')) return 'open';
  if (!inConflict) return null;
  if (text === '=======' || (text.startsWith('|||||||') && (text.length === 7 || text[7] === ' '))) return 'middle';
  if (text.startsWith('>>>>>>>') && (text.length === 7 || text[7] === ' ')) return 'close';
  return null;
}

function fenceCloses(text: string, fence: Fence): boolean {
  const m = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(text);
  return !!m && (m[1] ?? '')[0] === fence.ch && (m[1] ?? '').length >= fence.len;
}

// ---------------------------------------------------------------- entry headings

const CANONICAL_RE = /^ {0,3}###[ \t]+\[([^\]\n]{0,40})\](?!\()[ \t]*(.*)$/s;
const H3_RE = /^ {0,3}###(?:[ \t]+(.*))?$/s;
// Only a dash after the layer word makes a legacy entry: `## Inscribed` alone is a
// section heading and `## Session-based caching` is prose.
export const LEGACY_RE = /^ {0,3}##[ \t]+(etched|inscribed|traced|observations?|session|consolidated)[ \t]+(?:—|–|--?)(?:[ \t]+(.*))?$/is;
export const LEGACY_DATE_RE = /\((\d{4}-\d{2}-\d{2})\)$/;
const SCHEMA_RE = /^[ \t]*<!--[ \t]*echo-schema:[ \t]*([A-Za-z0-9.]+)[ \t]*-->[ \t]*$/i;

/** `[2026-02-11]`, `[2026-13-45]`, `[YYYY-MM-DD]` — but not a link like `[docs](…)` or `[TODO]`. */
function isDateish(bracket: string): boolean {
  return /^[0-9Yy]/.test(bracket.trim());
}

export function canonicalHeading(text: string): { dateRaw: string | null; rest: string } | null {
  const c = CANONICAL_RE.exec(text);
  if (c && isDateish(c[1] ?? '')) return { dateRaw: (c[1] ?? '').trim(), rest: withoutClosingHashes(c[2] ?? '') };
  const h = H3_RE.exec(text);
  return h ? { dateRaw: null, rest: withoutClosingHashes(h[1] ?? '') } : null;
}

/** `Title ###` → `Title`: the closing sequence of an ATX heading is not part of its text. */
export function withoutClosingHashes(text: string): string {
  const trimmed = text.trimEnd();
  let k = trimmed.length;
  while (k > 0 && trimmed[k - 1] === '#') k--;
  if (k === trimmed.length) return trimmed;
  if (k === 0) return '';
  return trimmed[k - 1] === ' ' || trimmed[k - 1] === '\t' ? trimmed.slice(0, k).trimEnd() : trimmed;
}

function entryStartAt(lines: Line[], i: number): EntryForm | null {
  const text = lines[i]?.text ?? '';
  if (leadChar(text) !== '#') return null;
  const canon = canonicalHeading(text);
  if (canon) {
    if (splitInlineFields(` ${canon.rest}`)) return 'inline';
    if (canon.dateRaw !== null) return 'canonical';
    // `### Title` without a date is an entry only when field lines follow it.
    let j = i + 1;
    while (j < lines.length && isBlank(lines[j]?.text ?? '')) j++;
    const field = j < lines.length ? parseFieldLine(lines[j]?.text ?? '') : null;
    return field?.key ? 'canonical' : null;
  }
  return LEGACY_RE.test(text) ? 'legacy' : null;
}

function endsEntry(text: string, form: EntryForm): boolean {
  const level = headingLevel(text);
  // Legacy entries hold `### Review Metrics`-style subsections and `---` rules.
  if (form === 'legacy') return level === 1 || level === 2;
  return (level >= 1 && level <= 3) || isThematicBreak(text);
}

// ---------------------------------------------------------------- scanning

export interface Segment {
  start: number;
  end: number;
  form: EntryForm | null;
}

// Fields that only ever appear in echo entries; `status` or `source` bullets are
// common in other notes and would make noise.
const ORPHAN_KEYS = new Set(['layer', 'confidence', 'evidence', 'verified', 'supersedes']);

interface Scan {
  segments: Segment[];
  schemaLine: number;
  schemaRaw: string | null;
  /** The line that would close a fence or comment still open at the end of the text. */
  openCloser: string | null;
  issues: ParseIssue[];
}

export function scan(lines: Line[]): Scan {
  const segments: Segment[] = [];
  const issues: ParseIssue[] = [];
  let fence: Fence | null = null;
  let fenceLine = 0;
  let comment = false;
  let commentLine = 0;
  let start = 0;
  let form: EntryForm | null = null;
  let seenEntry = false;
  let schemaLine = -1;
  let schemaRaw: string | null = null;
  let orphanReported = false;
  let conflictStart = -1;
  const conflictIssue = (end: number) =>
    issues.push({
      code: 'merge-conflict',
      line: conflictStart + 1,
      message:
        end < 0
          ? `unresolved merge conflict from line ${conflictStart + 1}, never closed: keep what is right and delete the marker lines`
          : `unresolved merge conflict, lines ${conflictStart + 1}–${end + 1}: keep what is right and delete the marker lines`,
    });
  const cut = (at: number, next: EntryForm | null) => {
    if (at > start) segments.push({ start, end: at, form });
    start = at;
    form = next;
    orphanReported = false;
  };
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]?.text ?? '';
    if (fence) {
      if (fenceCloses(text, fence)) fence = null;
      continue;
    }
    if (comment) {
      if (text.includes('-->')) comment = false;
      continue;
    }
    // A marker line ends the entry before it and is text itself: the entries between the
    // markers (both sides' versions) are still read, and an edit never rewrites a marker.
    const marker = conflictMarker(text, conflictStart >= 0);
    if (marker) {
      if (marker === 'open') {
        if (conflictStart >= 0) conflictIssue(-1);
        conflictStart = i;
      } else if (marker === 'close') {
        conflictIssue(i);
        conflictStart = -1;
      }
      cut(i, null);
      continue;
    }
    const opened = fenceOpen(text);
    if (opened) {
      fence = opened;
      fenceLine = i;
      continue;
    }
    if (commentOpens(text)) {
      comment = true;
      commentLine = i;
      continue;
    }
    const startsEntry = entryStartAt(lines, i);
    if (startsEntry) {
      cut(i, startsEntry);
      seenEntry = true;
    } else if (form && endsEntry(text, form)) {
      cut(i, null);
    } else if (!form) {
      if (!seenEntry && schemaRaw === null) {
        const m = SCHEMA_RE.exec(text);
        if (m) [schemaLine, schemaRaw] = [i, (m[1] ?? '').toLowerCase()];
      }
      const field = orphanReported ? null : parseFieldLine(text);
      if (field?.bullet && field.key && ORPHAN_KEYS.has(field.key)) {
        issues.push({
          code: 'fields-without-heading',
          line: i + 1,
          message: `field "${field.name}" is not under an entry heading; kept as text`,
        });
        orphanReported = true;
      }
    }
  }
  cut(lines.length, null);
  if (conflictStart >= 0) conflictIssue(-1);
  if (fence)
    issues.push({
      code: 'unclosed-fence',
      line: fenceLine + 1,
      message: 'code fence is never closed; the rest of the file is read as code',
    });
  if (comment)
    issues.push({
      code: 'unclosed-comment',
      line: commentLine + 1,
      message: 'HTML comment is never closed; the rest of the file is hidden',
    });
  const openCloser = fence ? fence.ch.repeat(fence.len) : comment ? '-->' : null;
  return { segments: splitTrailingRules(segments, lines), schemaLine, schemaRaw, openCloser, issues };
}

/** A `---` after an entry is a separator between entries, not part of the entry: split it off as verbatim. */
function splitTrailingRules(segments: Segment[], lines: Line[]): Segment[] {
  const out: Segment[] = [];
  const push = (seg: Segment) => {
    const last = out[out.length - 1];
    if (last && !last.form && !seg.form && last.end === seg.start) last.end = seg.end;
    else out.push(seg);
  };
  for (const seg of segments) {
    if (!seg.form) {
      push({ ...seg });
      continue;
    }
    let k = seg.end;
    let firstRule = -1;
    while (k - 1 > seg.start) {
      const text = lines[k - 1]?.text ?? '';
      if (isThematicBreak(text)) firstRule = k - 1;
      else if (!isBlank(text)) break;
      k--;
    }
    if (firstRule < 0) push({ ...seg });
    else {
      push({ start: seg.start, end: firstRule, form: seg.form });
      push({ start: firstRule, end: seg.end, form: null });
    }
  }
  return out;
}
