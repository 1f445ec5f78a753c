// usage.jsonl (SPEC §13): an append-only log of which entries each session was
// given and which it used. Relevance is always recomputed from this log, never
// stored on the entries (seed 004: event-sourcing), so any process can rebuild it.
//
// Two kinds of event, kept apart because only one of them is evidence of value:
// - injected: a hook gave the entry to the model (the digest, prompt-time
//   recall, a subagent's start). Counted, shown, never raises Relevance.
// - used: the session touched the entry's evidence, ran what it names, or the
//   assistant named it. This alone is what Relevance counts. A session that
//   worked writes one at its end even when it used nothing (no ids): only such
//   sessions are in the relevance window.
// Ids are role-qualified (`reviewer#unused-imports`): two roles may hold the same id.
//
// Older logs said `referenced` (and counted injection as use) and wrote bare
// ids; they are read as `used` events on ids of any role, so no history is lost,
// and compaction writes them back in this format.

export type UsageEventKind = 'injected' | 'used';

/** Which hook gave the entries (injected events only). */
export const VIAS = ['session-start', 'prompt', 'subagent', 'failure'] as const;
export type InjectedVia = (typeof VIAS)[number];

export interface UsageEvent {
  ts: string;
  session: string;
  event: UsageEventKind;
  /** `role#id`; a bare id (older lines) stands for that id in any role. */
  ids: string[];
  tokens?: number;
  via?: InjectedVia;
  /** The subagent type that was given them (via subagent). */
  agent?: string;
  /**
   * History folded by compaction: this one line stands for `count` events of
   * sessions no longer in the log. It counts in the totals and in "last used",
   * never as a session of the relevance window.
   */
  count?: number;
}

export interface UsageIssue {
  code: 'bad-json' | 'bad-event';
  line: number;
  message: string;
}

/** The session name of lines that carry compacted history. */
export const CARRIED_SESSION = 'compacted';

export const DEFAULT_RELEVANCE_WINDOW = 20;

/** Times an entry may be given after its latest use before it counts as worn: fading from the digest, a plainer match at a prompt. */
export const WORN_AFTER = 3;

/** Given WORN_AFTER times or more since its latest use (or ever, unused). */
export const isWorn = (totals: Pick<UsageTotals, 'sinceUse'> | undefined): boolean => (totals?.sinceUse ?? 0) >= WORN_AFTER;

/** The key usage.jsonl names an entry by. */
export const usageKey = (role: string, id: string): string => `${role}#${id}`;

/** `role#id` → its parts; a bare id has no role. */
export function splitUsageKey(key: string): { role: string | null; id: string } {
  const at = key.indexOf('#');
  return at < 0 ? { role: null, id: key } : { role: key.slice(0, at), id: key.slice(at + 1) };
}

const isCarried = (e: UsageEvent): boolean => e.count !== undefined || e.session === CARRIED_SESSION;

/**
 * Reads the log line by line. A bad line (a crash mid-append, a hand edit) is
 * reported and skipped; it never costs the events around it. Lines in the
 * older format are migrated as they are read (`legacy` counts them).
 */
export function parseUsageLog(text: string): { events: UsageEvent[]; issues: UsageIssue[]; legacy: number } {
  const events: UsageEvent[] = [];
  const issues: UsageIssue[] = [];
  let legacy = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] ?? '').replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      issues.push({ code: 'bad-json', line, message: `usage.jsonl line ${line} is not valid JSON; skipped` });
      continue;
    }
    const problem = checkEvent(value);
    if (problem !== null) {
      issues.push({ code: 'bad-event', line, message: `usage.jsonl line ${line}: ${problem}; skipped` });
      continue;
    }
    const v = value as Record<string, unknown>;
    if (v.event === 'referenced') legacy++;
    events.push(toEvent(v));
  }
  return { events, issues, legacy };
}

function checkEvent(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.ts !== 'string' || v.ts === '') return 'missing "ts"';
  if (typeof v.session !== 'string' || v.session === '') return 'missing "session"';
  if (v.event !== 'injected' && v.event !== 'used' && v.event !== 'referenced') return '"event" must be injected or used';
  if (!Array.isArray(v.ids) || !v.ids.every((id) => typeof id === 'string')) return '"ids" must be a list of strings';
  if (v.tokens !== undefined && !(typeof v.tokens === 'number' && Number.isFinite(v.tokens) && v.tokens >= 0)) {
    return '"tokens" must be a non-negative number';
  }
  if (v.count !== undefined && !(Number.isInteger(v.count) && (v.count as number) >= 1)) return '"count" must be a whole number from 1';
  return null;
}

