// Pruning decisions for a MEMORY.md over its line limit (SPEC §5). Pure: it
// returns a plan (which ids go to the archive, which to knowledge.md); the
// store backs the file up and applies the plan between sessions.

import { type EchoEntry, LAYER_MAX_AGE_DAYS } from '../entry/echo-entry.ts';
import { type EntryScore, scoreEntries } from './echo-score.ts';
import type { UsageEvent } from './usage-events.ts';

export interface PruneInput {
  entries: Array<{ entry: EchoEntry; lines: number }>;
  /** Lines that are not entries: schema header, title, hand-written notes. */
  otherLines: number;
  maxLines: number;
  events: UsageEvent[];
  now: Date;
  window: number;
}

export interface PrunePlan {
  /** Ids to move to `archive/`, in the order they were chosen. */
  archive: string[];
  /** Traced ids to compress into knowledge.md, in the order they were chosen. */
  compress: string[];
  /** Id → one line saying why it was chosen. */
  reasons: Map<string, string>;
  linesAfter: number;
  /** Still over the limit: only etched entries (and other text) are left. */
  overLimit: boolean;
}

/** Archive thresholds of the seed's rules. */
export const ARCHIVE_SCORE_BELOW = { inscribed: 0.3, traced: 0.2 } as const;
/** Share of the remaining candidates removed per step when the rules were not enough. */
export const PRUNE_STEP_SHARE = 0.2;

interface Candidate {
  id: string;
  entry: EchoEntry;
  lines: number;
  score: EntryScore;
}

const fmt = (n: number): string => n.toFixed(2);

export function planPrune(input: PruneInput): PrunePlan {
  const total = input.otherLines + input.entries.reduce((sum, e) => sum + e.lines, 0);
  const plan: PrunePlan = { archive: [], compress: [], reasons: new Map(), linesAfter: total, overLimit: false };
  if (total <= input.maxLines) return plan;

  const scores = scoreEntries(
    input.entries.map((e) => e.entry),
    input.events,
    input.now,
    input.window,
  );
  // Etched entries are the user's: never removed automatically, whatever the pressure.
  let pool: Candidate[] = input.entries
    .map((e, i) => ({ id: e.entry.id, entry: e.entry, lines: e.lines, score: scores[i]! }))
    .filter((c) => c.entry.layer !== 'etched')
    .sort(byScoreThenId);

  const take = (c: Candidate, to: 'archive' | 'compress', reason: string): void => {
    plan[to].push(c.id);
    plan.reasons.set(c.id, reason);
    plan.linesAfter -= c.lines;
  };

  // 1. Superseded and retracted entries are dead weight: they go first, and
  //    to the archive even when traced (a retracted lesson is not knowledge).
  pool = pool.filter((c) => {
    if (c.entry.status === undefined) return true;
    take(c, 'archive', `${c.entry.status}`);
    return false;
  });

  // 2. The seed's age rules.
  pool = pool.filter((c) => {
    const reason = ruleReason(c);
    if (reason === null) return true;
    take(c, 'archive', reason);
    return false;
  });

  // 3. Still over: the lowest scores go, a fifth of the candidates at a time,
  //    so a slightly long file loses a few entries rather than half of them.
  const step = Math.max(1, Math.ceil(pool.length * PRUNE_STEP_SHARE));
  let round = 0;
  while (plan.linesAfter > input.maxLines && pool.length > 0) {
    round++;
    for (const c of pool.splice(0, step)) {
      const to = c.entry.layer === 'traced' ? 'compress' : 'archive';
      take(c, to, `lowest score ${fmt(c.score.score)} (bottom ${round * 20}%)`);
    }
  }

  plan.overLimit = plan.linesAfter > input.maxLines;
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
  return a.score.score - b.score.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
