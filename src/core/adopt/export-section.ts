// `rune-echoes export` (issue 12): chosen entries written where every
// session reads them — a marked section of CLAUDE.md, or Claude Code auto
// memory topic files plus a marked block of index lines in its MEMORY.md.
// Pure: the texts in, the texts out. A re-run replaces the marked part in
// place and leaves every other byte as it was; `import` skips what export
// wrote, so nothing goes round in circles.
//
// Export never removes or rewrites a byte it did not write (issue 18): the end
// marker carries a hash of what lies between the markers, so a block is
// replaced only when it is exactly what export wrote. Text inside it that an
// entry brings can never spell a marker. A block edited by hand, or whose
// markers were, is left as it is and the export says why.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { sha256 } from '../security/fingerprint.ts';
import { clip, oneLine } from '../text.ts';

export const EXPORT_BEGIN =
  '<!-- rune-echoes:export begin (written by `rune-echoes export`; edits inside are replaced on the next export) -->';
/** The end marker of older exports, without the hash of the block. */
export const EXPORT_END = '<!-- rune-echoes:export end -->';
/** The frontmatter key (under `metadata:`; at the top in older exports) that marks a topic file export wrote. */
export const EXPORT_TOPIC_KEY = 'rune_echoes_export';

/** The end marker: the hash of the block, and how many line-end characters export put before the begin marker (`+2`). */
const END_LINE = /<!-- rune-echoes:export end(?: ([0-9a-f]{16}))?(?: \+(\d))? -->/g;

export const isExportBegin = (line: string): boolean => line.trim() === EXPORT_BEGIN;
export const isExportEnd = (line: string): boolean => /^<!-- rune-echoes:export end(?: [0-9a-f]{16})?(?: \+\d)? -->$/.test(line.trim());

export interface ExportedEntry {
  role: string;
  entry: EchoEntry;
}

const HEX = '0123456789abcdef';
function blockHash(text: string): string {
  const digest = sha256(new TextEncoder().encode(text));
  let out = '';
  for (let i = 0; i < 8; i++) out += HEX[(digest[i] ?? 0) >> 4]! + HEX[(digest[i] ?? 0) & 15]!;
  return out;
}

/** Text an entry brings into a marked block: it can open no comment, so it can spell no marker. */
export function inert(text: string): string {
  return text.replace(/<!--/g, '&lt;!--').replace(/-->/g, '--&gt;');
}

/** Where a block export wrote sits in a text, and what is between its markers. */
export interface MarkedBlock {
  start: number;
  end: number;
  /** The text between the begin marker's line end and the end marker. */
  body: string;
  /** Line-end characters before the begin marker that export put there (it appended the block after a blank line). */
  lead: number;
}

export type BlockSearch =
  | { state: 'none' }
  | { state: 'found'; block: MarkedBlock }
  /** Markers are there but no block is exactly what export wrote: nothing may be replaced. */
  | { state: 'edited' };

/**
 * The block export wrote: an end marker whose hash matches the text back to the nearest begin
 * marker. An end marker without a hash (older exports) counts only when it and its begin marker
 * are the only markers in the text.
 */
export function findMarkedBlock(text: string): BlockSearch {
  const begins = countOf(text, EXPORT_BEGIN);
  const ends = [...text.matchAll(END_LINE)];
  if (begins === 0 && ends.length === 0) return { state: 'none' };
  for (const m of ends) {
    const at = m.index ?? 0;
    const begin = text.lastIndexOf(EXPORT_BEGIN, at);
    if (begin < 0) continue;
    const bodyStart = begin + EXPORT_BEGIN.length;
    const body = text.slice(bodyStart, at);
    if (body.includes(EXPORT_BEGIN)) continue;
    const hash = m[1];
    const legacy = hash === undefined && begins === 1 && ends.length === 1;
    if (legacy || (hash !== undefined && blockHash(body) === hash)) {
      const lead = Number(m[2] ?? 0);
      return { state: 'found', block: { start: begin, end: at + m[0].length, body, lead } };
    }
  }
  return { state: 'edited' };
}