// Copies only the known fields so unknown keys from newer writers do not leak
// into values that are later re-serialised. `referenced` (older logs) is `used`.
function toEvent(v: Record<string, unknown>): UsageEvent {
  const event: UsageEvent = {
    ts: v.ts as string,
    session: v.session as string,
    event: v.event === 'injected' ? 'injected' : 'used',
    ids: [...(v.ids as string[])],
  };
  if (typeof v.tokens === 'number') event.tokens = v.tokens;
  if (event.event === 'injected' && (VIAS as readonly string[]).includes(v.via as string)) event.via = v.via as InjectedVia;
  if (event.event === 'injected' && typeof v.agent === 'string' && v.agent !== '') event.agent = v.agent.slice(0, 200);
  if (typeof v.count === 'number') event.count = v.count;
  return event;
}

/** One JSONL line with a fixed key order, ready to append. */
export function formatUsageEvent(e: UsageEvent): string {
  const out: Record<string, unknown> = { ts: e.ts, session: e.session, event: e.event };
  if (e.via !== undefined) out.via = e.via;
  if (e.agent !== undefined) out.agent = e.agent;
  out.ids = e.ids;
  if (e.tokens !== undefined) out.tokens = e.tokens;
  if (e.count !== undefined) out.count = e.count;
  return `${JSON.stringify(out)}\n`;
}

export interface UsageTotals {
  injected: number;
  used: number;
  /** Times given after its latest use (all of them when never used): what "given again and again, unused" counts. */
  sinceUse: number;
}

export interface RelevanceIndex {
  /** The sessions in the window, oldest first (compacted history is not a session). */
  sessions: string[];
  /** Usage key → the windowed sessions (indexes into `sessions`) that used it. */
  usedIn: Map<string, Set<number>>;
  /** Usage key → latest timestamp (as written) of a use, over the whole log. */
  lastUsed: Map<string, string>;
  /** Usage key → how many times it was injected and used, over the whole log. */
  totals: Map<string, UsageTotals>;
}

/**
 * The sessions that worked: a session's end writes a `used` line when it did
 * work (its ids may be none), and only then. A session that only said hello or
 * only ran `/rune:echoes` commands has `injected` lines alone. The older format
 * did not tell (its injected lines name no hook): its sessions count as they did.
 */
export function workingSessions(events: readonly UsageEvent[]): Set<string> {
  const worked = new Set<string>();
  for (const e of events) {
    if (isCarried(e)) continue;
    if (e.event === 'used' || e.via === undefined) worked.add(e.session);
  }
  return worked;
}

/**
 * Relevance over the last `window` distinct sessions that worked. Sessions are
 * ordered by their earliest valid timestamp, falling back to the order in which
 * they first appear: concurrent sessions interleave their appends, so file order
 * alone would misplace a long session. Every working session counts in the
 * window (one that used nothing lowers everyone's share); a session that did no
 * work does not, and what it was given is not counted either (idle sessions
 * cannot wear the ranking down). An entry counts once per session that used it.
 * Injection is counted in the totals only.
 */
export function relevanceIndex(events: UsageEvent[], window = DEFAULT_RELEVANCE_WINDOW): RelevanceIndex {
  const firstSeen = new Map<string, number>();
  const startMs = new Map<string, number>();
  const usedBySession = new Map<string, Set<string>>();
  const lastMs = new Map<string, number>();
  const lastUsed = new Map<string, string>();
  const totals = new Map<string, UsageTotals>();
  const worked = workingSessions(events);

  events.forEach((e, index) => {
    const carried = isCarried(e);
    if (!carried && !worked.has(e.session)) return;
    const ms = Date.parse(e.ts);
    const n = e.count ?? 1;
    for (const key of e.ids) {
      let t = totals.get(key);
      if (t === undefined) {
        t = { injected: 0, used: 0, sinceUse: 0 };
        totals.set(key, t);
      }
      t[e.event] += n;
      if (e.event === 'used' && Number.isFinite(ms) && ms > (lastMs.get(key) ?? -Infinity)) {
        lastMs.set(key, ms);
        lastUsed.set(key, e.ts);
      }
    }
    if (carried) return;
    if (!firstSeen.has(e.session)) firstSeen.set(e.session, index);
    if (Number.isFinite(ms)) {
      const prev = startMs.get(e.session);
      if (prev === undefined || ms < prev) startMs.set(e.session, ms);
    }
    let used = usedBySession.get(e.session);
    if (used === undefined) {
      used = new Set();
      usedBySession.set(e.session, used);
    }
    if (e.event === 'used') for (const key of e.ids) used.add(key);
  });
  // Given since the latest use, by time (a carried line counts whole when its latest giving is after it).
  for (const e of events) {
    if (e.event !== 'injected' || (!isCarried(e) && !worked.has(e.session))) continue;
    const ms = Date.parse(e.ts);
    for (const key of e.ids) {
      const last = lastMs.get(key);
      if (last === undefined || !Number.isFinite(ms) || ms > last) totals.get(key)!.sinceUse += e.count ?? 1;
    }
  }

  // A session without any valid timestamp sorts right after the session that
  // precedes it in the file, which keeps the order total and deterministic.
  const inFileOrder = [...firstSeen.keys()];
  const sortKey = new Map<string, number>();
  let carried = -Infinity;
  for (const s of inFileOrder) {
    const own = startMs.get(s);
    if (own !== undefined) carried = own;
    sortKey.set(s, own ?? carried);
  }
  const ordered = inFileOrder
    .map((s, i) => ({ s, i }))
    .sort((a, b) => sortKey.get(a.s)! - sortKey.get(b.s)! || a.i - b.i)
    .map((x) => x.s);

  const size = Math.max(0, Math.floor(window));
  const sessions = size === 0 ? [] : ordered.slice(-size);
  const usedIn = new Map<string, Set<number>>();
  sessions.forEach((s, i) => {
    for (const key of usedBySession.get(s) ?? []) {
      let set = usedIn.get(key);
      if (set === undefined) {
        set = new Set();
        usedIn.set(key, set);
      }
      set.add(i);
    }
  });
  return { sessions, usedIn, lastUsed, totals };
}

