// The six steps of the consolidation protocol (SPEC §6, seed 000) for one
// role, under its lock: read MEMORY.md and every findings file, merge, prune
// when allowed, write MEMORY.md atomically, and only then delete the findings
// that it now holds. Safe to run from many processes at once and to kill at
// any instant: re-running is idempotent.
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { countLines, serializeEchoDocument } from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { readFindingsText } from '../../core/entry/findings-file.ts';
import { consolidateDocument, matchKey } from '../../core/lifecycle/consolidation.ts';
import type { PrunePlan } from '../../core/lifecycle/pruning.ts';
import type { UsageEvent } from '../../core/lifecycle/usage-events.ts';
import { sanitizeEntry } from '../../core/security/entry-sanitize.ts';
import { readTextFile, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { assertSafeName, type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import { type Deadline, withLock } from '../fs/role-lock.ts';
import { day, forgottenKeys, readEchoFile, roleTitle, writeBackup } from './memory-files.ts';
import { listFindingsFiles } from './role-listing.ts';
import { applyPrune, planPruneOf } from './role-pruning.ts';

export interface ConsolidationReport {
  role: string;
  findingsFiles: number;
  /** Findings files that held more than entries, moved to archive/ (paths). */
  keptUnparsed?: string[];
  appended: string[];
  updated: string[];
  pruned: PrunePlan | null;
  linesAfter: number;
}

export interface LifecycleOptions {
  now: Date;
  /** Pruning runs only between sessions (SPEC §5). */
  prune: boolean;
  events: UsageEvent[];
  deadline?: Deadline;
}

/** The six steps of the consolidation protocol (seed 000) for one role. */
export function consolidateRole(paths: EchoPaths, config: EchoesConfig, role: string, opts: LifecycleOptions): ConsolidationReport {
  assertSafeName(role, 'role');
  return withLock(
    paths,
    `role-${role}`,
    () => {
      const path = memoryFile(paths, role);
      const { text, doc } = readEchoFile(path, roleTitle(role), { forEdit: true });
      const readFindings = (file: string) => readTextFile(file, { stripNul: true }).text;
      const files = listFindingsFiles(paths, role).map((f) => ({ ...f, text: readFindings(f.path) }));
      const readable = files
        .filter((f): f is typeof f & { text: string } => f.text !== null)
        .map((f) => ({ ...f, ...readFindingsText(f.text) }));
      const forgotten = forgottenKeys(paths, role);
      const findings = readable
        .flatMap((f) => f.entries)
        .map((e) => sanitizeEntry(e, config.ignore).entry)
        // Etched memory is the user's (SPEC §4): a finding, however written, enters as inscribed.
        .map((e): EchoEntry => (e.layer === 'etched' ? { ...e, layer: 'inscribed' } : e))
        .filter((e) => !forgotten.has(matchKey(e)));

      const { updates, appends, doc: merged } = consolidateDocument(doc, findings);
      let next = merged;

      let pruned: PrunePlan | null = null;
      if (opts.prune && countLines(serializeEchoDocument(next)) > config.memoryMaxLines) {
        pruned = planPruneOf(next, config, opts);
        next = applyPrune(paths, role, next, text ?? serializeEchoDocument(doc), pruned, opts.now, config.knowledgeMaxLines);
      }

      const out = serializeEchoDocument(next);
      if (out !== text) writeFileAtomic(paths, path, out);
      // Only now that MEMORY.md holds them may the findings go; a file rewritten
      // meanwhile (an agent writing directly) is kept for the next run.
      // A file with text that is not an entry is moved to the archive, never deleted with it.
      const kept: string[] = [];
      for (const f of readable) {
        if (readFindings(f.path) !== f.text) continue;
        if (f.leftover.trim() !== '') kept.push(writeBackup(paths, role, `unparsed-${f.agent}-findings-${day(opts.now)}`, f.text));
        removeFile(paths, f.path);
      }
      return {
        role,
        findingsFiles: readable.length,
        keptUnparsed: kept,
        appended: appends.map((e) => e.id),
        updated: updates.map((e) => e.id),
        pruned,
        linesAfter: countLines(out),
      };
    },
    { deadline: opts.deadline },
  );
}
