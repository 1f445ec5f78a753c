// From a parsed heading + field lines + free text to an EchoEntry, and back to
// canonical lines, both driven by the field table (entry-fields.ts). Reading
// is lenient and reports problems as issues; writing is strict.

import { isBlank, withoutLineBreaks } from '../text.ts';
import { CONFIDENCE_WORDS, type EchoEntry, type EntryStatus, type Layer, type ParseIssue } from './echo-entry.ts';
import { BESIDE_FIELDS, BULLET_FIELDS, ENTRY_FIELDS, type EntryField, type FieldKey, fieldKey } from './entry-fields.ts';
import { isValidId, slugifyTitle } from './entry-ids.ts';
import { type FieldLine, formatField, parseFieldLine } from './field-syntax.ts';
import { confidenceWord, formatConfidence, formatTags, normalizeLayer, parseConfidence, parseIsoDate, parseTags } from './field-values.ts';

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

interface ReadContext {
  raw: RawEntry;
  issue: (code: string, line: number, message: string) => void;
  extra: Array<[string, string]>;
}

/** One bullet field's value from what was written (`written` undefined: the field is absent). */
function readField(f: EntryField, written: FieldLine | undefined, line: number, ctx: ReadContext): unknown {
  const value = written?.value;
  const { raw, issue } = ctx;
  switch (f.type) {
    case 'id': {
      if (value === undefined) return null;
      if (isValidId(value)) return value;
      if (value.trim() === '') {
        issue('bad-id', line, 'empty id; one is derived from the title');
        return null;
      }
      const derived = slugifyTitle(value);
      issue('bad-id', line, `id "${value}" is not kebab-case; read as "${derived}"`);
      return derived;
    }
    case 'layer': {
      const layerRaw = value ?? raw.headingLayer;
      if (layerRaw === null) {
        if (raw.strict) issue('missing-layer', raw.line, 'entry has no layer; read as inscribed');
        return 'inscribed' satisfies Layer;
      }
      const norm = normalizeLayer(layerRaw);
      if (!norm.known) issue('unknown-layer', line, `unknown layer "${layerRaw}"; read as inscribed`);
      return norm.layer;
    }
    case 'confidence': {
      if (value === undefined) {
        if (raw.strict) issue('missing-confidence', raw.line, 'entry has no confidence; read as 0.5');
        return 0.5;
      }
      const c = parseConfidence(value);
      if (c === null) issue('bad-confidence', line, `confidence "${value}" is not 0..1 or HIGH/MEDIUM/LOW; read as 0.5`);
      return c ?? 0.5;
    }
    case 'date': {
      if (value === undefined || value === '') return '';
      const day = parseIsoDate(value);
      if (!day) issue('bad-date', line, `${f.key} "${value}" is not a YYYY-MM-DD date`);
      return day ?? '';
    }
    case 'tags':
      return parseTags(value ?? '');
    case 'status': {
      if (value === undefined) return undefined;
      const s = value.toLowerCase();
      if (s === 'superseded' || s === 'retracted') return s satisfies EntryStatus;
      issue('bad-status', line, `status "${value}" is not superseded or retracted`);
      // Kept aside, and kept before a second status written after it: rewritten, the first stays first and
      // the entry reads back as it did (an upgrade had put a later `retracted` first). Else at the end, as always.
      const later = ctx.extra.findIndex(([name]) => fieldKey(name) === f.key);
      ctx.extra.splice(later >= 0 ? later : ctx.extra.length, 0, [written?.name ?? f.key, value]);
      return undefined;
    }
    case 'confidence-word':
      return value === undefined ? undefined : (confidenceWord(value) ?? undefined);
    case 'text':
      return value ?? f.absent;
  }
}

/** The bullet a `beside` field sits in. */
function hostOf(f: EntryField): EntryField | undefined {
  return BULLET_FIELDS.find((b) => b.key === f.key);
}

/**
 * Builds the entry from its parsed parts. The id is left for the document to
 * assign (it must be unique in the file); `explicitId` is the usable id written
 * in the entry, if any.
 */
