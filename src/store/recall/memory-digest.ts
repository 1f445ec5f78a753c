// Gathers what the SessionStart digest needs from the store and builds it.
import { readdirSync } from 'node:fs';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { scoreEntries } from '../../core/lifecycle/echo-score.ts';
import { buildDigest, type Digest, type DigestEntry } from '../../core/recall/digest.ts';
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
): { digest: Digest; errors: string[] } {
  const events = readUsage(paths);
  const etched: DigestEntry[] = [];
  const lessons: DigestEntry[] = [];
  const errors: string[] = [];
  // One scoring pass over every role: the relevance index is built once.
  const live = roles.flatMap((r) => {
    if (r.error) errors.push(`${r.role}: ${r.error}`);
    return r.entries.filter((e) => !e.status).map((entry) => ({ entry, role: r.role }));
  });
  const total = live.length;
  const scores = scoreEntries(
    live.map((l) => l.entry),
    events,
    now,
    config.relevanceWindow,
  );
  live.forEach(({ entry, role }, i) => {
    const d = { entry, role, score: scores[i]!.score };
    if (entry.layer === 'etched') etched.push(d);
    else if (entry.layer === 'inscribed') lessons.push(d);
  });
  const digest = buildDigest({
    lastSession,
    etched,
    lessons,
    counts: { entries: total, archiveLogs: listArchiveLogs(paths).length, solutions: countSolutions(paths) },
    budgetTokens: config.budgetTokens,
  });
  return { digest, errors };
}
