// Staleness (SPEC §8): an entry whose evidence file changed after its
// `verified` day is shown as stale — `(evidence changed since 2026-03-01)` —
// and has no recency until someone checks it and runs `verify`. Pure: the
// store finds when each file last changed (git history, else mtime) and hands
// the days in.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { evidencePaths } from '../entry/evidence-paths.ts';
import type { RoleEntry } from './supersession.ts';
import { usageKey } from './usage-events.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What a stale entry says after its line (digest, show, search, recall): its evidence moved on since it was checked. */
export const staleNote = (day: string): string => `(evidence changed since ${day})`;
const GLOB = /[*?[\]{}]/;

/** The project files an entry's evidence cites that a change date can be found for: relative paths, no globs. */
export function citedFiles(entry: Pick<EchoEntry, 'evidence'>): string[] {
  return evidencePaths(entry.evidence).filter(
    (p) => !GLOB.test(p) && !p.startsWith('/') && !p.startsWith('~') && !p.split('/').includes('..'),
  );
}

/** The day an entry was last checked: `verified`, else its heading date; null when neither is a day. */
export function checkedDay(entry: Pick<EchoEntry, 'verified' | 'date'>): string | null {
  if (DAY.test(entry.verified)) return entry.verified;
  return DAY.test(entry.date) ? entry.date : null;
}

/**
 * The checked day of an entry one of whose cited files changed on a later
 * day (days compare as text: YYYY-MM-DD), or null when it is fresh or cannot
 * be judged. A change on the day itself does not count: the check may have
 * come after it.
 */
export function staleSince(
  entry: Pick<EchoEntry, 'evidence' | 'verified' | 'date'>,
  changed: ReadonlyMap<string, string>,
  cited: readonly string[] = citedFiles(entry),
): string | null {
  const day = checkedDay(entry);
  if (day === null) return null;
  for (const file of cited) {
    const at = changed.get(file);
    if (at !== undefined && at > day) return day;
  }
  return null;
}

/**
 * Usage key → checked day, for every entry without a status whose evidence
 * changed after it was checked. `cited` gives each item's cited files when the
 * caller has them already (reading evidence is the costly part).
 */
export function staleEntries(
  items: readonly RoleEntry[],
  changed: ReadonlyMap<string, string>,
  cited: ReadonlyArray<readonly string[]> = items.map((i) => citedFiles(i.entry)),
): Map<string, string> {
  const out = new Map<string, string>();
  items.forEach(({ role, entry }, i) => {
    if (entry.status || cited[i]!.length === 0) return;
    const day = staleSince(entry, changed, cited[i]);
    if (day !== null) out.set(usageKey(role, entry.id), day);
  });
  return out;
}

/**
 * `git log --format=%x00%cs --name-only` output → file → the day of its
 * latest commit (the log lists newest first, so the first day seen wins).
 */
export function lastCommitDays(log: string): Map<string, string> {
  const out = new Map<string, string>();
  let day = '';
  for (const raw of log.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('\u0000')) {
      day = line.slice(1).trim();
      continue;
    }
    const file = line.trim();
    if (file === '' || !DAY.test(day) || out.has(file)) continue;
    out.set(file, day);
  }
  return out;
}
