// What the memory report shows, computed from what the store read: where each
// entry came from, what each session of the relevance window was given by
// which hook and what it used, the entries given often and never used, the
// captured lessons week by week and the hand-offs day by day. Pure: the store
// gathers the files (store/report/report-data.ts), this file counts.

import { SOURCE_KINDS } from '../adopt/source-reading.ts';
import type { EchoEntry } from '../entry/echo-entry.ts';
import type { EntryScore } from '../lifecycle/echo-score.ts';
import {
  CARRIED_SESSION,
  type InjectedVia,
  relevanceIndex,
  splitUsageKey,
  type UsageEvent,
  usageKey,
  VIAS,
} from '../lifecycle/usage-events.ts';

export interface ReportEntry {
  entry: EchoEntry;
  score: EntryScore;
  /** The day its evidence changed after it was verified. */
  staleSince?: string;
  /** The live entry that retires it (`role#id`). */
  supersededBy?: string;
  /**
   * A teammate's, as the store knows it: the hook for team memory's provenance
   * (an entry that came through git without this clone's mark). Unset, the
   * entry's own provenance field decides (entryOrigin).
   */
  teammate?: boolean;
}

export interface ReportRole {
  role: string;
  memoryLines: number;
  knowledgeLines: number;
  pendingFindings: number;
  entries: ReportEntry[];
  /** The memory file could not be read as memory. */
  error?: string;
}

export interface ArchiveIndexLine {
  seq: number;
  /** YYYY-MM-DD as the index line wrote it, or '' when it has none. */
  date: string;
  trigger: string;
  topics: string;
}

/** Everything the store read for the report. */
export interface ReportInput {
  /** When the report was made (ISO), the one clock the page knows. */
  generatedAt: string;
  /** The project folder's name. */
  project: string;
  limits: { memoryMaxLines: number; knowledgeMaxLines: number; relevanceWindow: number };
  roles: ReportRole[];
  archive: { logs: number; index: ArchiveIndexLine[] };
  /** EPHEMERAL.md: a hand-off waiting for the next session, handed on, or none yet. */
  ephemeral: 'waiting' | 'handed-on' | 'none';
  /** Lines of `.claude/echoes/.log`, the latest last (config warnings left out). */
  problems: string[];
  hooks: Array<{ hook: string; lastRun: string | null }>;
  /** usage.jsonl as read. */
  events: UsageEvent[];
  /** Problems met while reading (a file that is not memory, a folder where a file should be). */
  readProblems: string[];
}

// ── where an entry came from ──

export type EntryOrigin = 'captured' | 'recorded' | 'imported' | 'remembered' | 'teammate';
export const ORIGINS: readonly EntryOrigin[] = ['captured', 'recorded', 'imported', 'remembered', 'teammate'];

/**
 * Fields that name the person an entry came from. None is written yet: the
 * provenance field of team memory will be one of these (an entry keeps fields
 * it does not know in `extra`, so a file that has it is read today), and an
 * entry holding one is a teammate's whatever its source says.
 */
export const PROVENANCE_FIELDS: readonly string[] = ['provenance', 'author'];

export function entryProvenance(entry: Pick<EchoEntry, 'extra'>): string | null {
  for (const [key, value] of entry.extra) {
    if (PROVENANCE_FIELDS.includes(key.trim().toLowerCase()) && value.trim() !== '') return value.trim();
  }
  return null;
}

/**
 * A teammate's (the store said so, or a provenance field names someone other
 * than `self`), captured (capture wrote it), imported (its source names the
 * tool it came from), remembered (a person's `remember`), else recorded (an
 * agent's finding).
 */
export function entryOrigin(
  entry: Pick<EchoEntry, 'captured' | 'source' | 'extra'>,
  opts: { teammate?: boolean; self?: string } = {},
): EntryOrigin {
  if (opts.teammate) return 'teammate';
  const by = entryProvenance(entry);
  if (by !== null && (opts.self === undefined || by !== opts.self)) return 'teammate';
  if (entry.captured || /^capture\b/.test(entry.source)) return 'captured';
  const source = entry.source.trim();
  if ((SOURCE_KINDS as readonly string[]).includes(source) || source.startsWith('agent-memory:')) return 'imported';
  if (source === 'user') return 'remembered';
  return 'recorded';
}

