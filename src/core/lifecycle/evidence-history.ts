// The git history of a file an entry cites, as the memory-auditor is handed
// it (it has no shell to ask git itself): whether the file is there, the day
// its first commit added it, and its commits since the entry was verified —
// for a file that is gone, the commit that deleted or renamed it. Pure: the
// store runs `git log` and hands the text in.

export interface FileCommit {
  hash: string;
  day: string;
  subject: string;
  /** What the commit did to the file, when it removed it: deleted, or renamed to `to`. */
  change?: 'deleted' | 'renamed';
  to?: string;
}

export interface FileHistory {
  file: string;
  present: boolean;
  /** False when git does not know the file (or there is no repository): no history then. */
  tracked: boolean;
  /** The day of the oldest commit that touched the file, or null. */
  added: string | null;
  /** Newest first. */
  commits: FileCommit[];
}

/** The `--format` the log is read with: a NUL, then hash, day and subject separated by tabs. */
export const HISTORY_FORMAT = '--format=%x00%h%x09%as%x09%s';

/**
 * `git log --name-status HISTORY_FORMAT -- <file>` → its commits, newest
 * first, each with what it did to `file` when it deleted or renamed it.
 */
export function parseFileLog(log: string, file: string): FileCommit[] {
  const commits: FileCommit[] = [];
  for (const record of log.split('\u0000')) {
    const [head = '', ...rest] = record.split('\n');
    const [hash = '', day = '', ...subject] = head.split('\t');
    if (!/^[0-9a-f]{4,64}$/.test(hash) || !/^\d{4}-\d{2}-\d{2}$/.test(day)) continue;
    const commit: FileCommit = { hash, day, subject: subject.join('\t').trim() };
    for (const line of rest) {
      const [status = '', from = '', to] = line.split('\t');
      if (status === 'D' && from === file) commit.change = 'deleted';
      if (/^R\d*$/.test(status) && from === file && to) {
        commit.change = 'renamed';
        commit.to = to;
      }
    }
    commits.push(commit);
  }
  return commits;
}

/** `git show --name-status --format= <commit>` → where `file` went, when that commit renamed it. */
export function renameTarget(nameStatus: string, file: string): string | null {
  for (const line of nameStatus.split('\n')) {
    const [status = '', from = '', to] = line.split('\t');
    if (/^R\d*$/.test(status) && from === file && to) return to;
  }
  return null;
}

/** A file's history as the brief gives it: commits after `since` (the entry's verified day), at most `max`. */
export function commitsAfter(history: FileHistory, since: string | null, max: number): FileCommit[] {
  const after = since === null ? history.commits : history.commits.filter((c) => c.day > since);
  // The commit that removed a missing file always stays: it says where the evidence went.
  const removal = history.present ? undefined : history.commits.find((c) => c.change !== undefined);
  const kept = after.slice(0, max);
  return removal && !kept.includes(removal) ? [...kept, removal] : kept;
}
