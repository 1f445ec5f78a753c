// What a findings file holds. `rune-echoes record` writes clean echo
// documents, but agents and other plugins also write these files directly,
// often wrapping their entries in a ```markdown fence, with a line of preface
// or notes. Every entry is taken, inside fences too; whatever else is in the
// file is reported, so the file is kept (moved to the archive) rather than
// deleted with text nobody merged.

import { documentEntries, parseEchoDocument } from './echo-document.ts';
import type { EchoEntry } from './echo-entry.ts';

export interface FindingsRead {
  entries: EchoEntry[];
  /** Text that is neither an entry nor the header `record` writes: notes, prose, broken entries. */
  leftover: string;
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})/;

/** Only what `record` itself puts around entries: blank lines, the schema comment, the file's H1 title. */
function isFrame(line: string): boolean {
  const t = line.trim();
  return t === '' || /^<!--\s*echo-schema:[^>]*-->$/i.test(t) || /^#\s/.test(t);
}

/** Splits text into the parts outside fences and the bodies of fenced blocks. */
function splitFences(text: string): { outside: string; fenced: string[] } {
  const lines = text.split(/(?<=\n)/);
  const outside: string[] = [];
  const fenced: string[] = [];
  let open: string | null = null;
  let body: string[] = [];
  for (const line of lines) {
    const m = FENCE_OPEN.exec(line);
    if (open === null) {
      if (m) {
        open = m[1]!;
        body = [];
      } else outside.push(line);
    } else if (m && line.trim().startsWith(open) && line.trim().replace(/[`~]/g, '') === '') {
      fenced.push(body.join(''));
      open = null;
    } else body.push(line);
  }
  // An unclosed fence is not a wrapper: keep its text as it was.
  if (open !== null) outside.push('```\n', ...body);
  return { outside: outside.join(''), fenced };
}

function leftoverOf(text: string): { entries: EchoEntry[]; leftover: string[] } {
  const doc = parseEchoDocument(text);
  const leftover = doc.blocks
    .filter((b) => b.type === 'verbatim')
    .flatMap((b) => b.text.split(/\r?\n|\r/))
    .filter((line) => !isFrame(line));
  return { entries: documentEntries(doc), leftover };
}

export function readFindingsText(text: string): FindingsRead {
  const { outside, fenced } = splitFences(text);
  const main = leftoverOf(outside);
  const entries = [...main.entries];
  const leftover = [...main.leftover];
  for (const body of fenced) {
    const inner = leftoverOf(body);
    // A fence with entries is an agent's wrapped output; one without is code, kept as text.
    if (inner.entries.length) {
      entries.push(...inner.entries);
      leftover.push(...inner.leftover);
    } else if (body.trim() !== '') leftover.push(...body.split(/\r?\n|\r/));
  }
  return { entries, leftover: leftover.join('\n') };
}
