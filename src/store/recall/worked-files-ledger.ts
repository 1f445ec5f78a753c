// The worked-files ledger on disk (`.state/worked-files.json`, personal, never
// committed): which files each working session read or edited, counted by
// the capture step of SessionEnd and PreCompact, read by the SessionStart digest.
import { join } from 'node:path';
import { parseWorkedFiles, updateWorkedFiles, type WorkedFiles } from '../../core/recall/worked-files.ts';
import { filterMany } from '../../core/security/secret-filter.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';

export const workedFilesFile = (paths: EchoPaths): string => join(paths.stateDir, 'worked-files.json');

/** The ledger, or an empty one when it cannot be read (bookkeeping never costs the digest). */
export function readWorkedFiles(paths: EchoPaths): WorkedFiles {
  try {
    return parseWorkedFiles(readTextOrNull(paths, workedFilesFile(paths)));
  } catch {
    return parseWorkedFiles(null);
  }
}

/** Counts the files one session touched (a session counted before counts once); those it deleted or moved leave. */
export function noteWorkedFiles(
  paths: EchoPaths,
  session: string,
  files: { touched: readonly string[]; gone: readonly string[] },
  deadline: Deadline = NO_DEADLINE,
): void {
  if (files.touched.length + files.gone.length === 0) return;
  // A path that holds a secret (a file named after a key) is not kept.
  const touched = [...new Set(files.touched)];
  const clean = filterMany(touched);
  const kept = touched.filter((f, i) => clean[i] === f);
  withLock(
    paths,
    'worked-files',
    () => {
      const before = readWorkedFiles(paths);
      const after = updateWorkedFiles(before, kept, session, files.gone);
      if (after !== before) writeFileAtomic(paths, workedFilesFile(paths), JSON.stringify(after), { durable: false });
    },
    { waitMs: 3000, deadline },
  );
}
