// Applies the security filter (SPEC §7) to an entry before it is persisted:
// secrets in any field are redacted, sensitive or ignored-path evidence is
// dropped, and the learning itself is always kept.
import type { EchoEntry } from './echo-entry.ts';
import { filterFinding, filterSecrets } from './secret-filter.ts';
import { evidencePaths, isIgnoredPath } from './path-ignore.ts';

export interface SanitizeResult {
  entry: EchoEntry;
  /** True when anything was redacted or removed. */
  changed: boolean;
  evidenceStripped: boolean;
}

const clean = (text: string): string => filterSecrets(text).text;

export function sanitizeEntry(entry: EchoEntry, ignoreGlobs: string[]): SanitizeResult {
  const f = filterFinding({ learning: entry.learning, evidence: entry.evidence, title: entry.title });
  let evidence = f.evidence;
  let evidenceStripped = f.evidenceStripped;
  if (evidence && evidencePaths(evidence).some((p) => isIgnoredPath(p, ignoreGlobs))) {
    evidence = '(evidence removed: cites an ignored path)';
    evidenceStripped = true;
  }
  const next: EchoEntry = {
    ...entry,
    title: clean(entry.title),
    source: clean(entry.source),
    supersedes: clean(entry.supersedes),
    learning: f.learning,
    evidence,
    tags: entry.tags.map(clean),
    extra: entry.extra.map(([k, v]) => [k, clean(v)] as [string, string]),
  };
  if (entry.symptom !== undefined) next.symptom = clean(entry.symptom);
  if (entry.rootCause !== undefined) next.rootCause = clean(entry.rootCause);
  if (entry.solution !== undefined) next.solution = clean(entry.solution);
  const changed = JSON.stringify(next) !== JSON.stringify(entry);
  return { entry: next, changed, evidenceStripped };
}
