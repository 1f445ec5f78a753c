// The words a transcript is searched for to tell which entries a session
// named (SPEC §5): ids and titles long enough, or shaped enough, not to match
// by chance — "migrations" is a word anyone writes; "retry-backoff-jitter" is
// a name. The reader matches them as whole words.
import type { EchoEntry } from '../../core/entry/echo-entry.ts';

/** The terms the transcript reader watches for: ids and titles. */
export function watchTermsOf(entries: EchoEntry[]): string[] {
  const terms = new Set<string>();
  for (const e of entries) {
    if (e.id.includes('-') || e.id.length >= 12) terms.add(e.id);
    if (e.title.length >= 12) terms.add(e.title);
  }
  return [...terms];
}
