// A memory file as a lossless list of blocks (SPEC §4, STYLE "Parsing memory
// files"): every block keeps its exact source text, so serialising an untouched
// document gives back the input byte for byte, and an edit rewrites only the
// blocks it touches. Entry blocks carry a typed EchoEntry; everything else
// (headers, prose, tables, code, broken fragments) is a verbatim block.
//
// Parsing is one linear pass over the lines: code fences hide everything inside
// them, an entry starts at an entry heading and runs until a heading or
// separator that ends it. No regex here can backtrack beyond one line.

import type { EchoEntry } from './echo-entry.ts';
import { EchoesError } from './errors.ts';
import {
  type ParseIssue, type RawEntry, buildEntry, formatField, normalizeLearning, parseFieldLine,
  renderEntryLines, splitInlineFields, splitKindTitle,
} from './entry-fields.ts';
import { slugifyTitle, uniqueId } from './entry-ids.ts';

export type { ParseIssue } from './entry-fields.ts';

/** canonical: `### [date] Kind: Title` + field lines; inline: the seed's one-line paste; legacy: Rune's `## Inscribed — Title`. */
export type EntryForm = 'canonical' | 'inline' | 'legacy';

export type Block =
  | { type: 'entry'; text: string; line: number; entry: EchoEntry; form?: EntryForm }
  | { type: 'verbatim'; text: string; line: number };

export interface EchoDocument {
  blocks: Block[];
  schema: 'v1' | 'v2' | null;
  eol: '\n' | '\r\n';
  issues: ParseIssue[];
}

export const SCHEMA_HEADER = '<!-- echo-schema: v2 -->';

// ---------------------------------------------------------------- lines

