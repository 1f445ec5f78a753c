// What each kind of file contributes to the search index: one document per
// entry, per paragraph of hand-written text, per archive log, per solution.
// Pure: the store hands in the text and where it came from.

import { parseEchoDocument } from '../entry/echo-document.ts';
import type { EchoEntry } from '../entry/echo-entry.ts';
import { searchableText } from '../entry/entry-fields.ts';
import { entryDayMs } from '../lifecycle/echo-score.ts';
import { supersededKeys } from '../lifecycle/supersession.ts';
import { parseSolutionDoc } from '../remembrance/solution-doc.ts';
import { filterHead, filterSecrets } from '../security/secret-filter.ts';
import type { DocSource, IndexDoc } from './search-segment.ts';

/** Stored text per document is capped: snippets need the matching line, not a whole book. */
const MAX_STORED = 8000;

/**
 * What a document stores for display (search snippets, prompt-time recall):
 * filtered for secrets before it is cut, like every text that reaches the
 * model. Memory files are filtered when written, but a hand edit or a cloned
 * repository can put anything in them; so the text is filtered here once, when
 * indexed, and recall on every prompt need not load the filter.
 */
const shown = (text: string): string => filterHead(text, MAX_STORED);
const shownTitle = (title: string): string => filterSecrets(title).text;

/** The ranked fields, filtered as the stored text is: their words become the index's terms, kept on disk. */
const ranked = (fields: IndexDoc['fields']): IndexDoc['fields'] => ({
  title: filterSecrets(fields.title).text,
  tags: filterSecrets(fields.tags).text,
  body: filterSecrets(fields.body).text,
});

export interface DocOrigin {
  path: string;
  source: DocSource;
  role?: string;
  /** Whether an entry of the file is a teammate's (SPEC §6b), as the store judges it. */
  teammate?: (e: EchoEntry) => boolean;
}

const DAY = /\b(\d{4}-\d{2}-\d{2})\b/;

/** Entries and hand-written paragraphs of a memory, knowledge, archive or topic file. */
export function echoFileDocs(text: string, origin: DocOrigin): IndexDoc[] {
  const doc = parseEchoDocument(text);
  const out: IndexDoc[] = [];
  for (const block of doc.blocks) {
    if (block.type === 'entry') out.push(entryDoc(block.entry, block.text, block.line, origin));
    else out.push(...paragraphDocs(block.text, block.line, origin));
  }
  return out;
}

function entryDoc(e: EchoEntry, raw: string, line: number, origin: DocOrigin): IndexDoc {
  const date = (e.verified || e.date) === '' ? undefined : e.verified || e.date;
  // Only a live entry of a role's memory retires another (core/lifecycle/supersession.ts).
  const retires = origin.source === 'memory' && origin.role && !e.status && e.supersedes ? supersededKeys(e.supersedes, origin.role) : [];
  return {
    path: origin.path,
    line,
    source: origin.source,
    title: shownTitle(e.title || e.id),
    id: e.id,
    ...(origin.role ? { role: origin.role } : {}),
    layer: e.layer,
    ...(date ? { date } : {}),
    ...(e.status ? { status: e.status } : {}),
    ...(origin.teammate?.(e) ? { teammate: true } : {}),
    text: shown(raw),
    fields: ranked({ title: `${e.title} ${e.kind}`, tags: e.tags.join(' '), body: searchableText(e).replace(e.title, '') }),
    ...(retires.length ? { retires, retiresDay: entryDayMs(e) } : {}),
  };
}

/**
 * Hand-written text (knowledge blocks, notes, topic files): a document per
 * paragraph, a heading going with the paragraph under it. Paragraphs of only
 * markup (the schema comment, a lone title) are not worth a hit.
 */
function paragraphDocs(text: string, firstLine: number, origin: DocOrigin): IndexDoc[] {
  const out: IndexDoc[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  let start = -1;
  let heading = '';
  const flush = (end: number) => {
    if (start < 0) return;
    const at = start;
    const body = lines.slice(at, end).join('\n');
    start = -1;
    if (
      body
        .replace(/<!--[\s\S]*?-->|[#*`>|_-]/g, '')
        .trim()
        .split(/\s+/).length < 4
    )
      return;
    const title = titleOf(body) || heading || origin.path;
    const date = DAY.exec(body)?.[1];
    out.push({
      path: origin.path,
      line: firstLine + at,
      source: origin.source,
      title: shownTitle(title),
      ...(origin.role ? { role: origin.role } : {}),
      ...(date ? { date } : {}),
      text: shown(body),
      fields: ranked({ title, tags: '', body }),
    });
  };
  lines.forEach((line, i) => {
    if (line.trim() === '') {
      flush(i);
      return;
    }
    if (/^#{1,6}\s/.test(line)) {
      flush(i);
      heading = line.replace(/^#+\s*/, '').trim();
    }
    if (start < 0) start = i;
  });
  flush(lines.length);
  return out;
}

/** A short title for a paragraph: its heading, or its bold lead (`**topic** — 3 entries`), or its first words. */
function titleOf(paragraph: string): string {
  const first = paragraph.split('\n')[0]!.trim();
  const heading = /^#{1,6}\s+(.*)$/.exec(first)?.[1];
  if (heading) return heading.trim();
  const bold = /^\*\*(.+?)\*\*/.exec(first)?.[1];
  if (bold) return bold.trim();
  return first.replace(/^[-*>\s]+/, '').slice(0, 80);
}

/** An archive log or EPHEMERAL.md: one document, titled by the first request. */
export function sessionDocs(text: string, origin: DocOrigin): IndexDoc[] {
  if (text.trim() === '') return [];
  const asked = /^## Asked\s*\r?\n- (.*)$/m.exec(text)?.[1]?.trim();
  const heading = /^# (.*)$/m.exec(text)?.[1]?.trim();
  const title = asked || heading || origin.path;
  const date = /^- span: .*?(\d{4}-\d{2}-\d{2})/m.exec(text)?.[1] ?? DAY.exec(heading ?? '')?.[1] ?? DAY.exec(text)?.[1];
  return [
    {
      path: origin.path,
      line: 1,
      source: origin.source,
      title,
      ...(date ? { date } : {}),
      text: text.slice(0, MAX_STORED),
      fields: ranked({ title, tags: '', body: text }),
    },
  ];
}

/** A docs/solutions document: its frontmatter fields ranked as title, tags and body. */
export function solutionDocs(text: string, origin: DocOrigin & { fallbackTitle: string }): IndexDoc[] {
  const s = parseSolutionDoc(text, origin.fallbackTitle);
  const body = [s.symptom, s.rootCause, s.solutionSummary, s.category, s.body].filter((x) => x !== '').join('\n');
  return [
    {
      path: origin.path,
      line: 1,
      source: 'solution',
      title: shownTitle(s.title),
      ...(DAY.test(s.date) ? { date: DAY.exec(s.date)![1] } : {}),
      text: shown(text),
      fields: ranked({ title: s.title, tags: s.tags.join(' '), body }),
    },
  ];
}
