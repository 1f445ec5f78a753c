// The markdown syntax of fields: `- **field**: value` lines (leniently read:
// `**Field:**`, bold lines without a bullet), the seed's one-line pasted
// entries, and the `Kind: Title` of a heading. Which names are fields is the
// table's business (entry-fields.ts).

import { withoutLineBreaks } from '../text.ts';
import { type FieldKey, fieldKey } from './entry-fields.ts';

export interface FieldLine {
  /** The name as written, e.g. `Confidence` or `root_cause`. */
  name: string;
  /** The known field it maps to, or null for a field this model does not know. */
  key: FieldKey | null;
  value: string;
  /** True for `- **x**: y`, false for a bare `**x**: y` line. */
  bullet: boolean;
}

// Bounded name lengths keep these regexes linear; longer bold prefixes are prose
// ("- **Worker scope creep in long arcs**: …"), not fields.
const FIELD_RE = /^[ \t]{0,3}(?:([-*+])[ \t]+)?\*\*([A-Za-z][A-Za-z0-9 _-]{0,31})\*\*[ \t]*:[ \t]*(.*)$/s;
const FIELD_COLON_INSIDE_RE = /^[ \t]{0,3}(?:([-*+])[ \t]+)?\*\*([A-Za-z][A-Za-z0-9 _-]{0,31}):\*\*[ \t]*(.*)$/s;

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

const KIND_RE = /^(\p{L}[\p{L}\p{N} _/&+.-]{0,39}):(?:[ \t]+|$)(.*)$/su;

/** `Pattern: Unused imports` → kind `Pattern`, title `Unused imports`. */
export function splitKindTitle(text: string): { kind: string; title: string } {
  const m = KIND_RE.exec(text);
  if (!m) return { kind: '', title: text.trim() };
  return { kind: (m[1] ?? '').trim(), title: (m[2] ?? '').trim() };
}
