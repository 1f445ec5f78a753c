// The `- **field**: value` lines of an echo entry, and the step from a parsed
// heading + fields + free text to an EchoEntry (and back to canonical lines).
// Hand-edited files vary a lot, so reading is lenient (`**Field:**`, bold lines
// without a bullet, HIGH/LOW confidence, legacy layer names) and writing is strict.

import { type EchoEntry, type EntryStatus, type Layer, isLayer } from './echo-entry.ts';
import { isValidId, slugifyTitle } from './entry-ids.ts';
import { isBlank, withoutLineBreaks } from '../text.ts';

export interface ParseIssue {
  code: string;
  /** 1-based line in the whole document. */
  line: number;
  message: string;
}

export type FieldKey =
  | 'id' | 'layer' | 'source' | 'confidence' | 'evidence' | 'verified' | 'supersedes'
  | 'tags' | 'symptom' | 'rootCause' | 'solution' | 'status';

export interface FieldLine {
  /** The name as written, e.g. `Confidence` or `root_cause`. */
  name: string;
  /** The known field it maps to, or null for a field this model does not know. */
  key: FieldKey | null;
  value: string;
  /** True for `- **x**: y`, false for a bare `**x**: y` line. */
  bullet: boolean;
}

const KEYS: Record<string, FieldKey> = {
  id: 'id', layer: 'layer', source: 'source', confidence: 'confidence', evidence: 'evidence',
  verified: 'verified', supersedes: 'supersedes', tags: 'tags', symptom: 'symptom',
  root_cause: 'rootCause', rootcause: 'rootCause', solution: 'solution', status: 'status',
};

// Bounded name lengths keep these regexes linear; longer bold prefixes are prose
// ("- **Worker scope creep in long arcs**: …"), not fields.
const FIELD_RE = /^[ \t]{0,3}(?:([-*+])[ \t]+)?\*\*([A-Za-z][A-Za-z0-9 _-]{0,31})\*\*[ \t]*:[ \t]*(.*)$/s;
const FIELD_COLON_INSIDE_RE = /^[ \t]{0,3}(?:([-*+])[ \t]+)?\*\*([A-Za-z][A-Za-z0-9 _-]{0,31}):\*\*[ \t]*(.*)$/s;

export function fieldKey(name: string): FieldKey | null {
  const lower = name.trim().toLowerCase();
  return KEYS[lower] ?? KEYS[lower.replace(/[ -]+/g, '_')] ?? null;
}

/** One field line, or null when the line is not a field. `content` has no line ending. */
export function parseFieldLine(content: string): FieldLine | null {
  if (content.indexOf('**') < 0) return null;
  const m = FIELD_RE.exec(content) ?? FIELD_COLON_INSIDE_RE.exec(content);
  if (!m) return null;
  const name = (m[2] ?? '').trim();
  return { name, key: fieldKey(name), value: (m[3] ?? '').trim(), bullet: m[1] !== undefined };
}

export function formatField(name: string, value: string, bullet = true): string {
  return `${bullet ? '- ' : ''}**${name}**: ${withoutLineBreaks(value)}`;
}

// Matches start at the dash (the blank before it is checked by lookbehind) so a
// long run of spaces is never rescanned from every position.
const INLINE_FIELD_RE = /(?<=[ \t])-[ \t]+\*\*([A-Za-z][A-Za-z0-9 _-]{0,31})\*\*[ \t]*:[ \t]*/g;
const INLINE_SEP_RE = /(?<=[ \t])-[ \t]+/;

/**
 * The seed's example entries were pasted onto one line:
 * `Architecture: X - **layer**: etched - **source**: manual - … - **supersedes**: none - Learning.`
 * Splits such a heading text into the title part, its fields and the trailing
 * learning. Returns null unless the first inline field is a known one, so a
 * title that merely contains ` - **bold**:` stays a title.
 */
