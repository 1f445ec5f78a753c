// The six steps of the consolidation protocol (SPEC §6, seed 000) for one
// role, under its lock: read MEMORY.md and every findings file, merge, prune
// when allowed, write MEMORY.md atomically, and only then delete the findings
// that it now holds. Safe to run from many processes at once and to kill at
// any instant: re-running is idempotent.
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { moveOutEntries } from '../../core/entry/document-edits.ts';
import { countLines, documentEntries, serializeEchoDocument } from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { readFindingsText } from '../../core/entry/findings-file.ts';
import { EchoesError } from '../../core/errors.ts';
import type { PrunePlan } from '../../core/lifecycle/pruning.ts';
import type { UsageEvent } from '../../core/lifecycle/usage-events.ts';
import { sanitizeEntry } from '../../core/security/entry-sanitize.ts';
import { filterSecrets, isAboutEmail } from '../../core/security/secret-filter.ts';
import { moveAside, readTextFile, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { archiveDir, assertSafeName, type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import { type Deadline, withLock } from '../fs/role-lock.ts';
import { storeFingerprint } from '../fs/store-key.ts';
import { consolidateOwn } from './entry-origin.ts';
import { appendToEchoFile, day, forgottenMatcher, readEchoFile, roleTitle, supersededPath, writeBackup } from './memory-files.ts';
import { listFindingsFiles } from './role-listing.ts';
import { applyPrune, planPruneOf } from './role-pruning.ts';

export interface ConsolidationReport {
  role: string;
  findingsFiles: number;
  /** Findings files that held more than entries, moved to archive/ (paths). */
  keptUnparsed?: string[];
  /** Findings files that could not be read safely (not UTF-8 text, or a symlink leading out), moved to archive/ unread. */
  setAside?: string[];
  /** Titles of findings dropped because the user forgot that entry (its tombstone matched). */
  forgottenDropped?: string[];
  appended: string[];
  updated: string[];
  /** Ids moved to archive/superseded.md because another entry's `supersedes` names them. */
  retired?: string[];
  pruned: PrunePlan | null;
  linesAfter: number;
}

export interface LifecycleOptions {
  now: Date;
  /** Pruning runs only between sessions (SPEC §5). */
  prune: boolean;
  /** At most this many entries leave MEMORY.md when pruning (the automatic per-run cap); unbounded when absent. */
  maxMoves?: number;
  events: UsageEvent[];
  deadline?: Deadline;
  /** Between sessions: ids of this role another entry supersedes → that entry's usage key (core/lifecycle/supersession.ts). */
  retire?: ReadonlyMap<string, string>;
}

/** The six steps of the consolidation protocol (seed 000) for one role. */
export function consolidateRole(paths: EchoPaths, config: EchoesConfig, role: string, opts: LifecycleOptions): ConsolidationReport {
  assertSafeName(role, 'role');
  return withLock(
    paths,
    `role-${role}`,
    () => {
      const path = memoryFile(paths, role);
      const { text, doc } = readEchoFile(paths, path, roleTitle(role), { forEdit: true });
      // Read only without loss: a file with NUL bytes (UTF-16, a binary) or not UTF-8 is set aside with its bytes, never
      // merged in a damaged form and then deleted; `status` lists it until the user converts it and moves it back.
      const readFindings = (file: string) => readTextFile(paths, file);
      const setAside: string[] = [];
      const readable: Array<{ agent: string; path: string; text: string } & ReturnType<typeof readFindingsText>> = [];
      for (const f of listFindingsFiles(paths, role)) {
        const read = readFindingsSafely(f.path, readFindings);
        if (read.text !== null) readable.push({ ...f, text: read.text, ...readFindingsText(read.text) });
        else if (read.setAside) {
          // Left in place it would be re-read and skipped by every session; the archive keeps its bytes for the user.
          setAside.push(
            moveAside(paths, f.path, join(archiveDir(paths, role), `${read.setAside}-${f.agent}-findings-${day(opts.now)}.md`)),
          );
        }
      }
      const fingerprint = storeFingerprint(paths);
      const isForgotten = forgottenMatcher(paths, role);
      const sanitized = readable
        .flatMap((f) => f.entries)
        .map((e) => sanitizeEntry(e, config.ignore, { fingerprint }).entry)
        // Etched memory is the user's (SPEC §4): a finding, however written, enters as inscribed.
        .map((e): EchoEntry => (e.layer === 'etched' ? { ...e, layer: 'inscribed' } : e));
      // A finding about what the user forgot is dropped, and said so: "0 added" alone would hide it.
      const findings = sanitized.filter((e) => !isForgotten(e));
      const dropped = sanitized.filter((e) => isForgotten(e)).map((e) => e.title);

      // What this clone wrote carries its mark (SPEC §6b): the findings are its own agents'.
      const { updates, appends, doc: merged } = consolidateOwn(paths, path, doc, findings, config.versionControlled);
      let next = merged;

      // Superseded entries leave between sessions, for the archive, with a pointer to what replaced them
      // (archived first: a kill in between leaves a copy in both, which a re-run settles, never none).
      const retired: string[] = [];
      if (opts.prune && opts.retire?.size) {
        const ids = documentEntries(next)
          .filter((e) => opts.retire!.has(e.id) && e.layer !== 'etched')
          .map((e) => e.id);
        if (ids.length) {
          const { doc: rest, moved } = moveOutEntries(next, ids);
          appendToEchoFile(
            paths,
            supersededPath(paths, role),
            `${roleTitle(role)} — superseded entries`,
            moved.map(({ entry }) => ({
              ...entry,
              status: 'superseded' as const,
              extra: [...entry.extra.filter(([k]) => k !== 'superseded_by'), ['superseded_by', opts.retire!.get(entry.id)!]],
            })),
          );
          next = rest;
          retired.push(...moved.map((m) => m.entry.id));
        }
      }

      let pruned: PrunePlan | null = null;
      if (opts.prune && countLines(serializeEchoDocument(next)) > config.memoryMaxLines) {
        pruned = planPruneOf(next, config, { ...opts, role });
        next = applyPrune(paths, role, next, text ?? serializeEchoDocument(doc), pruned, {
          now: opts.now,
          knowledgeMaxLines: config.knowledgeMaxLines,
          by: 'automatic pruning between sessions',
        });
      }

      const out = serializeEchoDocument(next);
      if (out !== text) writeFileAtomic(paths, path, out);
      // Only now that MEMORY.md holds them may the findings go; a file rewritten
      // meanwhile (an agent writing directly) is kept for the next run.
      // A file with text that is not an entry is moved to the archive, never deleted with it.
      const kept: string[] = [];
      for (const f of readable) {
        if (readFindings(f.path).text !== f.text) continue;
        // Kept for the user to read, and filtered like every text the store writes (SPEC §7).
        if (f.leftover.trim() !== '')
          kept.push(
            writeBackup(
              paths,
              role,
              `unparsed-${f.agent}-findings-${day(opts.now)}`,
              filterSecrets(f.text, { emails: !isAboutEmail(f.text) }).text,
            ),
          );
        removeFile(paths, f.path);
      }
      return {
        role,
        findingsFiles: readable.length,
        keptUnparsed: kept,
        setAside,
        forgottenDropped: dropped,
        appended: appends.map((e) => e.id),
        updated: updates.map((e) => e.id),
        retired,
        pruned,
        linesAfter: countLines(out),
      };
    },
    { deadline: opts.deadline },
  );
}

/**
 * One findings file's text, or why it is set aside: `unreadable` (binary, or
 * not UTF-8) or `unsafe` (a symlink leading out of the memory folders, whose
 * target is never read).
 */
function readFindingsSafely(
  path: string,
  read: (path: string) => { text: string | null; unreadable: boolean },
): { text: string | null; setAside?: 'unreadable' | 'unsafe' } {
  try {
    const { text, unreadable } = read(path);
    return unreadable ? { text: null, setAside: 'unreadable' } : { text };
  } catch (err) {
    if (err instanceof EchoesError && err.code === 'unsafe-path') return { text: null, setAside: 'unsafe' };
    throw err;
  }
}
