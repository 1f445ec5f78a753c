// Gathers what the SessionStart digest needs from the store and builds it.
import { readdirSync } from 'node:fs';
import { recurringToolErrors } from '../../core/capture/lesson-candidates.ts';
import { captureOn, type EchoesConfig } from '../../core/config/config-defaults.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import { buildDigest, type Digest, digestCandidates } from '../../core/recall/digest.ts';
import { holdsPath } from '../../core/recall/file-names.ts';
import { commandsComingBack, filesComingBack, filesOfRecentSessions, namesCommand } from '../../core/recall/worked-files.ts';
import { filterMany } from '../../core/security/secret-filter.ts';
import { readSightings } from '../capture/error-sightings.ts';
import { type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import type { RoleSummary } from '../memory/entry-cache.ts';
import { rewrittenOwnEtched, teammateCheck } from '../memory/entry-origin.ts';
import { listArchiveLogs } from '../session/archive-logs.ts';
import { readUsage } from '../usage/usage-log.ts';
import { exportedToAutoMemory } from './session-given.ts';
import { readWorkedFiles } from './worked-files-ledger.ts';

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
  const exported = exportedToAutoMemory(paths);
  const items = roles
    .flatMap((r) => {
      // A teammate's entries are marked as theirs (SPEC §6b).
      const theirs = teammateCheck(paths, memoryFile(paths, r.role));
      return r.entries.map((entry) => ({ entry, role: r.role, teammate: theirs(entry) }));
    })
    .filter((x) => !exported.has(usageKey(x.role, x.entry.id)));
  // This clone's etched entries a teammate's commit changed or removed are given as this clone wrote them.
  const restored = rewrittenOwnEtched(paths, items);
  // One scoring pass over every role: the relevance index is built once.
  const { etched, lessons, live } = digestCandidates([...items, ...restored], readUsage(paths), now, config.relevanceWindow, staleSince);
  // Files sessions kept coming back to, less those the last session names (deleted and moved ones left the ledger).
  const ledger = config.capture.commands ? readWorkedFiles(paths) : null;
  const workedFiles = ledger ? filesComingBack(ledger, (path) => holdsPath(lastSession, path)) : [];
  // And the other files of the last few sessions, for what room is left.
  const recentFiles = ledger ? filesOfRecentSessions(ledger, (path) => holdsPath(lastSession, path), workedFiles) : [];
  // And the commands they kept running, less those the last session names.
  const coming = ledger ? commandsComingBack(ledger, (key) => namesCommand(lastSession, key)) : [];
  // The ledger is personal and filtered as it is written; a hand edit could still put a key in it.
  const clean = filterMany(coming);
  const workedCommands = coming.filter((c, i) => clean[i] === c);
  const toolErrors = captureOn(config) ? recurringToolErrors(readSightings(paths)) : [];
  const digest = buildDigest({
    lastSession,
    workedFiles,
    recentFiles,
    workedCommands,
    toolErrors,
    etched,
    lessons,
    counts: { entries: live, archiveLogs: listArchiveLogs(paths).length, solutions: countSolutions(paths) },
    budgetTokens: config.budgetTokens,
  });
  return { digest, errors };
}
