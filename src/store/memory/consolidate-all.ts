// Consolidates every role that has findings waiting (Stop, SubagentStop) or,
// between sessions, every role over its line limit too (SessionStart,
// SessionEnd: with pruning). The consolidation code is loaded only when some
// role has work.
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { retiredEntries, supersededKeys } from '../../core/lifecycle/supersession.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import type { Deadline } from '../fs/role-lock.ts';
import { readUsage } from '../usage/usage-log.ts';
import type { RoleSummary } from './entry-cache.ts';
import type { ConsolidationReport } from './role-consolidation.ts';
import { listFindingsFiles, listRoles } from './role-listing.ts';

export interface ConsolidateAllResult {
  reports: ConsolidationReport[];
  /** Entries pruning moved out of MEMORY.md files, all roles together. */
  moved: number;
  /** One line per problem, for the log: a broken role, a findings file kept for its extra text. */
  errors: string[];
}

export interface ConsolidateAllOptions {
  now: Date;
  /**
   * false touches only roles with findings files (the hot path); true also
   * visits roles whose MEMORY.md is over the limit, judged from the entry
   * cache's line counts (`summaries`, when the caller has them).
   */
  prune: boolean;
  summaries?: RoleSummary[];
  deadline?: Deadline;
  /** Entries pruning may move, all roles together (the automatic per-session cap); unbounded when absent. */
  maxMoves?: number;
}

/** Role → (id → successor's usage key) of every entry a live entry supersedes, across all roles. */
export function retirementsByRole(roles: ReadonlyArray<{ role: string; entries: EchoEntry[] }>): Map<string, Map<string, string>> {
  const retire = new Map<string, Map<string, string>>();
  const items = roles.flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })));
  for (const [key, by] of retiredEntries(items)) {
    const at = key.indexOf('#');
    const role = key.slice(0, at);
    const ids = retire.get(role) ?? new Map<string, string>();
    ids.set(key.slice(at + 1), by);
    retire.set(role, ids);
  }
  // An entry already marked superseded (a team merge keeps the losing edit so) leaves too, naming its successor.
  for (const { role, entries } of roles) {
    for (const e of entries) {
      if (e.status !== 'superseded' || retire.get(role)?.has(e.id)) continue;
      const by = supersededKeys(e.extra.find(([k]) => k === 'superseded_by')?.[1] ?? '', role)[0];
      const ids = retire.get(role) ?? new Map<string, string>();
      ids.set(e.id, by ?? 'unknown');
      retire.set(role, ids);
    }
  }
  return retire;
}

export async function consolidateAll(paths: EchoPaths, config: EchoesConfig, opts: ConsolidateAllOptions): Promise<ConsolidateAllResult> {
  const { now, prune, deadline } = opts;
  let budget = opts.maxMoves ?? Number.POSITIVE_INFINITY;
  let summaries = opts.summaries;
  // Line counts come from the entry cache, read once (not once per role).
  if (prune && !summaries) summaries = await (await import('./entry-cache.ts')).roleSummaries(paths);
  const lines = new Map((summaries ?? []).map((s) => [s.role, s.lines]));
  // Between sessions, entries another entry supersedes leave for the archive (any role may name any other's).
  const retire = prune && summaries ? retirementsByRole(summaries) : new Map<string, Map<string, string>>();
  const work: string[] = [];
  for (const role of listRoles(paths)) {
    const pending = listFindingsFiles(paths, role).length > 0;
    // A role only over its limit is worth a visit while the run may still move entries.
    const over = prune && budget > 0 && !pending && (lines.get(role) ?? 0) > config.memoryMaxLines;
    if (pending || over || retire.has(role)) work.push(role);
  }
  const reports: ConsolidationReport[] = [];
  const errors: string[] = [];
  let moved = 0;
  if (work.length === 0) return { reports, errors, moved };
  const { consolidateRole } = await import('./role-consolidation.ts');
  const events = prune ? readUsage(paths) : [];
  for (const role of work) {
    try {
      const maxMoves = Number.isFinite(budget) ? budget : undefined;
      const report = consolidateRole(paths, config, role, {
        now,
        prune,
        events,
        deadline,
        ...(maxMoves === undefined ? {} : { maxMoves }),
        ...(retire.has(role) ? { retire: retire.get(role)! } : {}),
      });
      reports.push(report);
      const n = (report.pruned?.archive.length ?? 0) + (report.pruned?.compress.length ?? 0);
      moved += n;
      budget -= n;
      for (const kept of report.keptUnparsed ?? [])
        errors.push(`${role}: a findings file held text that is not an echo entry; its entries were merged and the file kept as ${kept}`);
      for (const aside of report.setAside ?? [])
        errors.push(
          `${role}: a findings file was not safe to read (not UTF-8 text, or a symlink leading outside the store); moved unread to ${aside}`,
        );
    } catch (err) {
      // One broken role must not stop the others.
      errors.push(`${role}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { reports, errors, moved };
}
