// What prompt-time recall injects: the chosen items in the same inert
// `<rune-echoes>` wrapper as the digest, within a token budget. The texts come
// from the search index, which stores memory filtered for secrets (whole,
// before any cut: core/recall/search-docs.ts); here each line is neutralised so
// it can neither close the wrapper nor open a tag. Loaded only when a prompt
// has something to recall.
import { staleNote } from '../lifecycle/evidence-staleness.ts';
import { neutraliseTags } from '../security/tag-neutralise.ts';
import { clip, estimateTokens, oneLine } from '../text.ts';
import { fitListLine } from './digest.ts';
import { FILES_LINE, namedFilesLine, RECALL_NOTE } from './files-line.ts';

export { RECALL_NOTE };

/** One item as the index stored it (title and text filtered for secrets when indexed). */
export interface RecallItem {
  source: string;
  title: string;
  role?: string;
  id?: string;
  path: string;
  line: number;
  /** The item's text as written in its file (capped by the index). */
  text: string;
  staleSince?: string;
  /** A teammate's entry (SPEC §6b): the line says so. */
  teammate?: boolean;
}

export interface RenderedRecall {
  text: string;
  /** How many of the items (in order) made it into the text. */
  shown: number;
  /** How many of the files (in order) its last line names. */
  files: number;
  tokens: number;
}

/** An item shorter than this after cutting is not worth its place. */
const MIN_LINE = 90;

const FIELD = /^\s*-?\s*\*\*([^*]+)\*\*:?\s*(.*)$/;

