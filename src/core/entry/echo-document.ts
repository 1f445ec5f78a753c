// A memory file as a lossless list of blocks (SPEC §4, STYLE "Parsing memory
// files"): every block keeps its exact source text, so serialising an untouched
// document gives back the input byte for byte, and an edit rewrites only the
// blocks it touches. Entry blocks carry a typed EchoEntry; everything else
// (headers, prose, tables, code, broken fragments) is a verbatim block.
//
// Parsing is one linear pass over the lines: code fences hide everything inside
// them, an entry starts at an entry heading and runs until a heading or
// separator that ends it. No regex here can backtrack beyond one line.
// Edits that keep this promise are in document-edits.ts.

import { isBlank } from '../text.ts';
import type { EchoEntry, ParseIssue } from './echo-entry.ts';
import {
  canonicalHeading,
  type EntryForm,
  LEGACY_DATE_RE,
  LEGACY_RE,
  type Line,
  type Segment,
  scan,
  splitLines,
  withoutClosingHashes,
} from './echo-scan.ts';
import { buildEntry, type RawEntry, renderEntryLines } from './entry-build.ts';
import { slugifyTitle, uniqueId } from './entry-ids.ts';
import { parseFieldLine, splitInlineFields, splitKindTitle } from './field-syntax.ts';
import { normalizeLearning } from './field-values.ts';

export type { ParseIssue } from './echo-entry.ts';
export type { EntryForm } from './echo-scan.ts';
export { countLines } from './echo-scan.ts';

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

// ---------------------------------------------------------------- parse

function readEntry(lines: Line[], seg: Segment, issues: ParseIssue[]): ReturnType<typeof buildEntry> {
  const head = lines[seg.start]?.text ?? '';
  const raw: RawEntry = {
    line: seg.start + 1,
    dateRaw: null,
    kind: '',
    title: '',
    headingLayer: null,
    strict: seg.form !== 'legacy',
    fields: [],
    learning: '',
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

/**
 * Verbatim blocks someone wrote by hand: not the file's own schema comment,
 * title, separators or blank lines, which every file the store writes has.
 */
export function handWrittenBlocks(doc: EchoDocument): number {
  const boilerplate = (line: string) => {
    const t = line.trim();
    return t === '' || t === '---' || /^<!--.*-->$/.test(t) || /^# \S/.test(t);
  };
  return doc.blocks.filter((b) => b.type === 'verbatim' && !b.text.split('\n').every(boilerplate)).length;
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
    issues.push({
      code: 'unknown-schema',
      line: found.schemaLine + 1,
      message: `echo-schema "${found.schemaRaw}" is not v1 or v2; read as v2`,
    });
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
    if (!taken.has(id)) {
      taken.add(id);
      return true;
    }
    issues.push({
      code: 'duplicate-id',
      line: entries[k]?.line ?? 0,
      message: `id "${id}" is used by an earlier entry; this one reads as a derived id`,
    });
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

// ---------------------------------------------------------------- rendering

/**
 * The entry as it reads back once written: a title's closing hashes, an
 * impossible date or a kind with a colon read differently from the value
 * given, and a repeat must be recognised by what is on disk.
 */
export function asStored(entry: EchoEntry): EchoEntry {
  return documentEntries(parseEchoDocument(renderEntry(entry)))[0] ?? entry;
}

/** Canonical v2 block of one entry, ending with a line ending, no blank line after it. */
export function renderEntry(entry: EchoEntry, eol: '\n' | '\r\n' = '\n'): string {
  return renderEntryLines(entry)
    .map((l) => l + eol)
    .join('');
}

/** Header of a new memory file, e.g. `newMemoryDocumentText('Reviewer Memory')`. */
export function newMemoryDocumentText(title: string, eol: '\n' | '\r\n' = '\n'): string {
  return `${SCHEMA_HEADER}${eol}# ${title.replace(/\r\n|\r|\n/g, ' ')}${eol}`;
}
