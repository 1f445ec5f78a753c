// The Echo Score (SPEC §5): Importance × 0.4 + Relevance × 0.3 + Recency × 0.3.
// Pure: the caller passes `now` and the usage events.

import { type EchoEntry, LAYER_MAX_AGE_DAYS, LAYER_WEIGHT } from '../entry/echo-entry.ts';
import { DEFAULT_RELEVANCE_WINDOW, entryUsage, type RelevanceIndex, relevanceIndex, type UsageEvent } from './usage-events.ts';

const DAY_MS = 86_400_000;
const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface ScoreContext {
  now: Date;
  /** Share of the recent sessions that used the entry, 0..1. */
  relevance: number;
  /** Its evidence changed after it was verified: no recency until it is verified again. */
  stale?: boolean;
}

export interface EntryScore {
  id: string;
  score: number;
  relevance: number;
  /** Whole days since `verified` (fallback: heading date); null when neither is a valid day. */
  ageDays: number | null;
  /** Whole days since the later of the last use and `verified`; null when unknown. */
  unreferencedDays: number | null;
  /** Times the log says it was given to the model, and used. */
  injected: number;
  used: number;
}

export interface ScoreOptions {
  /** The role of every entry, or of each by position: usage is logged per role. */
  role?: string | readonly string[];
  /** Entries whose evidence changed since `verified`, by position. */
  stale?: (index: number) => boolean;
}

/** UTC midnight of a `YYYY-MM-DD` day, or null for '' and impossible dates like 2026-02-31. */
export function parseDay(day: string): number | null {
  const m = DAY_RE.exec(day.trim());
  if (m === null) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  return ms;
}

/** Whole days from `ms` to `now`; never negative, so a future date counts as today. */
export function daysSince(ms: number, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - ms) / DAY_MS));
}

/** The day an entry was last confirmed: `verified`, else the heading date. */
export function entryDayMs(entry: Pick<EchoEntry, 'verified' | 'date'>): number | null {
  return parseDay(entry.verified) ?? parseDay(entry.date);
}

function clamp01(x: number): number {
  if (!Number.isFinite(x)) return 0;
  return Math.min(1, Math.max(0, x));
}

export function echoScore(entry: Pick<EchoEntry, 'layer' | 'verified' | 'date'>, ctx: ScoreContext): number {
  // Etched is permanent project knowledge: locked at the top, never pruned.
  if (entry.layer === 'etched') return 1;
  const importance = LAYER_WEIGHT[entry.layer];
  const relevance = clamp01(ctx.relevance);
  const dayMs = entryDayMs(entry);
  // Without any date we cannot claim the entry is fresh, so recency is 0; nor once its evidence changed.
  const recency = dayMs === null || ctx.stale ? 0 : clamp01(1 - daysSince(dayMs, ctx.now) / LAYER_MAX_AGE_DAYS[entry.layer]);
  const score = importance * 0.4 + relevance * 0.3 + recency * 0.3;
  // Rounded so that thresholds such as "< 0.3" are not decided by float noise.
  return Math.round(clamp01(score) * 1e6) / 1e6;
}

/** Scores a list of entries against the usage log, in input order. */
export function scoreEntries(
  entries: EchoEntry[],
  events: UsageEvent[],
  now: Date,
  window = DEFAULT_RELEVANCE_WINDOW,
  opts: ScoreOptions = {},
): EntryScore[] {
  return scoreWithIndex(entries, relevanceIndex(events, window), now, opts);
}

/** The same, from a relevance index built once (several roles scored against one log). */
export function scoreWithIndex(entries: EchoEntry[], index: RelevanceIndex, now: Date, opts: ScoreOptions = {}): EntryScore[] {
  const sessions = index.sessions.length;
  const roleAt = (i: number): string | undefined => (typeof opts.role === 'string' ? opts.role : opts.role?.[i]);
  return entries.map((entry, i) => {
    const usage = entryUsage(index, entry.id, roleAt(i));
    const relevance = sessions === 0 ? 0 : usage.sessions / sessions;
    const dayMs = entryDayMs(entry);
    const refMs = usage.lastUsed === undefined ? null : Date.parse(usage.lastUsed);
    // A re-verification by a finding is as good as a use: the later counts.
    const seenMs = refMs === null || !Number.isFinite(refMs) ? dayMs : Math.max(refMs, dayMs ?? -Infinity);
    return {
      id: entry.id,
      score: echoScore(entry, { now, relevance, stale: opts.stale?.(i) === true }),
      relevance,
      ageDays: dayMs === null ? null : daysSince(dayMs, now),
      unreferencedDays: seenMs === null ? null : daysSince(seenMs, now),
      injected: usage.injected,
      used: usage.used,
    };
  });
}
