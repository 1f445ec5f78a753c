// Edits of a memory document that keep its promise: every block an edit does
// not touch keeps its exact bytes. Appends only add lines at the end, field
// updates change only the lines of those fields, removals drop whole blocks.

import { EchoesError } from '../errors.ts';
import { isBlank, quoteInput } from '../text.ts';
import {
  type Block,
  countLines,
  documentEntries,
  type EchoDocument,
  parseEchoDocument,
  renderEntry,
  SCHEMA_HEADER,
  serializeEchoDocument,
} from './echo-document.ts';
import type { EchoEntry } from './echo-entry.ts';
import { isThematicBreak, scan, splitLines } from './echo-scan.ts';
import { renderEntryLines, writtenValue } from './entry-build.ts';
import { BULLET_FIELDS, type FieldKey } from './entry-fields.ts';
import { slugifyTitle, uniqueId } from './entry-ids.ts';
import { formatField, parseFieldLine } from './field-syntax.ts';

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
  return (
    (lines[k - 1]?.eol ?? '') +
    lines
      .slice(k)
      .map((l) => l.raw)
      .join('')
  );
}

/**
 * Rewrites one entry in canonical form; every other block keeps its text. The
 * block keeps its id (written explicitly from now on) and its trailing blank lines.
 * Throws `not-found` when no entry has that id.
 */
export function replaceEntry(doc: EchoDocument, id: string, entry: EchoEntry): EchoDocument {
  const idx = entryIndex(doc, id);
  const old = doc.blocks[idx]!;
  const bom = idx === 0 && old.text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = bom + renderEntryLines({ ...entry, id, idExplicit: true }).join(doc.eol) + blockTail(old.text);
  return replaceBlockText(doc, idx, text, id);
}

function entryIndex(doc: EchoDocument, id: string): number {
  const idx = doc.blocks.findIndex((b) => b.type === 'entry' && b.entry.id === id);
  if (idx < 0) throw new EchoesError('not-found', `no entry with id "${quoteInput(id)}"; list ids with \`rune-echoes show\``);
  return idx;
}

/**
 * Changes field values of one entry in place: only the lines of those fields
 * change (a missing one is added to the field block, and an id is written
 * when the entry had none), so a hand-written body — fences, tables, quotes —
 * keeps its bytes. Entries pasted on one line are rewritten in canonical form.
 */
export function updateEntryFields(doc: EchoDocument, id: string, changes: Partial<Pick<EchoEntry, FieldKey>>): EchoDocument {
  const idx = entryIndex(doc, id);
  const old = doc.blocks[idx] as Extract<Block, { type: 'entry' }>;
  const entry = { ...old.entry, ...changes };
  if (old.form === 'inline') return replaceEntry(doc, id, entry);
  let text = old.entry.idExplicit ? old.text : withIdLine(old.text, id, doc.eol);
  for (const f of BULLET_FIELDS) {
    if (!(f.prop in changes) || f.prop === 'id') continue;
    text = withFieldValue(text, f.prop as FieldKey, f.key, writtenValue(f, entry), doc.eol);
  }
  return text === old.text ? doc : replaceBlockText(doc, idx, text, id);
}

/**
 * Adds lines to the end of an entry's body, as `- ` bullets before its
 * trailing blank lines; every existing line keeps its bytes. Entries pasted
 * on one line are rewritten in canonical form.
 */
export function appendLearning(doc: EchoDocument, id: string, learning: string): EchoDocument {
  const idx = entryIndex(doc, id);
  const old = doc.blocks[idx] as Extract<Block, { type: 'entry' }>;
  const added = learning.split(/\r\n|\r|\n/).filter((l) => !isBlank(l));
  if (added.length === 0) return doc;
  if (old.form === 'inline') return replaceEntry(doc, id, { ...old.entry, learning: `${old.entry.learning}\n${added.join('\n')}` });
  const lines = splitLines(old.text);
  let k = lines.length;
  while (k > 1 && isBlank(lines[k - 1]?.text ?? '')) k--;
  const last = lines[k - 1] as (typeof lines)[number];
  const insert = added.map((l) => `- ${l}${doc.eol}`).join('');
  last.raw = last.eol ? `${last.raw}${insert}` : `${last.raw}${doc.eol}${insert.slice(0, -doc.eol.length)}`;
  const text = lines.map((l) => l.raw).join('');
  return replaceBlockText(doc, idx, text, id);
}

