// Pruning decisions for a MEMORY.md over its line limit (SPEC §5). Pure: it
// returns a plan (which ids go to the archive, which to knowledge.md); the
// store backs the file up and applies the plan between sessions.
//
// Every step stops as soon as the file is within its limit, and the best
// lessons always stay: a file several times over its limit loses its lowest
// scores, never all of its lessons. Lessons are archived for lack of room
// only when lessons take the room: a file that is long because of what the
// user wrote (hand-written text, etched entries) keeps its new lessons. A
// captured lesson no session has been given yet leaves after those that
// sessions were given and did not use.

import { type EchoEntry, LAYER_MAX_AGE_DAYS } from '../entry/echo-entry.ts';
import { compareText } from '../text.ts';
import { type EntryScore, scoreEntries } from './echo-score.ts';
import { isWorn, relevanceIndex, type UsageEvent, usageKey } from './usage-events.ts';

export interface PruneInput {
  entries: Array<{ entry: EchoEntry; lines: number }>;
  /** Lines that are not entries: schema header, title, hand-written notes. */
  otherLines: number;
  maxLines: number;
  events: UsageEvent[];
  now: Date;
  window: number;
  /** The role of the file: usage is logged per role. */
  role?: string;
  /**
   * At most this many entries move (automatic pruning between sessions moves
   * a few at a time; the rest waits for the next session or for `prune`).
   * Unbounded when absent.
   */
  maxMoves?: number;
}

/** Why a file stays over its limit after the plan. */
export type OverReason =
  /** The plan is cut short by `maxMoves`; `deferred` entries wait. */
  | 'per-run-limit'
  /** Text that is not an entry fills the limit: lessons are not archived for lack of room. */
  | 'hand-written'
  /** Etched entries (with any hand-written text) fill the limit. */
  | 'etched'
  /** What is left are the best lessons, which always stay. */
  | 'best-lessons';

export interface PrunePlan {
  /** Ids to move to `archive/`, in the order they were chosen. */
  archive: string[];
  /** Traced ids to compress into knowledge.md, in the order they were chosen. */
  compress: string[];
  /** Id → one line saying why it was chosen. */
  reasons: Map<string, string>;
  linesAfter: number;
  /** Still over the limit after the plan. */
  overLimit: boolean;
  /** Why it stays over (null when it does not). */
  overReason: OverReason | null;
  /** Moves left out by `maxMoves`: what `prune` run by the user would do on top. */
  deferred: number;
  /** Lines that are not entries, and lines of etched entries: what the user wrote. */
  handWrittenLines: number;
  etchedLines: number;
}

/** Archive thresholds of the seed's rules. */
export const ARCHIVE_SCORE_BELOW = { inscribed: 0.3, traced: 0.2 } as const;
/** The best lessons filling this share of the limit are never pruned (at least the best one). */
export const LESSON_FLOOR_SHARE = 0.2;

interface Candidate {
  id: string;
  entry: EchoEntry;
  lines: number;
  score: EntryScore;
}

const fmt = (n: number): string => n.toFixed(2);

