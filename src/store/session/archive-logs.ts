// memories/archive-log-NNN.md and their ARCHIVE.md index (SPEC §3, §8).
// Numbers are claimed under a lock and by creating the file exclusively (a
// hard link of a finished temp file), so two sessions compacting at once get
// N and N+1: never the same number, never a gap, never a half-written log.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { appendLine, createFileExclusive, readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';

const LOG_NAME = /^archive-log-(\d{3,})\.md$/;
const INDEX_LINE = /^- (\d{3,}) · /;
export const ARCHIVE_HEADER = '# Archive\n\nOne line per archive log in memories/: number · date · trigger · topics.\n\n';

/**
 * The archive lock lives beside the logs it guards: in user scope memories/
 * and ARCHIVE.md are shared by every project, and so must be their lock.
 */
const archiveLockOptions = (paths: EchoPaths, deadline: Deadline) => ({ waitMs: 10_000, dir: join(paths.memoriesDir, '.locks'), deadline });

export const logFileName = (seq: number) => `archive-log-${String(seq).padStart(3, '0')}.md`;

export function listArchiveLogs(paths: EchoPaths): number[] {
  let names: string[];
  try {
    names = readdirSync(paths.memoriesDir);
  } catch {
    return [];
  }
  const seqs: number[] = [];
  for (const n of names) {
    const m = LOG_NAME.exec(n);
    if (m) seqs.push(Number(m[1]));
  }
  return seqs.sort((a, b) => a - b);
}

export interface ArchiveLogDraft {
  /** Renders the log for the number it is given. */
  render: (seq: number) => string;
  /** The ARCHIVE.md line for that number (without the leading "- NNN · "). */
  indexLine: (seq: number) => string;
  /**
   * Recognises a log this same checkpoint already wrote (a writer killed after
   * the log but before its caller recorded it): that number is returned
   * instead of writing the span a second time.
   */
  isSame?: (logText: string) => boolean;
}

/** How many of the newest logs are checked for an earlier copy of the same checkpoint. */
const SAME_LOG_LOOKBACK = 8;

export function formatIndexLine(seq: number, rest: string): string {
  return `- ${String(seq).padStart(3, '0')} · ${rest.replace(/\s+/g, ' ').trim()}`;
}

/**
 * Writes the next archive log and indexes it; returns its number. Both happen
 * under the index lock, so index repair never sees a log between its creation
 * and its line (only a writer killed in between leaves one for repair).
 */
export function writeNextArchiveLog(paths: EchoPaths, draft: ArchiveLogDraft, deadline: Deadline = NO_DEADLINE): number {
  return withLock(
    paths,
    'archive-index',
    () => {
      const existing = listArchiveLogs(paths);
      if (draft.isSame) {
        for (const n of existing.slice(-SAME_LOG_LOOKBACK).reverse()) {
          const text = readTextOrNull(paths, join(paths.memoriesDir, logFileName(n)));
          if (text !== null && draft.isSame(text)) return n;
        }
      }
      let seq = (existing.at(-1) ?? 0) + 1;
      while (!createFileExclusive(paths, join(paths.memoriesDir, logFileName(seq)), draft.render(seq))) seq += 1;
      if (readTextOrNull(paths, paths.archiveIndex) === null) writeFileAtomic(paths, paths.archiveIndex, ARCHIVE_HEADER);
      appendLine(paths, paths.archiveIndex, formatIndexLine(seq, draft.indexLine(seq)));
      return seq;
    },
    archiveLockOptions(paths, deadline),
  );
}

/** Numbers already listed in ARCHIVE.md. */
export function indexedSequences(indexText: string | null): Set<number> {
  const seen = new Set<number>();
  for (const line of (indexText ?? '').split(/\r?\n/)) {
    const m = INDEX_LINE.exec(line);
    if (m) seen.add(Number(m[1]));
  }
  return seen;
}

/**
 * Adds an index line for every log that has none (a writer killed between the
 * log and its line). The line is rebuilt from the log's own header.
 */
export function repairArchiveIndex(paths: EchoPaths, describe: (logText: string) => string, deadline: Deadline = NO_DEADLINE): number[] {
  const logs = listArchiveLogs(paths);
  const text = readTextOrNull(paths, paths.archiveIndex);
  const seen = indexedSequences(text);
  const missing = logs.filter((s) => !seen.has(s));
  if (missing.length === 0) return [];
  withLock(
    paths,
    'archive-index',
    () => {
      // Read again under the lock: the first look was only to avoid taking it.
      const again = indexedSequences(readTextOrNull(paths, paths.archiveIndex));
      if (readTextOrNull(paths, paths.archiveIndex) === null) writeFileAtomic(paths, paths.archiveIndex, ARCHIVE_HEADER);
      for (const seq of missing) {
        if (again.has(seq)) continue;
        const log = readTextOrNull(paths, join(paths.memoriesDir, logFileName(seq))) ?? '';
        appendLine(paths, paths.archiveIndex, formatIndexLine(seq, describe(log)));
      }
    },
    archiveLockOptions(paths, deadline),
  );
  return missing;
}

/** The latest archive log if it was written after `sinceMs` (crash fallback when no summary is left). */
export function latestLogSince(paths: EchoPaths, sinceMs: number): string | null {
  const seq = listArchiveLogs(paths).at(-1);
  if (seq === undefined) return null;
  const file = join(paths.memoriesDir, logFileName(seq));
  try {
    if (statSync(file).mtimeMs <= sinceMs) return null;
  } catch {
    return null;
  }
  return readTextOrNull(paths, file);
}
