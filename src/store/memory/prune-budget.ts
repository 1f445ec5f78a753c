// Automatic pruning is a gentle tide, not a flood (issue: adoption is never
// destructive): between sessions at most `prune_per_session` entries leave
// the MEMORY.md files, for SessionStart and SessionEnd of one session
// together. What is left waits for the next session, or for `prune` run by
// the user. The count per session lives in .state/auto-prune.json.
import { join } from 'node:path';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, withLock } from '../fs/role-lock.ts';

/** Sessions remembered: enough for every session that can still be running. */
const KEPT_SESSIONS = 50;

const budgetFile = (paths: EchoPaths) => join(paths.stateDir, 'auto-prune.json');

function readMoved(paths: EchoPaths): Array<[string, number]> {
  try {
    const raw = JSON.parse(readTextOrNull(paths, budgetFile(paths)) ?? '[]') as unknown;
    if (Array.isArray(raw))
      return raw.filter((x): x is [string, number] => Array.isArray(x) && typeof x[0] === 'string' && Number.isInteger(x[1]));
  } catch {
    /* a torn file counts as no pruning yet */
  }
  return [];
}

/** How many entries automatic pruning may still move in this session. */
export function autoPruneBudget(paths: EchoPaths, sessionId: string, perSession: number): number {
  const moved = readMoved(paths).find(([id]) => id === sessionId)?.[1] ?? 0;
  return Math.max(0, perSession - moved);
}

/** Counts `moved` entries against the session's budget. */
export function spendAutoPrune(paths: EchoPaths, sessionId: string, moved: number, deadline?: Deadline): void {
  if (moved <= 0) return;
  withLock(
    paths,
    'auto-prune',
    () => {
      const all = readMoved(paths);
      const before = all.find(([id]) => id === sessionId)?.[1] ?? 0;
      const rows = all.filter(([id]) => id !== sessionId);
      rows.push([sessionId, before + moved]);
      writeFileAtomic(paths, budgetFile(paths), JSON.stringify(rows.slice(-KEPT_SESSIONS)), { durable: false });
    },
    { deadline },
  );
}