export function splitInlineFields(text: string): { head: string; fields: FieldLine[]; learning: string } | null {
  const marks: Array<{ start: number; end: number; name: string }> = [];
  INLINE_FIELD_RE.lastIndex = 0;
  for (let m = INLINE_FIELD_RE.exec(text); m; m = INLINE_FIELD_RE.exec(text)) {
    marks.push({ start: m.index, end: m.index + m[0].length, name: (m[1] ?? '').trim() });
  }
  const first = marks[0];
  if (!first || !fieldKey(first.name)) return null;
  const fields: FieldLine[] = [];
  let learning = '';
  marks.forEach((mark, i) => {
    const next = marks[i + 1];
    let value = text.slice(mark.end, next ? next.start : text.length);
    if (!next) {
      // The learning follows the last field after ` - `; values of the last field
      // (usually `supersedes: none`) therefore cannot contain ` - ` themselves.
      const sep = INLINE_SEP_RE.exec(value);
      if (sep) {
        learning = value.slice(sep.index + sep[0].length).trim();
        value = value.slice(0, sep.index);
      }
    }
    fields.push({ name: mark.name, key: fieldKey(mark.name), value: value.trim(), bullet: true });
  });
  return { head: text.slice(0, first.start).trim(), fields, learning };
}

const KIND_RE = /^(\p{L}[\p{L}\p{N} _\/&+.-]{0,39}):(?:[ \t]+|$)(.*)$/su;

/** `Pattern: Unused imports` → kind `Pattern`, title `Unused imports`. */
export function splitKindTitle(text: string): { kind: string; title: string } {
  const m = KIND_RE.exec(text);
  if (!m) return { kind: '', title: text.trim() };
  return { kind: (m[1] ?? '').trim(), title: (m[2] ?? '').trim() };
}

const CONFIDENCE_WORDS: Record<string, number> = { high: 0.9, medium: 0.6, med: 0.6, low: 0.3 };

