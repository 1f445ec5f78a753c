// Which entries a session used (SPEC §8; the rules are core/lifecycle/entry-use.ts).
// Every read of a transcript is told which entries to watch, so use is seen in
// all of a session's work, not only in its summary's capped lists. Plain paths
// compare as strings; only evidence written as a glob loads picomatch.
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { type GlobMatcher, type UseWatch, usedEntries } from '../../core/lifecycle/entry-use.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import type { SessionSummary } from '../../core/session/summary-model.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { roleSummaries } from '../memory/entry-cache.ts';
import { watchTermsOf } from './usage-terms.ts';

const GLOB_CHARS = /[*?[\]{}]/;

type RoleEntry = { role: string; entry: EchoEntry };

/** A cited path is the project's own file when it exists at the root (asked once per path). */
function rootCheck(project: string): (cited: string) => boolean {
  const known = new Map<string, boolean>();
  return (cited) => {
    let found = known.get(cited);
    if (found === undefined) {
      found = !isAbsolute(cited) && !cited.split(/[\\/]/).includes('..') && existsSync(join(project, cited));
      known.set(cited, found);
    }
    return found;
  };
}

/** The entries to watch for use, under their usage keys (`role#id`); `project` tells a root file from one of a subfolder. */
export async function useWatch(items: readonly RoleEntry[], project?: string): Promise<UseWatch> {
  let glob: GlobMatcher | undefined;
  if (items.some(({ entry }) => GLOB_CHARS.test(entry.evidence))) {
    const { default: picomatch } = await import('picomatch');
    glob = (globs) => picomatch(globs, { dot: true });
  }
  return {
    entries: items.map(({ role, entry }) => ({ key: usageKey(role, entry.id), entry })),
    terms: watchTermsOf(items.map((i) => i.entry)),
    ...(glob ? { glob } : {}),
    ...(project ? { atRoot: rootCheck(project) } : {}),
  };
}

/** Every role's entries as a use watch. */
export async function storeUseWatch(paths: EchoPaths): Promise<UseWatch> {
  const roles = await roleSummaries(paths);
  return useWatch(
    roles.flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry }))),
    paths.project,
  );
}

/**
 * Usage keys of the entries the session used: those its reads saw it use, and
 * those its summary shows it used (an entry written after an early part was
 * read is matched against the summary's lists). Keys no longer in the store are left out.
 */
export function usedKeys(watch: UseWatch, summary: SessionSummary): string[] {
  const current = new Set(watch.entries.map((e) => e.key));
  const seen = (summary.used ?? []).filter((k) => current.has(k));
  const fromSummary = usedEntries(watch, {
    files: [...summary.filesRead, ...summary.filesEdited],
    searches: summary.searches ?? [],
    commands: summary.commands.map((c) => c.command),
    named: summary.namedTerms,
  });
  return [...new Set([...seen, ...fromSummary])];
}
