// Applies the security filter (SPEC §7) to an entry before it is persisted:
// secrets in any field are redacted, sensitive or ignored-path evidence is
// dropped, and the learning itself is always kept.
import type { EchoEntry } from '../entry/echo-entry.ts';
import { slugifyTitle } from '../entry/entry-ids.ts';
import { filterFinding, filterSecrets } from './secret-filter.ts';
import { evidencePaths, isIgnoredPath } from './path-ignore.ts';

export interface SanitizeResult {
  entry: EchoEntry;
  /** True when anything was redacted or removed. */
  changed: boolean;
  evidenceStripped: boolean;
}

// NUL bytes would make the file unreadable as text for good: never write one.
const clean = (text: string): string => filterSecrets(text.replace(/\u0000/g, '')).text;

export function sanitizeEntry(entry: EchoEntry, ignoreGlobs: string[]): SanitizeResult {
  const f = filterFinding({ learning: entry.learning, evidence: entry.evidence, title: entry.title });
  let evidence = f.evidence;
  let evidenceStripped = f.evidenceStripped;
  if (evidence && evidencePaths(evidence).some((p) => isIgnoredPath(p, ignoreGlobs))) {
    evidence = '(evidence removed: cites an ignored path)';
    evidenceStripped = true;
  }
  const title = clean(entry.title);
  const next: EchoEntry = {
    ...entry,
    // An id slugged from a title that held a secret would carry the secret too.
    id: title === entry.title && clean(entry.id) === entry.id ? entry.id : slugifyTitle(title),
    title,
    kind: clean(entry.kind),
    source: clean(entry.source),
    supersedes: clean(entry.supersedes),
    learning: f.learning.replace(/\u0000/g, ''),
    evidence: evidence.replace(/\u0000/g, ''),
    tags: entry.tags.map(clean),
    extra: entry.extra.map(([k, v]) => [k, clean(v)] as [string, string]),
  };
  if (entry.symptom !== undefined) next.symptom = clean(entry.symptom);
  if (entry.rootCause !== undefined) next.rootCause = clean(entry.rootCause);
  if (entry.solution !== undefined) next.solution = clean(entry.solution);
  const changed = JSON.stringify(next) !== JSON.stringify(entry);
  return { entry: next, changed, evidenceStripped };
}
