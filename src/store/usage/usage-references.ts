// SPEC §5: a session references an entry when the entry was injected, when its
// transcript names the entry's id or title, or when it read or edited a file
// the entry's evidence cites. Plain paths compare as strings; only evidence
// written as a glob loads picomatch.
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { evidencePaths } from '../../core/entry/evidence-paths.ts';
import type { SessionSummary } from '../../core/session/summary-model.ts';

const GLOB_CHARS = /[*?[\]{}]/;

export async function referencedIds(entries: EchoEntry[], summary: SessionSummary): Promise<string[]> {
  const named = new Set(summary.namedTerms.map((t) => t.toLowerCase()));
  const files = [...summary.filesRead, ...summary.filesEdited];
  const touches = (f: string, cited: string) => f === cited || f.endsWith(`/${cited}`);
  const out: string[] = [];
  for (const e of entries) {
    if (named.has(e.id.toLowerCase()) || named.has(e.title.toLowerCase())) {
      out.push(e.id);
      continue;
    }
    if (files.length === 0) continue;
    const cited = evidencePaths(e.evidence);
    if (cited.some((c) => files.some((f) => touches(f, c)))) {
      out.push(e.id);
      continue;
    }
    const globs = cited.filter((c) => GLOB_CHARS.test(c));
    if (globs.length === 0) continue;
    const { default: picomatch } = await import('picomatch');
    const match = picomatch(globs, { dot: true });
    if (files.some((f) => match(f))) out.push(e.id);
  }
  return out;
}