/** 0..1 from `0.85`, `"0.9"`, `85%`, `HIGH (5 Ashes…)`; null when unreadable or out of range. */
export function parseConfidence(raw: string): number | null {
  const s = raw.trim().replace(/^["'`]+|["'`]+$/g, '');
  // The number must stand alone: `0.0-1.0` is the seed's template, not a value.
  // Unambiguous number grammar: a digit run can only be split one way, so a long
  // run followed by junk fails in linear time.
  const num = /^((?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)[ \t]*(%?)(?=$|[ \t(,;])/.exec(s);
  if (num) {
    const n = Number(num[1]) / (num[2] ? 100 : 1);
    return Number.isFinite(n) && n >= 0 && n <= 1 ? n : null;
  }
  const word = /^([A-Za-z]+)/.exec(s);
  return word ? CONFIDENCE_WORDS[(word[1] ?? '').toLowerCase()] ?? null : null;
}

/** `1` → `1.0` as in the seed; other values print exactly so they read back equal. */
export function formatConfidence(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

const LAYER_ALIASES: Record<string, Layer> = {
  observations: 'traced', observation: 'traced', session: 'traced',
  // Rune's own consolidation pass wrote merged inscribed entries under this name.
  consolidated: 'inscribed',
};

/** Known layer names and legacy aliases; anything else is inscribed, with `known: false`. */
export function normalizeLayer(raw: string): { layer: Layer; known: boolean } {
  const word = raw.toLowerCase().replace(/\(.*$/s, '').replace(/[`*"']/g, '').trim();
  if (isLayer(word)) return { layer: word, known: true };
  const alias = LAYER_ALIASES[word];
  return alias ? { layer: alias, known: true } : { layer: 'inscribed', known: false };
}

/** `a, b`, `[a, b]`, `#a #b` → ['a', 'b']. */
export function parseTags(raw: string): string[] {
  if (raw === '') return [];
  const inner = raw.trim().replace(/^\[(.*)\]$/s, '$1');
  const parts = inner.includes(',') ? inner.split(',') : inner.split(/[ \t]+/);
  return parts.map((t) => t.trim().replace(/^#/, '').replace(/^["'`]|["'`]$/g, '')).filter((t) => t.length > 0);
}

export function formatTags(tags: string[]): string {
  return tags.join(', ');
}

/** A real calendar date written as YYYY-MM-DD at the start of `raw`, else null. */
export function parseIsoDate(raw: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?![0-9])/.exec(raw.trim());
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1] ?? 0;
  return d >= 1 && d <= days ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** Free text of an entry: blank edges dropped, and one `- ` bullet marker removed when every line has it. */
export function normalizeLearning(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && isBlank(lines[start] ?? '')) start++;
  while (end > start && isBlank(lines[end - 1] ?? '')) end--;
  const body = lines.slice(start, end).map((l) => (isBlank(l) ? '' : l));
  const bulleted = body.every((l) => l === '' || l.startsWith('- '));
  return (bulleted ? body.map((l) => (l === '' ? l : l.slice(2))) : body).join('\n');
}

export interface RawEntry {
  /** 1-based line of the heading. */
  line: number;
  /** Text inside `[…]` of the heading, or the `(YYYY-MM-DD)` of a legacy heading; null when none. */
  dateRaw: string | null;
  kind: string;
  title: string;
  /** Layer word of a legacy `## Inscribed — …` heading. */
  headingLayer: string | null;
  /** False for legacy headings, whose format never required layer or confidence fields. */
  strict: boolean;
  fields: Array<{ field: FieldLine; line: number }>;
  learning: string;
}

/**
 * Builds the entry from its parsed parts. The id is left for the document to
 * assign (it must be unique in the file); `explicitId` is the usable id written
 * in the entry, if any.
 */
export function buildEntry(raw: RawEntry, issues: ParseIssue[]): { entry: EchoEntry; explicitId: string | null } {
  const issue = (code: string, line: number, message: string) => issues.push({ code, line, message });
  const seen = new Map<FieldKey, FieldLine>();
  const extra: Array<[string, string]> = [];
  const lineOf = new Map<FieldKey, number>();
  for (const { field, line } of raw.fields) {
    if (field.key && !seen.has(field.key)) {
      seen.set(field.key, field);
      lineOf.set(field.key, line);
    } else {
      if (field.key) issue('duplicate-field', line, `field "${field.name}" appears twice; the first one is used`);
      extra.push([field.name, field.value]);
    }
  }
  const get = (key: FieldKey) => seen.get(key)?.value;

  let date = '';
  if (raw.dateRaw !== null) {
    date = parseIsoDate(raw.dateRaw) ?? '';
    if (!date) issue('bad-date', raw.line, `heading date "${raw.dateRaw}" is not a YYYY-MM-DD date`);
  }

  let layer: Layer = 'inscribed';
  const layerRaw = get('layer') ?? raw.headingLayer;
  if (layerRaw === null || layerRaw === undefined) {
    if (raw.strict) issue('missing-layer', raw.line, 'entry has no layer; read as inscribed');
  } else {
    const norm = normalizeLayer(layerRaw);
    layer = norm.layer;
    if (!norm.known) issue('unknown-layer', lineOf.get('layer') ?? raw.line, `unknown layer "${layerRaw}"; read as inscribed`);
  }

  let confidence = 0.5;
  const confRaw = get('confidence');
  if (confRaw === undefined) {
    if (raw.strict) issue('missing-confidence', raw.line, 'entry has no confidence; read as 0.5');
  } else {
    const c = parseConfidence(confRaw);
    if (c === null) issue('bad-confidence', lineOf.get('confidence') ?? raw.line, `confidence "${confRaw}" is not 0..1 or HIGH/MEDIUM/LOW; read as 0.5`);
    else confidence = c;
  }

  let verified = '';
  const verRaw = get('verified');
  if (verRaw !== undefined && verRaw !== '') {
    verified = parseIsoDate(verRaw) ?? '';
    if (!verified) issue('bad-date', lineOf.get('verified') ?? raw.line, `verified "${verRaw}" is not a YYYY-MM-DD date`);
  }
  // Legacy Rune entries never had a verified field; their heading date is the
  // last time anyone confirmed them.
  if (!verified && !raw.strict) verified = date;

  let status: EntryStatus | undefined;
  const statusRaw = get('status');
  if (statusRaw !== undefined) {
    const s = statusRaw.toLowerCase();
    if (s === 'superseded' || s === 'retracted') status = s;
    else {
      issue('bad-status', lineOf.get('status') ?? raw.line, `status "${statusRaw}" is not superseded or retracted`);
      extra.push([seen.get('status')?.name ?? 'status', statusRaw]);
    }
  }

  let explicitId: string | null = null;
  const idRaw = get('id');
  if (idRaw !== undefined) {
    if (isValidId(idRaw)) explicitId = idRaw;
    else if (idRaw.trim() === '') issue('bad-id', lineOf.get('id') ?? raw.line, 'empty id; one is derived from the title');
    else {
      explicitId = slugifyTitle(idRaw);
      issue('bad-id', lineOf.get('id') ?? raw.line, `id "${idRaw}" is not kebab-case; read as "${explicitId}"`);
    }
  }

  const entry: EchoEntry = {
    id: explicitId ?? '',
    idExplicit: explicitId !== null,
    date,
    kind: raw.kind,
    title: raw.title,
    layer,
    source: get('source') ?? '',
    confidence,
    evidence: get('evidence') ?? '',
    verified,
    supersedes: get('supersedes') ?? '',
    tags: parseTags(get('tags') ?? ''),
    learning: raw.learning,
    extra,
  };
  const symptom = get('symptom');
  const rootCause = get('rootCause');
  const solution = get('solution');
  if (symptom !== undefined) entry.symptom = symptom;
  if (rootCause !== undefined) entry.rootCause = rootCause;
  if (solution !== undefined) entry.solution = solution;
  if (status) entry.status = status;
  return { entry, explicitId };
}

/** Canonical v2 lines of an entry (no line endings): heading, `- **id**:` first, then fields, then the learning as bullets. */
export function renderEntryLines(entry: EchoEntry): string[] {
  const head = `${entry.date ? `[${entry.date}] ` : ''}${entry.kind ? `${withoutLineBreaks(entry.kind)}:${entry.title ? ' ' : ''}` : ''}${withoutLineBreaks(entry.title)}`;
  const lines = [`### ${head}`.trimEnd(), formatField('id', entry.id), formatField('layer', entry.layer)];
  if (entry.source) lines.push(formatField('source', entry.source));
  lines.push(formatField('confidence', formatConfidence(entry.confidence)));
  if (entry.evidence) lines.push(formatField('evidence', entry.evidence));
  if (entry.verified) lines.push(formatField('verified', entry.verified));
  if (entry.supersedes) lines.push(formatField('supersedes', entry.supersedes));
  if (entry.tags.length > 0) lines.push(formatField('tags', formatTags(entry.tags)));
  if (entry.symptom !== undefined) lines.push(formatField('symptom', entry.symptom));
  if (entry.rootCause !== undefined) lines.push(formatField('root_cause', entry.rootCause));
  if (entry.solution !== undefined) lines.push(formatField('solution', entry.solution));
  if (entry.status !== undefined) lines.push(formatField('status', entry.status));
  for (const [name, value] of entry.extra) lines.push(formatField(name, value));
  const learning = entry.learning === '' ? [] : entry.learning.split('\n').map((l) => (isBlank(l) ? '' : `- ${l}`));
  // A first learning line that looks like a field would be read as one; a blank
  // line ends the field block first.
  if (learning[0] !== undefined && parseFieldLine(learning[0])) lines.push('');
  return lines.concat(learning);
}