export interface EntryUsage {
  /** Windowed sessions that used the entry. */
  sessions: number;
  /** Latest use over the whole log, as written; undefined when never used. */
  lastUsed: string | undefined;
  injected: number;
  used: number;
}

/**
 * What the log says about one entry: its role-qualified key together with the
 * bare id older lines wrote (an entry without a role is matched by the bare id
 * only).
 */
export function entryUsage(index: RelevanceIndex, id: string, role?: string): EntryUsage {
  const keys = role === undefined ? [id] : [usageKey(role, id), id];
  const sessions = new Set<number>();
  let lastUsed: string | undefined;
  let lastMs = -Infinity;
  let injected = 0;
  let used = 0;
  for (const key of keys) {
    for (const s of index.usedIn.get(key) ?? []) sessions.add(s);
    const ts = index.lastUsed.get(key);
    const ms = ts === undefined ? Number.NaN : Date.parse(ts);
    if (ts !== undefined && ms > lastMs) {
      lastMs = ms;
      lastUsed = ts;
    }
    const t = index.totals.get(key);
    if (t) {
      injected += t.injected;
      used += t.used;
    }
  }
  return { sessions: sessions.size, lastUsed, injected, used };
}

/**
 * The events of sessions older than the last `keepSessions` that worked, folded
 * into one carried line per key and kind (totals and the latest use kept),
 * followed by the kept events. A session that has not worked is kept while it is
 * among the last `keepSessions` of all (it may still be running); older ones are
 * dropped, as they never counted. What compaction writes back: history shrinks,
 * no count is lost, and idle sessions never push working ones out.
 */
export function compactEvents(events: UsageEvent[], keepSessions: number): { events: UsageEvent[]; changed: boolean } {
  const sessions: string[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    if (isCarried(e) || seen.has(e.session)) continue;
    seen.add(e.session);
    sessions.push(e.session);
  }
  const size = Math.max(0, keepSessions);
  const worked = workingSessions(events);
  const keep = new Set(size === 0 ? [] : [...sessions.filter((s) => worked.has(s)).slice(-size), ...sessions.slice(-size)]);
  const folded = events.filter((e) => isCarried(e) || (!keep.has(e.session) && worked.has(e.session)));
  const dropped = events.some((e) => !isCarried(e) && !keep.has(e.session) && !worked.has(e.session));
  // Already compact: only carried lines outside the window, each one key in the current format.
  const compact = folded.every((e) => isCarried(e) && e.count !== undefined && e.ids.length === 1);
  if (compact && !dropped) return { events, changed: false };
  const carry = new Map<string, { ts: string; ms: number; count: number; event: UsageEventKind }>();
  for (const e of folded) {
    const ms = Date.parse(e.ts);
    for (const key of e.ids) {
      const k = `${e.event} ${key}`;
      const c = carry.get(k) ?? { ts: e.ts, ms: Number.isFinite(ms) ? ms : -Infinity, count: 0, event: e.event };
      c.count += e.count ?? 1;
      if (Number.isFinite(ms) && ms > c.ms) {
        c.ms = ms;
        c.ts = e.ts;
      }
      carry.set(k, c);
    }
  }
  const carried: UsageEvent[] = [...carry].map(([k, c]) => ({
    ts: c.ts,
    session: CARRIED_SESSION,
    event: c.event,
    ids: [k.slice(k.indexOf(' ') + 1)],
    count: c.count,
  }));
  return { events: [...carried, ...events.filter((e) => !isCarried(e) && keep.has(e.session))], changed: true };
}
