// The worked-files ledger on disk (`.state/worked-files.json`, personal, never
// committed): which files each working session read or edited and which
// commands it ran that passed, counted by
// the capture step of SessionEnd and PreCompact, read by the SessionStart digest.
import { ledgerNames } from '../../core/recall/file-names.ts';
import { countsAsWorked, parseWorkedFiles, type RanCommand, updateWorkedFiles, type WorkedFiles } from '../../core/recall/worked-files.ts';
import { filterMany } from '../../core/security/secret-filter.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, workedFilesFile, workedNamesFile } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';

/** The ledger, or an empty one when it cannot be read (bookkeeping never costs the digest). */
export function readWorkedFiles(paths: EchoPaths): WorkedFiles {
  try {
    return parseWorkedFiles(readTextOrNull(paths, workedFilesFile(paths)));
  } catch {
    return parseWorkedFiles(null);
  }
}

/**
 * Counts the files one session touched and the commands it ran that passed (a session counted before
 * counts once); the files it deleted or moved leave.
 */
export function noteWorkedFiles(
  paths: EchoPaths,
  session: string,
  files: { touched: readonly string[]; gone: readonly string[]; commands?: readonly RanCommand[] },
  deadline: Deadline = NO_DEADLINE,
): void {
  const ran = files.commands ?? [];
  if (files.touched.length + files.gone.length + ran.length === 0) return;
  // A path or a command that holds a secret (a file named after a key, a token on the command line) is not kept.
  const touched = [...new Set(files.touched)];
  const clean = filterMany([...touched, ...ran.map((c) => c.shown)]);
  const kept = touched.filter((f, i) => clean[i] === f);
  // The session's commands come filtered already (ranCommands leaves out one a secret was redacted from): filtered again all the same.
  const commands = ran.filter((c, i) => clean[touched.length + i] === c.shown);
  withLock(
    paths,
    'worked-files',
    () => {
      const before = readWorkedFiles(paths);
      const after = updateWorkedFiles(before, kept, session, files.gone, commands);
      const names = (ledger: WorkedFiles) =>
        writeFileAtomic(paths, workedNamesFile(paths), ledgerNames(Object.keys(ledger.files).filter(countsAsWorked)), { durable: false });
      if (after === before) {
        if (readTextOrNull(paths, workedNamesFile(paths)) === null) names(before);
        return;
      }
      // What a prompt tests its names against, without parsing the ledger: never short of the ledger's files,
      // so the names of both ledgers go first, a process killed between the writes leaves a few names too many.
      names({ ...after, files: { ...before.files, ...after.files } });
      writeFileAtomic(paths, workedFilesFile(paths), JSON.stringify(after), { durable: false });
      names(after);
    },
    { waitMs: 3000, deadline },
  );
}
