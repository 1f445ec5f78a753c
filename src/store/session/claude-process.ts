// Which Claude Code process a hook belongs to, so that a session still
// running in another terminal is not mistaken for one that crashed.
// Hooks are spawned through a shell, so the parent is often `sh`; on Linux
// the chain is walked through /proc. Without /proc (macOS, Windows) the hook's
// parent is the best answer there is: a shell that runs one command usually
// becomes it (bash does), so the parent is Claude Code itself; if it was a
// shell that has exited since, the session is treated as crashed, as before.
// Where /proc shows no Claude Code ancestor (a hook run by hand) the answer is
// 0, "unknown", and a session that did not end is then treated as crashed.
import { readFileSync } from 'node:fs';

function procStat(pid: number): { ppid: number; comm: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm is in parentheses and may contain spaces; fields after it are fixed.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return { ppid, comm };
  } catch {
    return null;
  }
}

/** Set by a hook for the detached worker it starts: the worker's own ancestors no longer lead to Claude Code. */
export const CLAUDE_PID_ENV = 'RUNE_ECHOES_CLAUDE_PID';

export function claudeProcessId(start = process.ppid, stat: typeof procStat = procStat): number {
  const given = Number(process.env[CLAUDE_PID_ENV]);
  if (Number.isInteger(given) && given > 0) return given;
  let pid = start;
  for (let depth = 0; depth < 6 && pid > 1; depth++) {
    const st = stat(pid);
    if (!st) return depth === 0 && stat(process.pid) === null ? start : 0;
    if (/claude/i.test(st.comm)) return pid;
    pid = st.ppid;
  }
  return 0;
}

export function processAlive(pid: number | undefined): boolean {
  if (!pid || pid <= 1) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // A recycled pid that is now some other program is not our session.
  const st = procStat(pid);
  return st === null || /claude/i.test(st.comm);
}
