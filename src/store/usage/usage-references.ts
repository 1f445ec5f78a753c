// Which entries a session used (SPEC §8; the rules are core/lifecycle/entry-use.ts),
// from its summary. Plain paths compare as strings; only evidence written as a
// glob loads picomatch.
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { entryUse, type GlobMatcher } from '../../core/lifecycle/entry-use.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import type { SessionSummary } from '../../core/session/summary-model.ts';

const GLOB_CHARS = /[*?[\]{}]/;

/** Usage keys (`role#id`) of the entries the session used. */
export async function usedKeys(items: ReadonlyArray<{ role: string; entry: EchoEntry }>, summary: SessionSummary): Promise<string[]> {
  const activity = {
    files: [...summary.filesRead, ...summary.filesEdited],
    searches: summary.searches ?? [],
    commands: summary.commands.map((c) => c.command),
    named: summary.namedTerms,
  };
  let glob: GlobMatcher | undefined;
  if (items.some(({ entry }) => GLOB_CHARS.test(entry.evidence)) && activity.files.length > 0) {
    const { default: picomatch } = await import('picomatch');
    glob = (globs) => picomatch(globs, { dot: true });
  }
  const out: string[] = [];
  for (const { role, entry } of items) {
    if (entryUse(entry, activity, glob) !== null) out.push(usageKey(role, entry.id));
  }
  return out;
}
