// Gathers what the SessionStart digest needs from the store and builds it.
import { readdirSync } from 'node:fs';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { buildDigest, type Digest, digestCandidates } from '../../core/recall/digest.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import type { RoleSummary } from '../memory/entry-cache.ts';
import { listArchiveLogs } from '../session/archive-logs.ts';
import { readUsage } from '../usage/usage-log.ts';

function countSolutions(paths: EchoPaths): number {
  try {
    return readdirSync(paths.solutionsDir, { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
  } catch {
    return 0;
  }
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
  const items = roles.flatMap((r) => r.entries.map((entry) => ({ entry, role: r.role })));
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
