// The one declaration of an echo entry's fields (SPEC §4). Parsing and
// rendering (entry-build.ts), the security filter (security/entry-sanitize.ts),
// the CLI's entry options (cli/entry-options.ts), `show` and the search corpus
// all read this table, so a new field is one row here and cannot skip the
// filter: `filter` is 'secrets' unless a row says otherwise.

import type { EchoEntry } from './echo-entry.ts';

/** How a value is read and written; `id`, `layer`, `confidence`, `confidence-word`, `date` and `status` are checked values. */
export type FieldType = 'id' | 'text' | 'layer' | 'confidence' | 'confidence-word' | 'date' | 'tags' | 'status';

/**
 * What the security filter does with the field (SPEC §7):
 * - secrets: secrets inside are redacted, the rest kept;
 * - evidence: dropped whole when it holds a secret or cites an ignored path;
 * - checked: a structured value (a number, a date, a layer name) that cannot
 *   carry free text; the filter only confirms it still has its shape.
 */
export type FieldFilter = 'secrets' | 'evidence' | 'checked';

/** Entry properties that hold field values (idExplicit and extra are bookkeeping). */
export type EntryProp = Exclude<keyof EchoEntry, 'idExplicit' | 'extra'>;

export interface EntryField {
  prop: EntryProp;
  /**
   * Where it is written: in the `### [date] Kind: Title` heading, as a `- **key**:` bullet, as the body,
   * or beside the value of the bullet named `key` (`- **confidence**: 0.3 (LOW)`).
   */
  place: 'heading' | 'bullet' | 'body' | 'beside';
  /** The key written in markdown (`root_cause`); for heading and body parts, the name people use; for `beside`, the bullet it sits in. */
  key: string;
  /** Other spellings read as this field. */
  aliases: readonly string[];
  type: FieldType;
  /** Bullets written only when they have a value (required ones are always written). */
  optional: boolean;
  /** The value of an absent text field: '' for fields every entry has, undefined for the problem-solution fields. */
  absent: '' | undefined;
  filter: FieldFilter;
  /** The `record`/`remember` option that sets it, if any. */
  cli: { flag: string; aliases: readonly string[]; value: string } | null;
  /** Part of the text `search` ranks. */
  searchable: boolean;
  /** A column of `show`'s table, at `order` among the computed ones (score 2, age 3); `hideEmpty`: left out of a table where no entry has it. */
  column: { header: string; width: number; order: number; hideEmpty?: boolean } | null;
}

type Row = Pick<EntryField, 'prop' | 'place' | 'key' | 'type'> &
  Partial<Omit<EntryField, 'cli'>> & { cli?: string | [string, ...string[]]; value?: string };

/** Defaults: not optional, filtered for secrets, no CLI flag, not searched, no column. */
function row(r: Row): EntryField {
  const flags = r.cli === undefined ? null : Array.isArray(r.cli) ? r.cli : [r.cli];
  return {
    prop: r.prop,
    place: r.place,
    key: r.key,
    aliases: r.aliases ?? [],
    type: r.type,
    optional: r.optional ?? false,
    absent: 'absent' in r ? r.absent : r.type === 'text' || r.type === 'date' ? '' : undefined,
    filter: r.filter ?? 'secrets',
    cli: flags ? { flag: flags[0] as string, aliases: flags.slice(1), value: r.value ?? 'TEXT' } : null,
    searchable: r.searchable ?? false,
    column: r.column ?? null,
  };
}