// ── what reached the model, and what was used ──

/** What a person calls each hook that gives memory. */
export const VIA_NAMES: Record<InjectedVia, string> = {
  'session-start': 'digest',
  prompt: 'prompt',
  subagent: 'subagent',
  failure: 'failure',
};

export interface SessionUse {
  session: string;
  /** Its earliest timestamp, as written. */
  start: string;
  /** Per hook: entries given, and how many of those the session used. */
  byVia: Record<InjectedVia, { injected: number; used: number }>;
  /** Entries the session used in all (given or not). */
  used: number;
}

export interface EntryUse {
  key: string;
  /** Per hook: sessions of the window that were given it. */
  givenBy: Record<InjectedVia, number>;
  /** Sessions of the window that used it. */
  usedIn: number;
}

export interface UsageView {
  sessions: SessionUse[];
  /** Totals over the window, per hook. */
  byVia: Record<InjectedVia, { injected: number; used: number }>;
  /** Per usage key (role#id; an older bare id as it was written). */
  entries: Map<string, EntryUse>;
}

const emptyVias = <T>(make: () => T): Record<InjectedVia, T> => Object.fromEntries(VIAS.map((v) => [v, make()])) as Record<InjectedVia, T>;

/**
 * Per session of the relevance window: the distinct entries each hook gave
 * and how many of them the session used. An injected event without a hook
 * (older logs) counts as the digest's, which was the only hook that gave.
 */
export function usageView(events: readonly UsageEvent[], window: number): UsageView {
  const index = relevanceIndex([...events], window);
  const inWindow = new Map(index.sessions.map((s, i) => [s, i]));
  const given = index.sessions.map(() => emptyVias(() => new Set<string>()));
  const used = index.sessions.map(() => new Set<string>());
  const start = index.sessions.map(() => '');
  for (const e of events) {
    if (e.session === CARRIED_SESSION || e.count !== undefined) continue;
    const at = inWindow.get(e.session);
    if (at === undefined) continue;
    if (start[at] === '' || e.ts < start[at]!) start[at] = e.ts;
    const into = e.event === 'used' ? used[at]! : given[at]![e.via ?? 'session-start'];
    for (const key of e.ids) into.add(key);
  }
  const entries = new Map<string, EntryUse>();
  const entryOf = (key: string) => {
    let u = entries.get(key);
    if (!u) {
      u = { key, givenBy: emptyVias(() => 0), usedIn: 0 };
      entries.set(key, u);
    }
    return u;
  };
  const total = emptyVias(() => ({ injected: 0, used: 0 }));
  const sessions = index.sessions.map((session, i) => {
    const byVia = emptyVias(() => ({ injected: 0, used: 0 }));
    for (const via of VIAS) {
      for (const key of given[i]![via]) {
        entryOf(key).givenBy[via]++;
        byVia[via].injected++;
        if (used[i]!.has(key) || usedAsBare(used[i]!, key)) byVia[via].used++;
      }
      total[via].injected += byVia[via].injected;
      total[via].used += byVia[via].used;
    }
    for (const key of used[i]!) entryOf(key).usedIn++;
    return { session, start: start[i]!, byVia, used: used[i]!.size };
  });
  return { sessions, byVia: total, entries };
}

/** A role-qualified key given and its bare id used (an older writer): the same entry. */
function usedAsBare(used: Set<string>, key: string): boolean {
  const { role, id } = splitUsageKey(key);
  return role !== null && used.has(id);
}

/** What the window says about one entry: its role-qualified key and the bare id older lines wrote. */
export function windowUse(view: UsageView, role: string, id: string): EntryUse {
  const out: EntryUse = { key: usageKey(role, id), givenBy: emptyVias(() => 0), usedIn: 0 };
  for (const key of [usageKey(role, id), id]) {
    const u = view.entries.get(key);
    if (!u) continue;
    for (const via of VIAS) out.givenBy[via] += u.givenBy[via];
    out.usedIn += u.usedIn;
  }
  return out;
}

/** Given this often (over the whole log) and never used: candidates to forget. */
export const IDLE_GIVEN = 3;

// ── captured lessons and hand-offs over time ──

