// usage.jsonl (SPEC §13): an append-only log of which entries each session was
// given and used. Relevance is always recomputed from this log, never stored
// on the entries (seed 004: event-sourcing), so any process can rebuild it.

export type UsageEventKind = 'injected' | 'referenced';

export interface UsageEvent {
  ts: string;
  session: string;
  event: UsageEventKind;
  ids: string[];
  tokens?: number;
}

export interface UsageIssue {
  code: 'bad-json' | 'bad-event';
  line: number;
  message: string;
}

export interface RelevanceIndex {
  /** The sessions in the window, oldest first. */
  sessions: string[];
  /** Entry id → number of windowed sessions that injected or referenced it. */
  referencedBy: Map<string, number>;
  /** Entry id → latest timestamp (as written) of any event naming it, over the whole log. */
  lastReferenced: Map<string, string>;
}

export const DEFAULT_RELEVANCE_WINDOW = 20;

/**
 * Reads the log line by line. A bad line (a crash mid-append, a hand edit) is
 * reported and skipped; it never costs the events around it.
 */
export function parseUsageLog(text: string): { events: UsageEvent[]; issues: UsageIssue[] } {
  const events: UsageEvent[] = [];
  const issues: UsageIssue[] = [];
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
    events.push(toEvent(value as Record<string, unknown>));
  }
  return { events, issues };
}

function checkEvent(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const v = value as Record<string, unknown>;
  if (typeof v.ts !== 'string' || v.ts === '') return 'missing "ts"';
  if (typeof v.session !== 'string' || v.session === '') return 'missing "session"';
  if (v.event !== 'injected' && v.event !== 'referenced') return '"event" must be injected or referenced';
  if (!Array.isArray(v.ids) || !v.ids.every((id) => typeof id === 'string')) return '"ids" must be a list of strings';
  if (v.tokens !== undefined && !(typeof v.tokens === 'number' && Number.isFinite(v.tokens) && v.tokens >= 0)) {
    return '"tokens" must be a non-negative number';
  }
  return null;
}

// Copies only the known fields so unknown keys from newer writers do not leak
// into values that are later re-serialised.
function toEvent(v: Record<string, unknown>): UsageEvent {
  const event: UsageEvent = {
    ts: v.ts as string,
    session: v.session as string,
    event: v.event as UsageEventKind,
    ids: [...(v.ids as string[])],
  };
  if (typeof v.tokens === 'number') event.tokens = v.tokens;
  return event;
}

/** One JSONL line with a fixed key order, ready to append. */
export function formatUsageEvent(e: UsageEvent): string {
  const out: Record<string, unknown> = { ts: e.ts, session: e.session, event: e.event, ids: e.ids };
  if (e.tokens !== undefined) out.tokens = e.tokens;
  return `${JSON.stringify(out)}\n`;
}

/**
 * Relevance over the last `window` distinct sessions. Sessions are ordered by
 * their earliest valid timestamp, falling back to the order in which they first
 * appear: concurrent sessions interleave their appends, so file order alone
 * would misplace a long session. An entry counts once per session whether it
 * was injected, referenced, or both.
 */
export function relevanceIndex(events: UsageEvent[], window = DEFAULT_RELEVANCE_WINDOW): RelevanceIndex {
  const firstSeen = new Map<string, number>();
  const startMs = new Map<string, number>();
  const idsBySession = new Map<string, Set<string>>();
  const lastMs = new Map<string, number>();
  const lastReferenced = new Map<string, string>();

  events.forEach((e, index) => {
    if (!firstSeen.has(e.session)) firstSeen.set(e.session, index);
    const ms = Date.parse(e.ts);
    if (Number.isFinite(ms)) {
      const prev = startMs.get(e.session);
      if (prev === undefined || ms < prev) startMs.set(e.session, ms);
    }
    let ids = idsBySession.get(e.session);
    if (ids === undefined) {
      ids = new Set();
      idsBySession.set(e.session, ids);
    }
    for (const id of e.ids) {
      ids.add(id);
      if (Number.isFinite(ms) && ms > (lastMs.get(id) ?? -Infinity)) {
        lastMs.set(id, ms);
        lastReferenced.set(id, e.ts);
      }
    }
  });

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
  const referencedBy = new Map<string, number>();
  for (const s of sessions) {
    for (const id of idsBySession.get(s) ?? []) referencedBy.set(id, (referencedBy.get(id) ?? 0) + 1);
  }
  return { sessions, referencedBy, lastReferenced };
}