export function buildEntry(raw: RawEntry, issues: ParseIssue[]): { entry: EchoEntry; explicitId: string | null } {
  const issue = (code: string, line: number, message: string) => issues.push({ code, line, message });
  const seen = new Map<FieldKey, { field: FieldLine; line: number }>();
  const extra: Array<[string, string]> = [];
  for (const got of raw.fields) {
    const { field, line } = got;
    if (field.key && !seen.has(field.key)) {
      seen.set(field.key, got);
    } else {
      if (field.key) issue('duplicate-field', line, `field "${field.name}" appears twice; the first one is used`);
      extra.push([field.name, field.value]);
    }
  }

  let date = '';
  if (raw.dateRaw !== null) {
    date = parseIsoDate(raw.dateRaw) ?? '';
    if (!date) issue('bad-date', raw.line, `heading date "${raw.dateRaw}" is not a YYYY-MM-DD date`);
  }

  const ctx: ReadContext = { raw, issue, extra };
  const values: Record<string, unknown> = {};
  for (const f of BULLET_FIELDS) {
    const got = seen.get(f.prop as FieldKey);
    values[f.prop] = readField(f, got?.field, got?.line ?? raw.line, ctx);
  }
  for (const f of BESIDE_FIELDS) {
    const host = hostOf(f);
    const got = host ? seen.get(host.prop as FieldKey) : undefined;
    values[f.prop] = readField(f, got?.field, got?.line ?? raw.line, ctx);
  }
  const explicitId = values.id as string | null;
  // Legacy Rune entries never had a verified field; their heading date is the
  // last time anyone confirmed them.
  if (!values.verified && !raw.strict) values.verified = date;

  const entry = { kind: raw.kind, title: raw.title, learning: raw.learning, extra } as EchoEntry;
  for (const f of [...BULLET_FIELDS, ...BESIDE_FIELDS])
    if (values[f.prop] !== undefined) (entry as unknown as Record<string, unknown>)[f.prop] = values[f.prop];
  entry.id = explicitId ?? '';
  entry.idExplicit = explicitId !== null;
  entry.date = date;
  return { entry: orderedLikeTable(entry), explicitId };
}

const PROP_ORDER = ['id', 'idExplicit', ...ENTRY_FIELDS.map((f) => f.prop).filter((p) => p !== 'id'), 'extra'];

/** Same properties, in table order: entries compare and serialise alike however they were built. */
export function orderedLikeTable(entry: EchoEntry): EchoEntry {
  const e = entry as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of PROP_ORDER) if (e[key] !== undefined) out[key] = e[key];
  return out as unknown as EchoEntry;
}

/** The written form of one bullet, or null when it is not written. */
export function writtenValue(f: EntryField, entry: EchoEntry): string | null {
  const v = entry[f.prop];
  if (v === undefined) return null;
  switch (f.type) {
    case 'confidence': {
      // A legacy word stays beside the number while the number is still the word's.
      const word = entry.confidenceWord;
      const beside = word !== undefined && CONFIDENCE_WORDS[word] === v ? ` (${word})` : '';
      return formatConfidence(v as number) + beside;
    }
    case 'tags':
      return (v as string[]).length > 0 ? formatTags(v as string[]) : null;
    default:
      // An optional field is left out when it holds its absent value ('' or nothing).
      return f.optional && v === f.absent ? null : String(v);
  }
}

/** Canonical v2 lines of an entry (no line endings): heading, `- **id**:` first, then fields, then the learning as bullets. */
export function renderEntryLines(entry: EchoEntry): string[] {
  const kind = entry.kind ? `${withoutLineBreaks(entry.kind)}:${entry.title ? ' ' : ''}` : '';
  const head = `${entry.date ? `[${entry.date}] ` : ''}${kind}${withoutLineBreaks(entry.title)}`;
  const lines = [`### ${head}`.trimEnd()];
  for (const f of BULLET_FIELDS) {
    const value = writtenValue(f, entry);
    if (value !== null) lines.push(formatField(f.key, value));
  }
  for (const [name, value] of entry.extra) lines.push(formatField(name, value));
  const learning = entry.learning === '' ? [] : entry.learning.split('\n').map((l) => (isBlank(l) ? '' : `- ${l}`));
  // A first learning line that looks like a field would be read as one; a blank
  // line ends the field block first.
  if (learning[0] !== undefined && parseFieldLine(learning[0])) lines.push('');
  return lines.concat(learning);
}