/** The parts of a stored entry or paragraph worth a line: its learning and what it cites. */
export function itemParts(item: RecallItem): { body: string; evidence: string } {
  const lines = item.text.split(/\r\n|\r|\n/);
  if (item.source === 'solution') {
    const get = (key: string) => new RegExp(`^${key}:\\s*(.*)$`, 'm').exec(item.text)?.[1]?.replace(/^["']|["']$/g, '') ?? '';
    const body = [get('symptom'), get('solution_summary')].filter(Boolean).join(' — ');
    return { body: body || lines.filter((l) => !/^(---|\w+:)/.test(l)).join(' '), evidence: '' };
  }
  const body: string[] = [];
  let evidence = '';
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || /^#{1,6}\s/.test(line) || line.startsWith('<!--') || /^-{3,}$/.test(line)) continue;
    const field = FIELD.exec(line);
    if (field) {
      if (field[1]!.trim().toLowerCase() === 'evidence') evidence = field[2]!;
      continue;
    }
    body.push(line.replace(/^[-*]\s+/, ''));
  }
  return { body: body.join(' '), evidence };
}

/**
 * What an archive log says in a line: when the session ran, what was asked
 * first, what it left open (else its last conclusion) and the files it edited —
 * enough to know whether it is the session the prompt goes on from, where its
 * work lives, and where to read it.
 */
export function logParts(text: string): { day: string; asked: string; left: string; edited: string } {
  const section = (name: string): string[] => {
    const at = new RegExp(`^## ${name}\\s*$`, 'm').exec(text);
    if (!at) return [];
    const out: string[] = [];
    for (const line of text.slice(at.index + at[0].length).split(/\r?\n/)) {
      if (/^#{1,2}\s/.test(line)) break;
      if (line.startsWith('- '))
        out.push(
          line
            .slice(2)
            .replace(/^\[ \]\s*/, '')
            .trim(),
        );
    }
    return out;
  };
  const day = /^- span: .*?(\d{4}-\d{2}-\d{2})/m.exec(text)?.[1] ?? /^- written: (\d{4}-\d{2}-\d{2})/m.exec(text)?.[1] ?? '';
  const open = section('Open');
  const left = open.length > 0 ? `open: ${open.join('; ')}` : (section('Done and decided').at(-1) ?? '');
  const edited = section('Files').find((l) => l.startsWith('edited: '));
  return { day, asked: section('Asked')[0] ?? '', left, edited: edited ? edited.slice('edited: '.length) : '' };
}

/** Of a recalled log's line, the files it edited take at most this share: where the work it goes on from lives. */
const EDITED_SHARE = 0.3;

function logLine(item: RecallItem, max: number): string {
  const { day, asked, left, edited } = logParts(item.text);
  const tail = ` (${clip(item.path, 100)})`;
  const lead = `Earlier session${day ? ` ${day}` : ''}: ${oneLine(asked || item.title)}`;
  const room = Math.max(20, max - tail.length - 2);
  // Whole names, as many as their share holds (`edited: a.ts, b.ts (+3 more)`), or none.
  const files = edited ? (fitListLine(`- edited: ${oneLine(edited)}`, Math.floor(room * EDITED_SHARE))?.slice(2) ?? '') : '';
  // The request is cut to leave room for what the session left open and the files it edited: what a prompt
  // going on from it needs.
  const asks = clip(lead, left || files ? Math.max(60, Math.floor(room * 0.45)) : room);
  // What it left open comes before the files: on a line too short for both, the files give way.
  const leftRoom = room - asks.length - files.length - 6;
  if (!files || (left && leftRoom < 30)) return `- ${clip(left ? `${asks} — ${oneLine(left)}` : asks, room)}${tail}`;
  const kept = left ? ` — ${clip(oneLine(left), leftRoom)}` : '';
  return `- ${clip(`${asks}${kept}; ${files}`, room)}${tail}`;
}

function itemLine(item: RecallItem, max: number): string {
  if (item.source === 'log') return logLine(item, max);
  const { body, evidence } = itemParts(item);
  const title = oneLine(item.title);
  const where = [
    item.role ? `${item.role}${item.id ? `#${item.id}` : ''}` : item.path,
    item.teammate ? "a teammate's" : '',
    evidence ? `evidence: ${oneLine(evidence)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const stale = item.staleSince ? ` ${staleNote(item.staleSince)}` : '';
  const text = oneLine(body);
  const lead = text && !text.toLowerCase().startsWith(title.toLowerCase().replace(/…$/, '')) ? `${title}: ${text}` : text || title;
  const tail = ` (${clip(where, 100)})${stale}`;
  return `- ${clip(lead, Math.max(20, max - tail.length - 2))}${tail}`;
}

/**
 * The items in rank order, each one line, until the budget is spent (an item
 * that no longer fits in a useful length ends the list). Null when none fits.
 */
export function renderRecall(
  items: readonly RecallItem[],
  maxTokens: number,
  note = RECALL_NOTE,
  /** Files the prompt names, named by their paths on a last line that takes its room first. */
  files: readonly string[] = [],
): RenderedRecall | null {
  const open = `<rune-echoes note="${note}">`;
  const close = '</rune-echoes>';
  let room = maxTokens * 4 - open.length - close.length - 2;
  // The files line takes a quarter of the room at most: the items that cleared the bar come first.
  const filesLine = namedFilesLine(files, Math.min(Math.floor(room / 4), FILES_LINE));
  if (filesLine) room -= filesLine.line.length + 1;
  const lines: string[] = [];
  let tail = '';
  let shown = 0;
  for (const item of items) {
    const left = Math.min(room - 1, 420);
    if (left < MIN_LINE) break;
    let line = neutraliseTags(itemLine(item, left));
    // A tag begun on one line and finished on the next is broken up too.
    const joined = `${tail}\n${line}`;
    if (neutraliseTags(joined) !== joined) line = `· ${line}`;
    if (line.length + 1 > room) break;
    lines.push(line);
    tail = line.slice(-240);
    room -= line.length + 1;
    shown++;
  }
  if (shown === 0 && !filesLine) return null;
  // A files line after a line that left a tag open is broken up as the items are.
  const last =
    filesLine && neutraliseTags(`${tail}\n${filesLine.line}`) !== `${tail}\n${filesLine.line}` ? `· ${filesLine.line}` : filesLine?.line;
  const text = [open, ...lines, ...(last ? [last] : []), close].join('\n');
  return { text, shown, files: filesLine?.shown ?? 0, tokens: estimateTokens(text) };
}