function countOf(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

/** The marked block for `block` (its lines), in the text's line endings, its end marker carrying the hash. */
function marked(block: string, eol: string, lead: number): string {
  const body = block.replace(/\r?\n/g, eol);
  const between = `${eol}${body}${body.endsWith(eol) || body === '' ? '' : eol}`;
  return `${EXPORT_BEGIN}${between}<!-- rune-echoes:export end ${blockHash(between)}${lead ? ` +${lead}` : ''} -->`;
}

export type MarkedEdit = { text: string } | { edited: true };

/** Puts `block` between the markers: in place of the block export wrote, else appended; never over an edited one. */
export function withMarkedBlock(current: string | null, block: string): MarkedEdit {
  const text = current ?? '';
  const eol = eolOf(text);
  const found = findMarkedBlock(text);
  if (found.state === 'edited') return { edited: true };
  if (found.state === 'found') {
    const { start, end, lead } = found.block;
    return { text: text.slice(0, start) + marked(block, eol, lead) + text.slice(end) };
  }
  if (text === '') return { text: `${marked(block, eol, 0)}${eol}` };
  const sep = text.endsWith('\n') ? (text.endsWith(`${eol}${eol}`) ? '' : eol) : `${eol}${eol}`;
  return { text: `${text}${sep}${marked(block, eol, sep.length)}${eol}` };
}

/** The text without the block export wrote (and the line end after it); unchanged when there is none. */
export function withoutMarkedBlock(current: string | null): MarkedEdit {
  const text = current ?? '';
  const found = findMarkedBlock(text);
  if (found.state === 'edited') return { edited: true };
  if (found.state === 'none') return { text };
  const { start, end, lead } = found.block;
  const after = text.startsWith('\r\n', end) ? end + 2 : text.startsWith('\n', end) ? end + 1 : end;
  // The blank line export put before the block goes with it, if it is still only line ends.
  const before = lead > 0 && /^[\r\n]+$/.test(text.slice(start - lead, start)) ? start - lead : start;
  return { text: text.slice(0, before) + text.slice(after) };
}

/** The `role/id` each line of an exported block names (CLAUDE.md lines end `_(role/id)_`, index lines link the topic file). */
export function blockLines(body: string): Array<{ key: string; role: string; line: string }> {
  const out: Array<{ key: string; role: string; line: string }> = [];
  for (const line of body.split(/\r?\n/)) {
    const m = /_\(([a-z0-9][a-z0-9-]*)\/([^)\s]+)\)_$/.exec(line) ?? /\]\(rune-echoes_([a-z0-9][a-z0-9-]*)_([^)\s]+)\.md\)/.exec(line);
    if (m && line.startsWith('- ')) out.push({ key: `${m[1]}/${m[2]}`, role: m[1]!, line });
  }
  return out;
}

/** The line of an entry in the CLAUDE.md section. */
function claudeMdLine({ role, entry }: ExportedEntry): string {
  const learning = inert(oneLine(entry.learning));
  const title = inert(oneLine(entry.title)).replace(/[.!?]+$/, '');
  // A learning that starts with its own title (remembered one-liners) is written once.
  const text = learning.startsWith(title) ? clip(learning, 400) : `**${title}** — ${clip(learning, 400)}`;
  return `- ${text} _(${role}/${entry.id})_`;
}

/**
 * The CLAUDE.md section: a heading and one line per entry, grouped by role. `kept` are lines of the
 * earlier export that stay (other roles' when one role is exported again); empty when nothing is left.
 */
export function claudeMdSection(items: ExportedEntry[], today: string, kept: string[] = []): string {
  const lines = [...kept, ...items.map(claudeMdLine)];
  if (lines.length === 0) return '';
  return `${[`## Team memory (Rune Echoes, ${today})`, '', ...lines].join('\n')}\n`;
}

/** File name of the topic file an exported entry gets in auto memory. */
export function topicFileName(item: ExportedEntry): string {
  return `rune-echoes_${item.role}_${item.entry.id}.md`;
}

/** A kebab-case name, as Claude Code names a memory (`[a-z0-9-]`). */
const kebab = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/**
 * A topic file in Claude Code's shape (2.1.330): a kebab-case `name`, a one-line `description`
 * and `metadata: type:`; then the learning and where it came from.
 */
export function topicFile(item: ExportedEntry): string {
  const { entry, role } = item;
  const yamlString = (s: string) => JSON.stringify(oneLine(s));
  const lines = [
    '---',
    `name: ${kebab(`rune-echoes-${role}-${entry.id}`)}`,
    `description: ${yamlString(clip(oneLine(entry.learning), 200))}`,
    'metadata:',
    `  type: ${entry.layer === 'etched' ? 'project' : 'feedback'}`,
    `  ${EXPORT_TOPIC_KEY}: ${yamlString(`${role}/${entry.id}`)}`,
    '---',
    '',
    `# ${oneLine(entry.title)}`,
    '',
    entry.learning,
    '',
  ];
  if (entry.evidence) lines.push(`Evidence: ${entry.evidence}`, '');
  lines.push(`From Rune Echoes (${role}/MEMORY.md, id \`${entry.id}\`, ${entry.layer}); \`rune-echoes export\` rewrites this file.`, '');
  return lines.join('\n');
}

/** The line of an entry in auto memory's index. */
export function autoMemoryIndexLine(item: ExportedEntry): string {
  return `- [${inert(oneLine(item.entry.title))}](${topicFileName(item)}) — ${inert(clip(oneLine(item.entry.learning), 150))}`;
}

/** The index lines export keeps between the markers of auto memory's MEMORY.md; `kept` as for claudeMdSection. */
export function autoMemoryIndexBlock(items: ExportedEntry[], kept: string[] = []): string {
  const lines = [...kept, ...items.map(autoMemoryIndexLine)];
  if (lines.length === 0) return '';
  return `${['## Team memory (Rune Echoes)', '', ...lines].join('\n')}\n`;
}