/** In the order they are written: heading parts, then the bullets (with what sits beside them), then the body. */
export const ENTRY_FIELDS: readonly EntryField[] = [
  row({ prop: 'date', place: 'heading', key: 'date', type: 'date', filter: 'checked' }),
  row({ prop: 'kind', place: 'heading', key: 'kind', type: 'text', cli: 'kind', value: 'Pattern' }),
  row({
    prop: 'title',
    place: 'heading',
    key: 'title',
    type: 'text',
    cli: ['pattern', 'title'],
    value: '"Title"',
    searchable: true,
    column: { header: 'title', width: 50, order: 5 },
  }),
  // An id is filtered like text: one that would carry a secret is derived again from the filtered title.
  // Never cut: an id in `show` is pasted into forget, export and promote.
  row({ prop: 'id', place: 'bullet', key: 'id', type: 'id', column: { header: 'id', width: 200, order: 4 } }),
  row({
    prop: 'layer',
    place: 'bullet',
    key: 'layer',
    type: 'layer',
    filter: 'checked',
    cli: 'layer',
    value: 'etched|inscribed|traced',
    column: { header: 'layer', width: 22, order: 1 },
  }),
  row({ prop: 'source', place: 'bullet', key: 'source', type: 'text', optional: true, cli: 'source', value: 'S' }),
  row({ prop: 'confidence', place: 'bullet', key: 'confidence', type: 'confidence', filter: 'checked', cli: 'confidence', value: '0..1' }),
  // Legacy words keep their word beside the number: `Confidence: LOW` is written `0.3 (LOW)`.
  row({ prop: 'confidenceWord', place: 'beside', key: 'confidence', type: 'confidence-word', optional: true, filter: 'checked' }),
  row({
    prop: 'evidence',
    place: 'bullet',
    key: 'evidence',
    type: 'text',
    optional: true,
    filter: 'evidence',
    cli: 'evidence',
    value: '"file:lines — what"',
    searchable: true,
    column: { header: 'evidence', width: 60, order: 6 },
  }),
  row({ prop: 'verified', place: 'bullet', key: 'verified', type: 'date', optional: true, filter: 'checked' }),
  row({ prop: 'supersedes', place: 'bullet', key: 'supersedes', type: 'text', optional: true, cli: 'supersedes', value: 'ID' }),
  row({ prop: 'tags', place: 'bullet', key: 'tags', type: 'tags', optional: true, cli: 'tags', value: 'a,b', searchable: true }),
  row({
    prop: 'symptom',
    place: 'bullet',
    key: 'symptom',
    type: 'text',
    optional: true,
    absent: undefined,
    cli: 'symptom',
    searchable: true,
  }),
  row({
    prop: 'rootCause',
    place: 'bullet',
    key: 'root_cause',
    aliases: ['rootcause'],
    type: 'text',
    optional: true,
    absent: undefined,
    cli: 'root-cause',
    searchable: true,
  }),
  row({
    prop: 'solution',
    place: 'bullet',
    key: 'solution',
    type: 'text',
    optional: true,
    absent: undefined,
    cli: 'solution',
    searchable: true,
  }),
  row({ prop: 'status', place: 'bullet', key: 'status', type: 'status', optional: true, filter: 'checked' }),
  // Lessons capture wrote from what sessions did (SPEC §6a): which kind, the key later sightings merge by,
  // and the sessions that saw it (short ids), so a lesson seen twice becomes inscribed.
  row({
    prop: 'captured',
    place: 'bullet',
    key: 'captured',
    type: 'text',
    optional: true,
    absent: undefined,
    column: { header: 'captured', width: 12, order: 5, hideEmpty: true },
  }),
  row({ prop: 'signature', place: 'bullet', key: 'signature', type: 'text', optional: true, absent: undefined }),
  row({ prop: 'sessions', place: 'bullet', key: 'sessions', type: 'text', optional: true, absent: undefined }),
  // Who wrote it (SPEC §6b): a mark this clone's key alone can make (core/team/provenance.ts); an entry
  // without this clone's mark in a file git tracks is a teammate's.
  row({ prop: 'origin', place: 'bullet', key: 'origin', type: 'text', optional: true, absent: undefined, filter: 'checked' }),
  row({ prop: 'learning', place: 'body', key: 'learning', type: 'text', searchable: true }),
];

export const BULLET_FIELDS: readonly EntryField[] = ENTRY_FIELDS.filter((f) => f.place === 'bullet');
/** Values written beside a bullet's own value, each naming its bullet in `key`. */
export const BESIDE_FIELDS: readonly EntryField[] = ENTRY_FIELDS.filter((f) => f.place === 'beside');

/** Properties that hold a bullet field. */
export type FieldKey =
  | 'id'
  | 'layer'
  | 'source'
  | 'confidence'
  | 'evidence'
  | 'verified'
  | 'supersedes'
  | 'tags'
  | 'symptom'
  | 'rootCause'
  | 'solution'
  | 'status'
  | 'captured'
  | 'signature'
  | 'sessions'
  | 'origin';

const BY_NAME = new Map<string, EntryField>();
for (const f of BULLET_FIELDS) for (const name of [f.key, ...f.aliases]) BY_NAME.set(name, f);

/** The bullet field a written name stands for (`Root Cause`, `root-cause`, `rootcause`), or null. */
export function fieldByName(name: string): EntryField | null {
  const lower = name.trim().toLowerCase();
  return BY_NAME.get(lower) ?? BY_NAME.get(lower.replace(/[ -]+/g, '_')) ?? null;
}

export function fieldKey(name: string): FieldKey | null {
  return (fieldByName(name)?.prop as FieldKey | undefined) ?? null;
}

/** The entry's fields as a plain object for `--json` output: every field of the table, by property name. */
export function entryFieldValues(entry: EchoEntry): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of ENTRY_FIELDS) if (entry[f.prop] !== undefined) out[f.prop] = entry[f.prop];
  return out;
}

/** The text of every searchable field of an entry, one per line. */
export function searchableText(entry: EchoEntry): string {
  const parts: string[] = [];
  for (const f of ENTRY_FIELDS) {
    if (!f.searchable) continue;
    const v = entry[f.prop];
    if (Array.isArray(v)) parts.push(v.join(' '));
    else if (typeof v === 'string' && v !== '') parts.push(v);
  }
  return parts.join('\n');
}
