// The git history of the files entries cite, for the memory-auditor's brief
// (core/lifecycle/evidence-history.ts reads it): one `git log` per file, and
// for a file that is gone one `git show` of the commit that removed it, to
// find where a rename took it. Files git does not know (or no repository)
// get no history, only whether they are there.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type FileHistory, HISTORY_FORMAT, parseFileLog, renameTarget } from '../../core/lifecycle/evidence-history.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { findGitDirs } from '../fs/git-dirs.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { git } from './evidence-changes.ts';

/** Files beyond this are listed without their history (one git call each). */
export const MAX_HISTORY_FILES = 120;

export async function fileHistories(paths: EchoPaths, files: readonly string[], deadline: Deadline = NO_DEADLINE): Promise<FileHistory[]> {
  const repo = findGitDirs(paths.project) !== null;
  const out: FileHistory[] = [];
  for (const [i, file] of [...new Set(files)].entries()) {
    const present = existsSync(join(paths.project, file));
    const history: FileHistory = { file, present, tracked: false, added: null, commits: [] };
    out.push(history);
    if (!repo || i >= MAX_HISTORY_FILES) continue;
    // --follow traces a present file back through its renames; a missing one is looked up under its old name.
    const args = ['-c', 'core.quotePath=false', 'log', '--relative', '-M', '--name-status', HISTORY_FORMAT];
    const log = await git(paths.project, [...args, ...(present ? ['--follow'] : []), '--', file], deadline);
    if (log.out === null) continue;
    history.commits = parseFileLog(log.out, file);
    history.tracked = history.commits.length > 0;
    history.added = history.commits.at(-1)?.day ?? null;
    const removal = present ? undefined : history.commits.find((c) => c.change === 'deleted');
    if (removal) {
      // Limited to the old name, the log sees a rename as a deletion: the whole commit says where the file went.
      const shown = await git(
        paths.project,
        ['-c', 'core.quotePath=false', 'show', '--relative', '-M', '--name-status', '--format=', removal.hash],
        deadline,
      );
      const to = shown.out === null ? null : renameTarget(shown.out, file);
      if (to !== null) {
        removal.change = 'renamed';
        removal.to = to;
      }
    }
  }
  return out;
}