export function planPrune(input: PruneInput): PrunePlan {
  const etchedLines = input.entries.reduce((sum, e) => sum + (e.entry.layer === 'etched' ? e.lines : 0), 0);
  const total = input.otherLines + input.entries.reduce((sum, e) => sum + e.lines, 0);
  const plan: PrunePlan = {
    archive: [],
    compress: [],
    reasons: new Map(),
    linesAfter: total,
    overLimit: false,
    overReason: null,
    deferred: 0,
    handWrittenLines: input.otherLines,
    etchedLines,
  };
  if (total <= input.maxLines) return plan;

  const scores = scoreEntries(
    input.entries.map((e) => e.entry),
    input.events,
    input.now,
    input.window,
    input.role === undefined ? {} : { role: input.role },
  );
  // Etched entries are the user's: never removed automatically, whatever the pressure.
  const pool: Candidate[] = input.entries
    .map((e, i) => ({ id: e.entry.id, entry: e.entry, lines: e.lines, score: scores[i]! }))
    .filter((c) => c.entry.layer !== 'etched')
    .sort(byScoreThenId);

  const moves: Array<{ c: Candidate; to: 'archive' | 'compress'; reason: string }> = [];
  let lines = total;
  const over = () => lines > input.maxLines;
  const take = (c: Candidate, to: 'archive' | 'compress', reason: string): void => {
    moves.push({ c, to, reason });
    lines -= c.lines;
  };

  // 1. Superseded and retracted entries are dead weight: they go first, and
  //    to the archive even when traced (a retracted lesson is not knowledge).
  const dead = pool.filter((c) => c.entry.status !== undefined);
  for (const c of dead) if (over()) take(c, 'archive', `${c.entry.status}`);
  const lessons = pool.filter((c) => c.entry.status === undefined);

  // The floor: the best lessons filling a fifth of the limit (at least the
  // best one) are never pruned, so no amount of pressure empties a file.
  const kept = new Set<string>();
  let keptLines = 0;
  for (const c of [...lessons].reverse()) {
    if (kept.size > 0 && keptLines + c.lines > input.maxLines * LESSON_FLOOR_SHARE) break;
    kept.add(c.id);
    keptLines += c.lines;
  }
  const movable = lessons.filter((c) => !kept.has(c.id));

  // 2. The seed's age rules, lowest scores first.
  const taken = new Set<string>();
  for (const c of movable) {
    if (!over()) break;
    const reason = ruleReason(c);
    if (reason === null) continue;
    take(c, 'archive', reason);
    taken.add(c.id);
  }

  // 3. Still over: the lowest scores go one by one until the file fits, but
  //    only when lessons take the room. Text the user wrote is not a reason to
  //    archive a lesson: such a file keeps them and `status` says what to do.
  //    A captured lesson that has not had its chance yet (given fewer than WORN_AFTER times since it last
  //    mattered: new, or just met again) goes after those that had it and were not used, whatever their
  //    scores: a new lesson always scores lowest, and would otherwise leave before any session saw it.
  const fixed = input.otherLines + etchedLines;
  if (fixed < input.maxLines) {
    const totals = input.role === undefined ? null : relevanceIndex(input.events, input.window).totals;
    const unproven = (c: Candidate): number =>
      totals !== null && c.entry.captured !== undefined && !isWorn(totals.get(usageKey(input.role!, c.id))) ? 1 : 0;
    const rest = movable.filter((c) => !taken.has(c.id)).sort((a, b) => unproven(a) - unproven(b));
    for (const c of rest) {
      if (!over()) break;
      const to = c.entry.layer === 'traced' ? 'compress' : 'archive';
      // Where the entry ranks among all the lessons, in fifths: the seed's "bottom 20%".
      const bottom = Math.ceil(((lessons.indexOf(c) + 1) / lessons.length) * 5) * 20;
      take(c, to, `lowest score ${fmt(c.score.score)} (bottom ${bottom}%)`);
    }
  }

  const allowed = input.maxMoves === undefined ? moves.length : Math.max(0, Math.min(moves.length, input.maxMoves));
  for (const m of moves.slice(0, allowed)) {
    plan[m.to].push(m.c.id);
    plan.reasons.set(m.c.id, m.reason);
    plan.linesAfter -= m.c.lines;
  }
  plan.deferred = moves.length - allowed;
  plan.overLimit = plan.linesAfter > input.maxLines;
  if (plan.overLimit) {
    plan.overReason =
      plan.deferred > 0
        ? 'per-run-limit'
        : fixed >= input.maxLines
          ? input.otherLines >= etchedLines
            ? 'hand-written'
            : 'etched'
          : 'best-lessons';
  }
  return plan;
}

function ruleReason(c: Candidate): string | null {
  const { layer } = c.entry;
  const { score, unreferencedDays, ageDays } = c.score;
  // Unknown dates never make an entry "old": it can still go in step 3.
  if (
    layer === 'inscribed' &&
    score < ARCHIVE_SCORE_BELOW.inscribed &&
    unreferencedDays !== null &&
    unreferencedDays > LAYER_MAX_AGE_DAYS.inscribed
  ) {
    return `score ${fmt(score)} < ${ARCHIVE_SCORE_BELOW.inscribed} and unreferenced for ${unreferencedDays} days`;
  }
  if (layer === 'traced' && score < ARCHIVE_SCORE_BELOW.traced && ageDays !== null && ageDays > LAYER_MAX_AGE_DAYS.traced) {
    return `score ${fmt(score)} < ${ARCHIVE_SCORE_BELOW.traced} and ${ageDays} days old`;
  }
  return null;
}

function byScoreThenId(a: Candidate, b: Candidate): number {
  return a.score.score - b.score.score || compareText(a.id, b.id);
}
