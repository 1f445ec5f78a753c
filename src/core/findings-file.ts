// What a findings file holds. `rune-echoes record` writes clean echo
// documents, but agents and other plugins also write these files directly,
// often wrapping their entries in a ```markdown fence or adding notes. Every
// entry is taken; whatever else is in the file is reported, so the file is
// kept (moved to the archive) rather than deleted with text nobody merged.
import type { EchoEntry } from './echo-entry.ts';
import { documentEntries, parseEchoDocument } from './echo-document.ts';

export interface FindingsRead {
  entries: EchoEntry[];
  /** Text that is neither an entry nor a header: notes, prose, broken entries. */
  leftover: string;
}

const FENCE = /^\s*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n\s*\1\s*$/;

/** Lines that carry nothing of their own: blank lines, the schema comment, titles, rules. */
function isFrame(line: string): boolean {
  const t = line.trim();
  return t === '' || /^<!--\s*echo-schema:[^>]*-->$/i.test(t) || /^#{1,2}\s/.test(t) || /^(-{3,}|\*{3,}|_{3,})$/.test(t);
}

export function readFindingsText(text: string): FindingsRead {
  // A file that is one fenced block is an agent's wrapped output: read inside the fence.
  const wrapped = FENCE.exec(text);
  const body = wrapped ? wrapped[2]! : text;
  const doc = parseEchoDocument(body);
  const leftover = doc.blocks
    .filter((b) => b.type === 'verbatim')
    .flatMap((b) => b.text.split(/\r?\n|\r/))
    .filter((line) => !isFrame(line))
    .join('\n');
  return { entries: documentEntries(doc), leftover };
}
