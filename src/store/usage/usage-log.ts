// usage.jsonl on disk: append one event per line; read back, and compact it
// so it stays small (only recent sessions matter for Relevance).
import { statSync } from 'node:fs';
import { compactEvents, formatUsageEvent, parseUsageLog, type UsageEvent } from '../../core/lifecycle/usage-events.ts';
import { appendLine, readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';

/**
 * Appends one event. `around`, when given, is called under the lock with the
 * log's stamps just before and just after this line: the only change between
 * them is this line.
 */
export function appendUsage(
  paths: EchoPaths,
  event: UsageEvent,
  deadline: Deadline = NO_DEADLINE,
  around?: (before: string, after: string) => void,
): void {
  // A `used` line with no ids still says the session worked: it counts in the relevance window.
  if (event.ids.length === 0 && event.tokens === undefined && event.event !== 'used') return;
  // Under the lock so compaction's read-and-rewrite cannot drop a fresh line.
  withLock(
    paths,
    'usage',
    () => {
      const before = around ? fileStamp(paths.usageLog) : '';
      appendLine(paths, paths.usageLog, formatUsageEvent(event));
      around?.(before, fileStamp(paths.usageLog));
    },
    { waitMs: 3000, deadline },
  );
}

/** Size, mtime and inode of a file; `-` when it is missing. */
export function fileStamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return '-';
  }
}

export function readUsage(paths: EchoPaths): UsageEvent[] {
  const text = readTextOrNull(paths, paths.usageLog);
  return text === null ? [] : parseUsageLog(text).events;
}

/**
 * How many sessions of history compaction keeps, as a multiple of the
 * relevance window: the window plus a margin (sessions are ordered by time,
 * and concurrent ones append out of order). Older events survive as one
 * carried line per entry and kind, with their count and latest use: `show`'s
 * totals and "days unused" stay true.
 */
const KEEP_FACTOR = 2;

/**
 * Folds events of sessions older than the last `window × 2` into carried
 * lines and drops the lines that do not parse; older-format lines that fold
 * are written back in the current format.
 */
export function compactUsage(paths: EchoPaths, window: number, deadline: Deadline = NO_DEADLINE): { before: number; after: number } {
  return withLock(
    paths,
    'usage',
    () => {
      const text = readTextOrNull(paths, paths.usageLog);
      if (text === null) return { before: 0, after: 0 };
      const { events, issues } = parseUsageLog(text);
      const folded = compactEvents(events, window * KEEP_FACTOR);
      if (!folded.changed && issues.length === 0) return { before: events.length, after: events.length };
      writeFileAtomic(paths, paths.usageLog, folded.events.map(formatUsageEvent).join(''));
      return { before: events.length, after: folded.events.length };
    },
    { deadline },
  );
}
