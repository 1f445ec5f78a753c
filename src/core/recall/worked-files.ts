// The files the work keeps coming back to (SPEC §6a, how this project is
// worked): each working session's read and edited files are counted in a small
// personal ledger, and a SessionStart names the few that sessions came back to
// most, weighted to the recent, which the last session's hand-off does not
// already name. A new session then knows where the work lives before it
// searches for it. No model call: counts of what sessions touched. Pure.

/** One file's record: how many sessions touched it, and a weight that older sessions count less in. */
export interface WorkedFile {
  sessions: number;
  /** Decayed by DECAY per session since `seq`; +1 for each session that touched it. */
  weight: number;
  /** The ledger's session number when a session last touched it. */
  seq: number;
  /** That session (short id): a second capture of one session counts once. */
  last: string;
}

export interface WorkedFiles {
  /** How many working sessions the ledger has counted. */
  seq: number;
  files: Record<string, WorkedFile>;
}

/** Per session that did not touch it, a file's weight keeps this share. */
const DECAY = 0.85;
/** Files the ledger keeps (the lightest go first). */
const KEPT = 300;
/** A file is named once this many sessions touched it. */
export const MIN_SESSIONS = 2;
/** Most files a start names. */
export const MAX_NAMED = 16;

export const emptyWorkedFiles = (): WorkedFiles => ({ seq: 0, files: {} });

// Outside the project, what is no one's work: the system's files, temporary folders, a relative path
// whose folder is not known, and Claude Code's own folder.
const NOT_WORK = /^(?:\.\.(?:\/|$)|\/(?:etc|dev|proc|sys|tmp|private\/tmp|var\/folders)\/)|\/AppData\/Local\/Temp\/|(?:^|\/)\.claude\//i;

/**
 * A file worth naming: the project's own (relative to it), or one the work keeps reaching outside it (a
 * sibling folder, a home config); not the system's, a temporary one, the plugin's memory, or what
 * Claude Code loads by itself.
 */
export function countsAsWorked(path: string): boolean {
  if (!path || NOT_WORK.test(path) || path.includes('\\')) return false;
  return !/(?:^|\/)CLAUDE(?:\.local)?\.md$/.test(path);
}

/** The weight `f` has now, at the ledger's session number `seq`. */
const weightAt = (f: WorkedFile, seq: number): number => f.weight * DECAY ** Math.max(0, seq - f.seq);

/**
 * The ledger after `session` touched `files` (a session counted before is not counted again) and
 * deleted or moved away `gone` (no longer named).
 */
export function updateWorkedFiles(
  ledger: WorkedFiles,
  files: readonly string[],
  session: string,
  gone: readonly string[] = [],
): WorkedFiles {
  const removed = new Set(gone);
  const touched = [...new Set(files.filter((f) => countsAsWorked(f) && !removed.has(f)))];
  if (touched.length === 0 && !gone.some((g) => g in ledger.files)) return ledger;
  const known = Object.values(ledger.files).some((f) => f.last === session && f.seq === ledger.seq);
  const seq = known || touched.length === 0 ? ledger.seq : ledger.seq + 1;
  const next: Record<string, WorkedFile> = { ...ledger.files };
  for (const g of removed) delete next[g];
  for (const path of touched) {
    const had = next[path];
    if (had && had.last === session) continue;
    next[path] = had
      ? { sessions: had.sessions + 1, weight: weightAt(had, seq) + 1, seq, last: session }
      : { sessions: 1, weight: 1, seq, last: session };
  }
  const paths = Object.keys(next);
  if (paths.length > KEPT) {
    const lightest = paths.sort((a, b) => weightAt(next[a]!, seq) - weightAt(next[b]!, seq)).slice(0, paths.length - KEPT);
    for (const p of lightest) delete next[p];
  }
  return { seq, files: next };
}

/**
 * The files to name at a start: touched in MIN_SESSIONS sessions or more, heaviest first, less those
 * `named` already (the hand-off lists them).
 */
export function filesComingBack(ledger: WorkedFiles, named: (path: string) => boolean): string[] {
  return Object.entries(ledger.files)
    .filter(([path, f]) => f.sessions >= MIN_SESSIONS && countsAsWorked(path))
    .sort(([a, x], [b, y]) => weightAt(y, ledger.seq) - weightAt(x, ledger.seq) || a.localeCompare(b))
    .map(([path]) => path)
    .filter((path) => !named(path))
    .slice(0, MAX_NAMED);
}

/** A ledger read from disk, or an empty one when it is not one (torn, hand-edited, from elsewhere). */
export function parseWorkedFiles(text: string | null): WorkedFiles {
  if (!text) return emptyWorkedFiles();
  try {
    const v = JSON.parse(text) as Partial<WorkedFiles> | null;
    if (!v || typeof v.seq !== 'number' || typeof v.files !== 'object' || v.files === null || Array.isArray(v.files))
      return emptyWorkedFiles();
    const files: Record<string, WorkedFile> = {};
    for (const [path, f] of Object.entries(v.files)) {
      if (f && typeof f.sessions === 'number' && typeof f.weight === 'number' && typeof f.seq === 'number' && typeof f.last === 'string')
        files[path] = f;
    }
    return { seq: v.seq, files };
  } catch {
    return emptyWorkedFiles();
  }
}
