// The words a transcript is searched for to tell which entries a session
// named (SPEC §5): every id, and titles long enough not to match by chance.
import type { EchoEntry } from '../../core/entry/echo-entry.ts';

/** The terms the transcript reader watches for: ids and titles. */
export function watchTermsOf(entries: EchoEntry[]): string[] {
  const terms = new Set<string>();
  for (const e of entries) {
    terms.add(e.id);
    if (e.title.length >= 12) terms.add(e.title);
  }
  return [...terms];
}