const DAY_MS = 86_400_000;

/** Monday of the ISO week of a `YYYY-MM-DD` day, or null. */
export function weekOf(day: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (!Number.isFinite(ms)) return null;
  const weekday = (new Date(ms).getUTCDay() + 6) % 7;
  return new Date(ms - weekday * DAY_MS).toISOString().slice(0, 10);
}

export const CAPTURE_KINDS = ['commands', 'fix', 'correction', 'obstacle'] as const;

export interface WeekCount {
  week: string;
  counts: Record<string, number>;
  total: number;
}

/** Captured lessons per week of the day they were first written, each week counted by kind; weeks without any included between. */
export function capturedByWeek(entries: ReadonlyArray<Pick<EchoEntry, 'captured' | 'date' | 'verified'>>): WeekCount[] {
  const weeks = new Map<string, WeekCount>();
  for (const e of entries) {
    if (!e.captured) continue;
    const week = weekOf(e.date) ?? weekOf(e.verified);
    if (week === null) continue;
    let w = weeks.get(week);
    if (!w) {
      w = { week, counts: {}, total: 0 };
      weeks.set(week, w);
    }
    w.counts[e.captured] = (w.counts[e.captured] ?? 0) + 1;
    w.total++;
  }
  const sorted = [...weeks.keys()].sort();
  if (sorted.length === 0) return [];
  const out: WeekCount[] = [];
  for (let ms = Date.parse(sorted[0]!); ms <= Date.parse(sorted.at(-1)!); ms += 7 * DAY_MS) {
    const week = new Date(ms).toISOString().slice(0, 10);
    out.push(weeks.get(week) ?? { week, counts: {}, total: 0 });
  }
  return out;
}

const INDEX_LINE = /^- (\d{3,}) · ([^·]*?) · ([^·]*?) · (.*)$/;

/** ARCHIVE.md's lines: number · date · trigger · topics (other lines skipped). */
export function parseArchiveIndex(text: string): ArchiveIndexLine[] {
  const out: ArchiveIndexLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = INDEX_LINE.exec(line);
    if (!m) continue;
    const date = /^\d{4}-\d{2}-\d{2}$/.test(m[2]!.trim()) ? m[2]!.trim() : '';
    out.push({ seq: Number(m[1]), date, trigger: m[3]!.trim(), topics: m[4]!.trim() });
  }
  return out;
}

export interface TimeBucket {
  /** First day of the bucket. */
  from: string;
  /** Days it spans (1 or 7). */
  days: number;
  logs: ArchiveIndexLine[];
}

/** The most buckets a timeline draws: past that, days become weeks, and then only the latest are drawn. */
export const MAX_BUCKETS = 120;

/** Archive logs on a timeline: per day, or per week when the days would not fit; empty days kept, so gaps show. */
export function archiveTimeline(lines: readonly ArchiveIndexLine[]): { buckets: TimeBucket[]; undated: number; cut: number } {
  const dated = lines.filter((l) => l.date !== '');
  const undated = lines.length - dated.length;
  if (dated.length === 0) return { buckets: [], undated, cut: 0 };
  const days = dated.map((l) => Date.parse(l.date)).sort((a, b) => a - b);
  const span = (days.at(-1)! - days[0]!) / DAY_MS + 1;
  const width = span > MAX_BUCKETS ? 7 : 1;
  const keyOf = (day: string) => (width === 7 ? weekOf(day)! : day);
  const first = Date.parse(keyOf(new Date(days[0]!).toISOString().slice(0, 10)));
  const last = days.at(-1)!;
  const byKey = new Map<string, ArchiveIndexLine[]>();
  for (const l of dated) {
    const k = keyOf(l.date);
    const list = byKey.get(k);
    if (list) list.push(l);
    else byKey.set(k, [l]);
  }
  const buckets: TimeBucket[] = [];
  for (let ms = first; ms <= last; ms += width * DAY_MS) {
    const from = new Date(ms).toISOString().slice(0, 10);
    buckets.push({ from, days: width, logs: byKey.get(from) ?? [] });
  }
  const cut = Math.max(0, buckets.length - MAX_BUCKETS);
  return { buckets: buckets.slice(cut), undated, cut };
}