interface Line {
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

function splitLines(source: string): Line[] {
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

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** First character after leading spaces and tabs: a cheap gate before any regex runs on a line. */
function leadChar(text: string): string {
  let i = 0;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text[i] ?? '';
}

/** `---`, `***`, `___` (spaces allowed). `- - -` is left alone: it is a learning bullet of dashes, not a separator. */
function isThematicBreak(text: string): boolean {
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

interface Fence { ch: string; len: number }

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

function fenceCloses(text: string, fence: Fence): boolean {
  const m = /^[ \t]*(`{3,}|~{3,})[ \t]*$/.exec(text);
  return !!m && (m[1] ?? '')[0] === fence.ch && (m[1] ?? '').length >= fence.len;
}

// ---------------------------------------------------------------- entry headings

const CANONICAL_RE = /^ {0,3}###[ \t]+\[([^\]\n]{0,40})\](?!\()[ \t]*(.*)$/s;
const H3_RE = /^ {0,3}###(?:[ \t]+(.*))?$/s;
// Only a dash after the layer word makes a legacy entry: `## Inscribed` alone is a
// section heading and `## Session-based caching` is prose.
const LEGACY_RE = /^ {0,3}##[ \t]+(etched|inscribed|traced|observations?|session|consolidated)[ \t]+(?:—|–|--?)(?:[ \t]+(.*))?$/is;
const LEGACY_DATE_RE = /\((\d{4}-\d{2}-\d{2})\)$/;
const SCHEMA_RE = /^[ \t]*<!--[ \t]*echo-schema:[ \t]*([A-Za-z0-9.]+)[ \t]*-->[ \t]*$/i;

/** `[2026-02-11]`, `[2026-13-45]`, `[YYYY-MM-DD]` — but not a link like `[docs](…)` or `[TODO]`. */
function isDateish(bracket: string): boolean {
  return /^[0-9Yy]/.test(bracket.trim());
}

function canonicalHeading(text: string): { dateRaw: string | null; rest: string } | null {
  const c = CANONICAL_RE.exec(text);
  if (c && isDateish(c[1] ?? '')) return { dateRaw: (c[1] ?? '').trim(), rest: withoutClosingHashes(c[2] ?? '') };
  const h = H3_RE.exec(text);
  return h ? { dateRaw: null, rest: withoutClosingHashes(h[1] ?? '') } : null;
}

/** `Title ###` → `Title`: the closing sequence of an ATX heading is not part of its text. */
function withoutClosingHashes(text: string): string {
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

interface Segment { start: number; end: number; form: EntryForm | null }

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

function scan(lines: Line[]): Scan {
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
        issues.push({ code: 'fields-without-heading', line: i + 1, message: `field "${field.name}" is not under an entry heading; kept as text` });
        orphanReported = true;
      }
    }
  }
  cut(lines.length, null);
  if (fence) issues.push({ code: 'unclosed-fence', line: fenceLine + 1, message: 'code fence is never closed; the rest of the file is read as code' });
  if (comment) issues.push({ code: 'unclosed-comment', line: commentLine + 1, message: 'HTML comment is never closed; the rest of the file is hidden' });
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
    if (!seg.form) { push({ ...seg }); continue; }
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

// ---------------------------------------------------------------- parse

function readEntry(lines: Line[], seg: Segment, issues: ParseIssue[]): ReturnType<typeof buildEntry> {
  const head = lines[seg.start]?.text ?? '';
  const raw: RawEntry = {
    line: seg.start + 1, dateRaw: null, kind: '', title: '', headingLayer: null,
    strict: seg.form !== 'legacy', fields: [], learning: '',
  };
  let rest = '';
  let inlineLearning = '';
  if (seg.form === 'legacy') {
    const m = LEGACY_RE.exec(head);
    raw.headingLayer = m?.[1] ?? null;
    rest = withoutClosingHashes(m?.[2] ?? '').trim();
    const d = LEGACY_DATE_RE.exec(rest);
    if (d) {
      raw.dateRaw = d[1] ?? '';
      rest = rest.slice(0, d.index).trimEnd();
    }
  } else {
    const canon = canonicalHeading(head);
    raw.dateRaw = canon?.dateRaw ?? null;
    rest = canon?.rest ?? '';
    const inline = seg.form === 'inline' ? splitInlineFields(` ${rest}`) : null;
    if (inline) {
      rest = inline.head;
      inlineLearning = inline.learning;
      for (const field of inline.fields) raw.fields.push({ field, line: seg.start + 1 });
    }
  }
  ({ kind: raw.kind, title: raw.title } = splitKindTitle(rest.trim()));
  let j = seg.start + 1;
  while (j < seg.end && isBlank(lines[j]?.text ?? '')) j++;
  for (let f = parseFieldLine(lines[j]?.text ?? ''); j < seg.end && f; f = parseFieldLine(lines[j]?.text ?? '')) {
    raw.fields.push({ field: f, line: j + 1 });
    j++;
  }
  const body = normalizeLearning(lines.slice(j, seg.end).map((l) => l.text));
  raw.learning = inlineLearning && body ? `${inlineLearning}\n${body}` : inlineLearning || body;
  return buildEntry(raw, issues);
}

/** Never throws: anything that is not an entry becomes a verbatim block, problems become issues. */
export function parseEchoDocument(text: string): EchoDocument {
  const lines = splitLines(text);
  const found = scan(lines);
  const issues = found.issues;
  const blocks: Block[] = [];
  const explicit: Array<string | null> = [];
  for (const seg of found.segments) {
    const blockText = text.slice(lines[seg.start]?.offset ?? 0, lines[seg.end]?.offset ?? text.length);
    if (!seg.form) {
      blocks.push({ type: 'verbatim', text: blockText, line: seg.start + 1 });
      continue;
    }
    const { entry, explicitId } = readEntry(lines, seg, issues);
    blocks.push({ type: 'entry', text: blockText, line: seg.start + 1, entry, form: seg.form });
    explicit.push(explicitId);
  }
  assignIds(blocks, explicit, issues);

  let schema: EchoDocument['schema'] = null;
  if (found.schemaRaw === 'v1' || found.schemaRaw === 'v2') schema = found.schemaRaw;
  else if (found.schemaRaw !== null) {
    issues.push({ code: 'unknown-schema', line: found.schemaLine + 1, message: `echo-schema "${found.schemaRaw}" is not v1 or v2; read as v2` });
  }
  let crlf = 0;
  let lf = 0;
  for (const l of lines) {
    if (l.eol === '\r\n') crlf++;
    else if (l.eol === '\n') lf++;
  }
  issues.sort((a, b) => a.line - b.line);
  return { blocks, schema, eol: crlf > lf ? '\r\n' : '\n', issues };
}

/** Written ids win; the others are derived from titles in file order, avoiding every written id. */
function assignIds(blocks: Block[], explicit: Array<string | null>, issues: ParseIssue[]): void {
  const entries = blocks.filter((b): b is Extract<Block, { type: 'entry' }> => b.type === 'entry');
  const taken = new Set<string>();
  const keep = explicit.map((id, k) => {
    if (id === null) return false;
    if (!taken.has(id)) return taken.add(id), true;
    issues.push({ code: 'duplicate-id', line: entries[k]?.line ?? 0, message: `id "${id}" is used by an earlier entry; this one reads as a derived id` });
    return false;
  });
  const counters = new Map<string, number>();
  entries.forEach((block, k) => {
    const e = block.entry;
    if (keep[k]) return;
    e.id = uniqueId(slugifyTitle(e.title || e.kind), taken, counters);
    e.idExplicit = false;
    taken.add(e.id);
  });
}

export function serializeEchoDocument(doc: EchoDocument): string {
  let out = '';
  for (const b of doc.blocks) out += b.text;
  return out;
}

export function documentEntries(doc: EchoDocument): EchoEntry[] {
  const out: EchoEntry[] = [];
  for (const b of doc.blocks) if (b.type === 'entry') out.push(b.entry);
  return out;
}

// ---------------------------------------------------------------- editing

/** Canonical v2 block of one entry, ending with a line ending, no blank line after it. */
export function renderEntry(entry: EchoEntry, eol: '\n' | '\r\n' = '\n'): string {
  return renderEntryLines(entry).map((l) => l + eol).join('');
}

/** Header of a new memory file, e.g. `newMemoryDocumentText('Reviewer Memory')`. */
export function newMemoryDocumentText(title: string, eol: '\n' | '\r\n' = '\n'): string {
  return `${SCHEMA_HEADER}${eol}# ${title.replace(/\r\n|\r|\n/g, ' ')}${eol}`;
}

/**
 * Appends entries after every existing line. The existing text only ever gains
 * lines at its end: a final newline if it had none, a closer if it ended inside
 * a code fence or an HTML comment, and a blank line. Each entry is written with an explicit id
 * (`id` or the slug of its title), suffixed when it collides with an id in use.
 */
export function appendEntries(doc: EchoDocument, entries: EchoEntry[]): EchoDocument {
  if (entries.length === 0) return doc;
  const eol = doc.eol;
  let text = serializeEchoDocument(doc);
  const lines = splitLines(text);
  const last = lines[lines.length - 1];
  if (last) {
    if (!last.eol) text += eol;
    const closer = scan(lines).openCloser;
    if (closer) text += closer + eol;
    if (closer || !isBlank(last.text)) text += eol;
  }
  const taken = new Set(documentEntries(doc).map((e) => e.id));
  entries.forEach((entry, k) => {
    const id = uniqueId(entry.id || slugifyTitle(entry.title || entry.kind), taken);
    taken.add(id);
    text += (k > 0 ? eol : '') + renderEntry({ ...entry, id, idExplicit: true }, eol);
  });
  return parseEchoDocument(text);
}

/** The line ending of a block's last non-blank line plus the blank lines after it: kept when the block is rewritten. */
function blockTail(text: string): string {
  const lines = splitLines(text);
  let k = lines.length;
  while (k > 1 && isBlank(lines[k - 1]?.text ?? '')) k--;
  return (lines[k - 1]?.eol ?? '') + lines.slice(k).map((l) => l.raw).join('');
}

/**
 * Rewrites one entry in canonical form; every other block keeps its text. The
 * block keeps its id (written explicitly from now on) and its trailing blank lines.
 * Throws `not-found` when no entry has that id.
 */
export function replaceEntry(doc: EchoDocument, id: string, entry: EchoEntry): EchoDocument {
  const idx = doc.blocks.findIndex((b) => b.type === 'entry' && b.entry.id === id);
  const old = doc.blocks[idx];
  if (!old) throw new EchoesError('not-found', `no entry with id "${id}"; list ids with \`rune-echoes show\``);
  const bom = idx === 0 && old.text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = bom + renderEntryLines({ ...entry, id, idExplicit: true }).join(doc.eol) + blockTail(old.text);
  // Parsing the block alone gives exactly what a re-parse of the whole file gives:
  // its heading starts an entry and it ends where the old block ended.
  const alone = parseEchoDocument(text);
  const fresh = alone.blocks[0];
  if (!fresh || fresh.type !== 'entry' || alone.blocks.length !== 1) {
    throw new EchoesError('bad-argument', `entry "${id}" does not render as a single entry block`);
  }
  const first = old.line;
  const oldCount = countLines(old.text);
  const delta = countLines(text) - oldCount;
  const blocks = doc.blocks.map((b, k) =>
    k === idx ? { ...fresh, line: first } : k > idx ? { ...b, line: b.line + delta } : b);
  const issues = doc.issues
    .filter((i) => i.line < first || i.line >= first + oldCount)
    .map((i) => (i.line >= first + oldCount ? { ...i, line: i.line + delta } : i))
    .concat(alone.issues.map((i) => ({ ...i, line: i.line + first - 1 })))
    .sort((a, b) => a.line - b.line);
  return { ...doc, blocks, issues };
}

/** Drops the blocks of these entries; ids derived on read (v1) may shift afterwards. */
export function removeEntries(doc: EchoDocument, ids: string[]): { doc: EchoDocument; removed: EchoEntry[]; removedText: string[] } {
  const wanted = new Set(ids);
  const removed: EchoEntry[] = [];
  const removedText: string[] = [];
  let text = '';
  doc.blocks.forEach((b, k) => {
    if (b.type !== 'entry' || !wanted.has(b.entry.id)) {
      text += b.text;
      return;
    }
    const bom = k === 0 && b.text.startsWith('\uFEFF');
    if (bom) text += '\uFEFF';
    removed.push(b.entry);
    removedText.push(bom ? b.text.slice(1) : b.text);
  });
  return { doc: removed.length ? parseEchoDocument(text) : doc, removed, removedText };
}

/**
 * v1 → v2: the schema header says v2 (added at the top when missing), and every
 * entry without a written id gets one — a single `- **id**:` line inserted into
 * its field block, so the rest of the entry keeps its bytes. Entries pasted on
 * one line are rewritten in canonical form.
 */
export function upgradeToV2(doc: EchoDocument): { doc: EchoDocument; changed: string[]; idsWritten: string[] } {
  const changed: string[] = [];
  const idsWritten: string[] = [];
  const parts = doc.blocks.map((b) => b.text);
  doc.blocks.forEach((b, k) => {
    if (b.type !== 'entry' || b.entry.idExplicit) return;
    const { entry } = b;
    if (b.form === 'inline') {
      const bom = k === 0 && b.text.startsWith('\uFEFF') ? '\uFEFF' : '';
      parts[k] = bom + renderEntryLines({ ...entry, idExplicit: true }).join(doc.eol) + blockTail(b.text);
    } else {
      parts[k] = withIdLine(b.text, entry.id, doc.eol);
    }
    idsWritten.push(entry.id);
    changed.push(`line ${b.line}: wrote id "${entry.id}" for "${entry.title || entry.kind}"`);
  });
  let text = parts.join('');
  if (doc.schema !== 'v2') {
    const found = scan(splitLines(text));
    if (found.schemaRaw === 'v1') {
      const lines = splitLines(text);
      const line = lines[found.schemaLine];
      if (line) line.raw = line.raw.replace(/echo-schema:([ \t]*)v1/i, 'echo-schema:$1v2');
      text = lines.map((l) => l.raw).join('');
      changed.push(`line ${found.schemaLine + 1}: schema header v1 → v2`);
    } else if (found.schemaRaw === null) {
      const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
      text = bom + SCHEMA_HEADER + doc.eol + text.slice(bom.length);
      changed.push(`line 1: added schema header ${SCHEMA_HEADER}`);
    }
  }
  return { doc: changed.length ? parseEchoDocument(text) : doc, changed, idsWritten };
}

/** Writes `id` into the entry's field block: replaces an id line that is there, else inserts one before the first field. */
function withIdLine(blockText: string, id: string, eol: string): string {
  const lines = splitLines(blockText);
  const head = lines[0];
  if (!head) return blockText;
  let j = 1;
  while (j < lines.length && isBlank(lines[j]?.text ?? '')) j++;
  const firstField = parseFieldLine(lines[j]?.text ?? '');
  if (firstField) {
    for (let k = j; k < lines.length; k++) {
      const line = lines[k];
      const f = line ? parseFieldLine(line.text) : null;
      if (!line || !f) break;
      if (f.key === 'id') {
        line.raw = formatField(f.name, id, f.bullet) + (line.eol || '');
        return lines.map((l) => l.raw).join('');
      }
    }
    const at = lines[j];
    if (at) at.raw = formatField('id', id, firstField.bullet) + eol + at.raw;
    return lines.map((l) => l.raw).join('');
  }
  head.raw = head.eol ? `${head.raw}${formatField('id', id)}${eol}` : `${head.raw}${eol}${formatField('id', id)}`;
  return lines.map((l) => l.raw).join('');
}
