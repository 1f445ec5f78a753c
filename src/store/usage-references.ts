// SPEC §5: a session references an entry when the entry was injected, when its
// transcript names the entry's id or title, or when it read or edited a file
// the entry's evidence cites (picomatch).
import picomatch from 'picomatch';
import type { EchoEntry } from '../core/echo-entry.ts';
import { evidencePaths } from '../core/path-ignore.ts';
import type { SessionSummary } from '../core/session-summary.ts';

export function referencedIds(entries: EchoEntry[], summary: SessionSummary): string[] {
  const named = new Set(summary.namedTerms.map((t) => t.toLowerCase()));
  const files = [...summary.filesRead, ...summary.filesEdited];
  const out: string[] = [];
  for (const e of entries) {
    if (named.has(e.id.toLowerCase()) || named.has(e.title.toLowerCase())) {
      out.push(e.id);
      continue;
    }
    const cited = evidencePaths(e.evidence);
    if (cited.length === 0 || files.length === 0) continue;
    const match = picomatch(cited, { dot: true, contains: false });
    if (files.some((f) => match(f) || cited.some((c) => f.endsWith('/' + c) || f === c))) out.push(e.id);
  }
  return out;
}
