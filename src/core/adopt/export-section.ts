// `rune-echoes export` (issue 12): chosen entries written where every
// session reads them — a marked section of CLAUDE.md, or Claude Code auto
// memory topic files plus a marked block of index lines in its MEMORY.md.
// Pure: the texts in, the texts out. A re-run replaces the marked part in
// place and leaves every other byte as it was; `import` skips what export
// wrote, so nothing goes round in circles.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { clip, oneLine } from '../text.ts';

export const EXPORT_BEGIN =
  '<!-- rune-echoes:export begin (written by `rune-echoes export`; edits inside are replaced on the next export) -->';
export const EXPORT_END = '<!-- rune-echoes:export end -->';
/** The frontmatter key that marks a topic file export wrote (and may rewrite or remove). */
export const EXPORT_TOPIC_KEY = 'rune_echoes_export';

export interface ExportedEntry {
  role: string;
  entry: EchoEntry;
}

/** Puts `block` between the markers: replaced in place when the markers are there, else appended. */
export function withMarkedBlock(current: string | null, block: string): string {
  const text = current ?? '';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const body = block.replace(/\r?\n/g, eol);
  const marked = `${EXPORT_BEGIN}${eol}${body}${body.endsWith(eol) || body === '' ? '' : eol}${EXPORT_END}`;
  const begin = text.indexOf(EXPORT_BEGIN);
  const end = begin < 0 ? -1 : text.indexOf(EXPORT_END, begin);
  if (begin >= 0 && end >= 0) return text.slice(0, begin) + marked + text.slice(end + EXPORT_END.length);
  if (text === '') return `${marked}${eol}`;
  const sep = text.endsWith('\n') ? (text.endsWith(`${eol}${eol}`) ? '' : eol) : `${eol}${eol}`;
  return `${text}${sep}${marked}${eol}`;
}

/** The CLAUDE.md section: a heading and one line per entry, grouped by role. */
export function claudeMdSection(items: ExportedEntry[], today: string): string {
  const lines = [`## Team memory (Rune Echoes, ${today})`, ''];
  if (items.length === 0) lines.push('No entries chosen for export yet.');
  for (const { role, entry } of items) {
    const learning = oneLine(entry.learning);
    const title = oneLine(entry.title).replace(/[.!?]+$/, '');
    // A learning that starts with its own title (remembered one-liners) is written once.
    const text = learning.startsWith(title) ? clip(learning, 400) : `**${title}** — ${clip(learning, 400)}`;
    lines.push(`- ${text} _(${role}/${entry.id})_`);
  }
  return `${lines.join('\n')}\n`;
}

/** File name of the topic file an exported entry gets in auto memory. */
export function topicFileName(item: ExportedEntry): string {
  return `rune-echoes_${item.role}_${item.entry.id}.md`;
}

/** A topic file in auto memory's shape: name, description and type, then the learning and where it came from. */
export function topicFile(item: ExportedEntry): string {
  const { entry, role } = item;
  const yamlString = (s: string) => JSON.stringify(oneLine(s));
  const lines = [
    '---',
    `name: ${yamlString(entry.title)}`,
    `description: ${yamlString(clip(oneLine(entry.learning), 200))}`,
    `type: ${entry.layer === 'etched' ? 'project' : 'feedback'}`,
    `${EXPORT_TOPIC_KEY}: ${yamlString(`${role}/${entry.id}`)}`,
    '---',
    '',
    entry.learning,
    '',
  ];
  if (entry.evidence) lines.push(`Evidence: ${entry.evidence}`, '');
  lines.push(`From Rune Echoes (${role}/MEMORY.md, id \`${entry.id}\`, ${entry.layer}); \`rune-echoes export\` rewrites this file.`, '');
  return lines.join('\n');
}

/** The index lines export keeps between the markers of auto memory's MEMORY.md. */
export function autoMemoryIndexBlock(items: ExportedEntry[]): string {
  if (items.length === 0) return '';
  const lines = ['## Team memory (Rune Echoes)', ''];
  for (const item of items)
    lines.push(`- [${oneLine(item.entry.title)}](${topicFileName(item)}) — ${clip(oneLine(item.entry.learning), 150)}`);
  return `${lines.join('\n')}\n`;
}
