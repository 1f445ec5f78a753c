// `.claude/echoes/` is git-ignored unless the team opts in (SPEC §3). The
// plugin owns exactly one line of .gitignore and touches nothing else.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { planStoreGitignore } from '../core/team/shared-files.ts';
import { readTextOrNull, writeFileAtomic } from './fs/atomic-file.ts';
import type { EchoPaths } from './fs/echo-paths.ts';

export const MANAGED_LINE = '.claude/echoes/';

export function planGitignore(text: string | null, versionControlled: boolean): string | null {
  const current = text ?? '';
  // One definition of "the managed line" for finding and removing it (spaces and tabs around it
  // allowed), so a line that counts as present is always a line the removal takes out.
  const has = /^[ \t]*\.claude\/echoes\/[ \t]*\r?$/m.test(current);
  if (!versionControlled && !has) {
    const eol = current.includes('\r\n') ? '\r\n' : '\n';
    const sep = current === '' || current.endsWith('\n') ? '' : eol;
    return `${current}${sep}${MANAGED_LINE}${eol}`;
  }
  if (versionControlled && has) {
    return current.replace(/^[ \t]*\.claude\/echoes\/[ \t]*(\r?\n|\r?$)/gm, '');
  }
  return null;
}

/** Applies the managed line; returns true when .gitignore changed. */
export function syncGitignore(paths: EchoPaths, versionControlled: boolean): boolean {
  // Only a git project has a .gitignore to keep: never create one in $HOME or a plain folder.
  if (!isGitProject(paths)) return false;
  ensureStoreGitignore(paths);
  const next = planGitignore(readTextOrNull(paths, paths.gitignore), versionControlled);
  if (next === null) return false;
  writeFileAtomic(paths, paths.gitignore, next);
  return true;
}

/**
 * Called before the first write of a hook or command: when the store does not
 * exist yet, it is about to, and in a git project .gitignore gets its line
 * (SPEC §3, "on first write"). One existsSync when the store is there.
 */
export function ensureStoreIgnored(paths: EchoPaths, versionControlled: boolean): void {
  if (existsSync(paths.echoes)) {
    // Shared memory: a pulled .gitignore that lost a personal line would let the next `git add -A`
    // commit this clone's hand-off or usage; the lines come back before anything is written.
    if (versionControlled) ensureStoreGitignore(paths);
    return;
  }
  syncGitignore(paths, versionControlled);
}

/**
 * The store's own .gitignore keeps session state and bookkeeping out of git even
 * when the team commits the store (core/team/shared-files.ts says what). An
 * older file gains the lines it lacks; every other line stays. True when written.
 */
export function ensureStoreGitignore(paths: EchoPaths): boolean {
  const next = planStoreGitignore(readTextOrNull(paths, paths.storeGitignore));
  if (next === null) return false;
  writeFileAtomic(paths, paths.storeGitignore, next);
  return true;
}

/** Inside a git work tree: the project or any folder above it has `.git` (a monorepo package counts). */
function isGitProject(paths: EchoPaths): boolean {
  if (existsSync(paths.gitignore)) return true;
  for (let dir = paths.project; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return true;
    if (dirname(dir) === dir) return false;
  }
}