/** Puts a new text in place of block `idx` (an entry block that must stay one entry), keeping line numbers right. */
function replaceBlockText(doc: EchoDocument, idx: number, text: string, id: string): EchoDocument {
  const old = doc.blocks[idx]!;
  // Parsing the block alone gives exactly what a re-parse of the whole file gives:
  // its heading starts an entry and it ends where the old block ended.
  const alone = parseEchoDocument(text);
  const fresh = alone.blocks[0];
  if (fresh?.type !== 'entry' || alone.blocks.length !== 1) {
    throw new EchoesError('bad-argument', `entry "${quoteInput(id)}" does not render as a single entry block`);
  }
  const first = old.line;
  const oldCount = countLines(old.text);
  const delta = countLines(text) - oldCount;
  const blocks = doc.blocks.map((b, k) => (k === idx ? { ...fresh, line: first } : k > idx ? { ...b, line: b.line + delta } : b));
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

/** A block of only `---` rules and blank lines: the separator people put between entries. */
function isSeparator(b: Block | undefined): boolean {
  if (b?.type !== 'verbatim') return false;
  const lines = splitLines(b.text);
  return lines.some((l) => isThematicBreak(l.text)) && lines.every((l) => isBlank(l.text) || isThematicBreak(l.text));
}

/**
 * Takes entries out to move them elsewhere (the archive): each leaves with its
 * exact bytes and with the `---` separator that sat next to it (the one after
 * it, or for the last entry the one before), so no stray rule stays behind.
 * Everything else keeps its bytes. `moved` is in document order; each `text`
 * is the entry block followed by its separator, if it had one.
 */
export function moveOutEntries(doc: EchoDocument, ids: string[]): { doc: EchoDocument; moved: Array<{ entry: EchoEntry; text: string }> } {
  const wanted = new Set(ids);
  const blocks = doc.blocks;
  const targets = blocks.flatMap((b, k) => (b.type === 'entry' && wanted.has(b.entry.id) ? [k] : []));
  if (targets.length === 0) return { doc, moved: [] };
  const gone = new Set<number>();
  const separatorOf = new Map<number, number>();
  for (const k of [...targets].reverse()) {
    gone.add(k);
    let next = k + 1;
    while (next < blocks.length && gone.has(next)) next++;
    let prev = k - 1;
    while (prev >= 0 && gone.has(prev)) prev--;
    if (isSeparator(blocks[next])) separatorOf.set(k, next);
    // A separator before an entry that nothing kept follows would end the file with a stray rule.
    else if (isSeparator(blocks[prev]) && blocks[next]?.type !== 'entry') separatorOf.set(k, prev);
    const sep = separatorOf.get(k);
    if (sep !== undefined) gone.add(sep);
  }
  const bomOf = (k: number) => (k === 0 && blocks[0]?.text.startsWith('\uFEFF') ? '\uFEFF' : '');
  const textOf = (k: number) => (blocks[k]?.text ?? '').slice(bomOf(k).length);
  let text = '';
  blocks.forEach((b, k) => {
    if (!gone.has(k)) text += b.text;
    else text += bomOf(k);
  });
  const moved = targets.map((k) => {
    const sep = separatorOf.get(k);
    const entry = (blocks[k] as Extract<Block, { type: 'entry' }>).entry;
    return { entry, text: textOf(k) + (sep === undefined ? '' : textOf(sep)) };
  });
  return { doc: parseEchoDocument(text), moved };
}

/**
 * Gives one entry a new id: only its id line changes (one is inserted when it
 * had none), so the rest of the block keeps its bytes. The merge driver uses it
 * when two people's different learnings arrive under one id.
 */
export function renameEntry(doc: EchoDocument, id: string, newId: string): EchoDocument {
  const idx = entryIndex(doc, id);
  const old = doc.blocks[idx] as Extract<Block, { type: 'entry' }>;
  // An entry pasted on one line has no id line to change: it is written in canonical form.
  if (old.form === 'inline') {
    const bom = idx === 0 && old.text.startsWith('\uFEFF') ? '\uFEFF' : '';
    const text = bom + renderEntryLines({ ...old.entry, id: newId, idExplicit: true }).join(doc.eol) + blockTail(old.text);
    return replaceBlockText(doc, idx, text, newId);
  }
  return replaceBlockText(doc, idx, withIdLine(old.text, newId, doc.eol), newId);
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

/** Sets (value) or removes (null) the line of one field in an entry block's field block; other lines keep their bytes. */
function withFieldValue(blockText: string, key: FieldKey, name: string, value: string | null, eol: string): string {
  const lines = splitLines(blockText);
  let j = 1;
  while (j < lines.length && isBlank(lines[j]?.text ?? '')) j++;
  let end = j;
  let bullet = true;
  for (let k = j; k < lines.length; k++) {
    const line = lines[k]!;
    const f = parseFieldLine(line.text);
    if (!f) break;
    if (k === j) bullet = f.bullet;
    end = k + 1;
    if (f.key !== key) continue;
    if (value === null) line.raw = '';
    else line.raw = formatField(f.name, value, f.bullet) + (line.eol || '');
    return lines.map((l) => l.raw).join('');
  }
  if (value === null) return blockText;
  const added = formatField(name, value, bullet);
  if (end > j) {
    const last = lines[end - 1]!;
    last.raw = last.eol ? `${last.raw}${added}${last.eol}` : `${last.raw}${eol}${added}`;
  } else {
    const head = lines[0]!;
    head.raw = head.eol ? `${head.raw}${added}${eol}` : `${head.raw}${eol}${added}`;
  }
  return lines.map((l) => l.raw).join('');
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
