// Where a project's repository keeps its git folder, read from `.git` without
// running git (a hook cannot afford a process start): a worktree's `.git`
// file is followed to its git folder and that to the common one.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

export interface GitDirs {
  /** The folder holding `.git` (a linked worktree's own root). */
  root: string;
  /** This worktree's git folder. */
  gitDir: string;
  /** The git folder all worktrees share (objects, refs). */
  commonDir: string;
}

/** Reads a small file, null when it cannot be read. */
export function readPlain(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The repository's git folders, from `start` upwards; null outside a repository. */
export function findGitDirs(start: string): GitDirs | null {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) return { root: dir, gitDir: dotGit, commonDir: dotGit };
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!m) return null;
      const gitDir = resolve(dir, m[1]!.trim());
      const common = readPlain(join(gitDir, 'commondir'))?.trim();
      return { root: dir, gitDir, commonDir: common ? (isAbsolute(common) ? common : resolve(gitDir, common)) : gitDir };
    } catch {
      /* not here */
    }
    if (dirname(dir) === dir) return null;
  }
}

/** The main worktree's root: where the shared git folder is `.git`; else (a submodule, a bare layout) the repository's own root. */
export function mainWorktreeRoot(start: string): string | null {
  const dirs = findGitDirs(start);
  if (!dirs) return null;
  return basename(dirs.commonDir) === '.git' ? dirname(dirs.commonDir) : dirs.root;
}
