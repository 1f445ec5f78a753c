// Consolidates every role that has findings waiting (Stop, SubagentStop) or,
// between sessions, every role (SessionStart, SessionEnd: with pruning).
import type { EchoesConfig } from '../core/config-defaults.ts';
import { readTextOrNull } from './atomic-file.ts';
import { countLines } from '../core/echo-document.ts';
import { memoryFile, type EchoPaths } from './echo-paths.ts';
import { consolidateRole, listFindingsFiles, listRoles, type ConsolidationReport } from './echo-store.ts';
import { readUsage } from './usage-log.ts';

export interface ConsolidateAllResult {
  reports: ConsolidationReport[];
  errors: string[];
}

/**
 * `prune: false` touches only roles with findings files (the hot path);
 * `prune: true` also visits roles whose MEMORY.md is over the limit.
 */
export function consolidateAll(paths: EchoPaths, config: EchoesConfig, now: Date, prune: boolean): ConsolidateAllResult {
  const reports: ConsolidationReport[] = [];
  const errors: string[] = [];
  let events: ReturnType<typeof readUsage> | null = null;
  for (const role of listRoles(paths)) {
    const pending = listFindingsFiles(paths, role).length > 0;
    let over = false;
    if (prune && !pending) {
      const text = readTextOrNull(memoryFile(paths, role));
      over = text !== null && countLines(text) > config.memoryMaxLines;
    }
    if (!pending && !over) continue;
    try {
      if (prune) events ??= readUsage(paths);
      reports.push(consolidateRole(paths, config, role, { now, prune, events: events ?? [] }));
    } catch (err) {
      // One broken role must not stop the others.
      errors.push(`${role}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { reports, errors };
}
