// usage.jsonl on disk: append one event per line; read back, and compact it
// so it stays small (only recent sessions matter for Relevance).
import { formatUsageEvent, parseUsageLog, type UsageEvent } from '../../core/lifecycle/usage-events.ts';
import { appendLine, readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';

export function appendUsage(paths: EchoPaths, event: UsageEvent, deadline: Deadline = NO_DEADLINE): void {
  if (event.ids.length === 0 && event.tokens === undefined) return;
  // Under the lock so compaction's read-and-rewrite cannot drop a fresh line.
  withLock(paths, 'usage', () => appendLine(paths, paths.usageLog, formatUsageEvent(event)), { waitMs: 3000, deadline });
}

export function readUsage(paths: EchoPaths): UsageEvent[] {
  const text = readTextOrNull(paths, paths.usageLog);
  return text === null ? [] : parseUsageLog(text).events;
}

/**
 * How many sessions of history compaction keeps, as a multiple of the
 * relevance window: the window plus a margin (sessions are ordered by time,
 * and concurrent ones append out of order). Older references survive as one
 * carried "last referenced" line per entry, which is all that scoring needs.
 */
const KEEP_FACTOR = 2;

/**
 * Drops events of sessions older than the last `window × 2` and the lines
 * that do not parse. Last-referenced dates of older entries are kept as one
 * synthetic event per entry so "days unreferenced" stays true.
 */
export function compactUsage(paths: EchoPaths, window: number, deadline: Deadline = NO_DEADLINE): { before: number; after: number } {
  return withLock(
    paths,
    'usage',
    () => {
      const text = readTextOrNull(paths, paths.usageLog);
      if (text === null) return { before: 0, after: 0 };
      const { events } = parseUsageLog(text);
      const sessions = [...new Set(events.map((e) => e.session))];
      const keep = new Set(sessions.slice(-window * KEEP_FACTOR));
      if (keep.size === sessions.length) return { before: events.length, after: events.length };
      const last = new Map<string, string>();
      for (const e of events) {
        if (keep.has(e.session)) continue;
        for (const id of e.ids) if ((last.get(id) ?? '') < e.ts) last.set(id, e.ts);
      }
      const carried: UsageEvent[] = [...last].map(([id, ts]) => ({ ts, session: 'compacted', event: 'referenced', ids: [id] }));
      const kept = [...carried, ...events.filter((e) => keep.has(e.session))];
      writeFileAtomic(paths, paths.usageLog, kept.map(formatUsageEvent).join(''));
      return { before: events.length, after: kept.length };
    },
    { deadline },
  );
}
