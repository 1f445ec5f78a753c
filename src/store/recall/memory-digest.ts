// Gathers what the SessionStart digest needs from the store and builds it.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { buildDigest, type Digest, digestCandidates } from '../../core/recall/digest.ts';
import { readTextOrNull } from '../fs/atomic-file.ts';
import { autoMemoryExportFile, type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import type { RoleSummary } from '../memory/entry-cache.ts';
import { teammateCheck } from '../memory/entry-origin.ts';
import { listArchiveLogs } from '../session/archive-logs.ts';
import { readUsage } from '../usage/usage-log.ts';

function countSolutions(paths: EchoPaths): number {
  try {
    return readdirSync(paths.solutionsDir, { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
  } catch {
    return 0;
  }
}

/**
 * The `role/id` keys of entries `export --to auto-memory` put in auto memory, whose topic files are still
 * there: Claude Code gives them to the model from its own index, so the digest does not give them a second time.
 */
export function exportedToAutoMemory(paths: EchoPaths): Set<string> {
  const keys = new Set<string>();
  try {
    const parsed = JSON.parse(readTextOrNull(paths, autoMemoryExportFile(paths)) ?? '{}') as { dir?: unknown; keys?: unknown };
    if (typeof parsed.dir !== 'string' || !Array.isArray(parsed.keys)) return keys;
    for (const k of parsed.keys) {
      const m = typeof k === 'string' ? /^([a-z0-9][a-z0-9-]*)\/(.+)$/.exec(k) : null;
      if (m && existsSync(join(parsed.dir, `rune-echoes_${m[1]}_${m[2]}.md`))) keys.add(`${m[1]}/${m[2]}`);
    }
  } catch {
    /* none, or torn: the digest gives everything */
  }
  return keys;
}

export function digestFromStore(
  paths: EchoPaths,
  config: EchoesConfig,
  roles: RoleSummary[],
  lastSession: string,
  now: Date,
  /** Usage key → the `verified` day its evidence changed after. */
  staleSince: ReadonlyMap<string, string> = new Map(),
): { digest: Digest; errors: string[] } {
  const errors: string[] = [];
  for (const r of roles) if (r.error) errors.push(`${r.role}: ${r.error}`);
  const exported = exportedToAutoMemory(paths);
  const items = roles
    .flatMap((r) => {
      // A teammate's entries are marked as theirs (SPEC §6b).
      const theirs = teammateCheck(paths, memoryFile(paths, r.role));
      return r.entries.map((entry) => ({ entry, role: r.role, teammate: theirs(entry) }));
    })
    .filter((x) => !exported.has(`${x.role}/${x.entry.id}`));
  // One scoring pass over every role: the relevance index is built once.
  const { etched, lessons, live } = digestCandidates(items, readUsage(paths), now, config.relevanceWindow, staleSince);
  const digest = buildDigest({
    lastSession,
    etched,
    lessons,
    counts: { entries: live, archiveLogs: listArchiveLogs(paths).length, solutions: countSolutions(paths) },
    budgetTokens: config.budgetTokens,
  });
  return { digest, errors };
}
