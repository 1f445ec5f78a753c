// The bounded pool of candidate decisions a summary chooses from. Candidates
// arrive while the transcript streams; only the best few are kept in memory,
// and the final pick spreads over different kinds of statement.

import { dedupeKey } from './summary-text.ts';

export interface Candidate {
  text: string;
  key: string;
  score: number;
  /** Arrival order: the summary lists decisions in the order they happened. */
  seq: number;
  /** The cue phrase that made a sentence a candidate: repeats of one cue are spread out. */
  cue: string;
}

// Bigger than the output cap so ranking has room; small enough to stay cheap.
const POOL_CAP = 60;

/** What the session's last word adds to its score: where the work ended matters most. */
export const LAST_WORD = 2;

export class CandidatePool {
  readonly items: Candidate[] = [];

  /** Adds a candidate (or raises the score of the same statement seen before). */
  add(text: string, score: number, seq: number, cue = ''): Candidate | null {
    const key = dedupeKey(text);
    if (!key) return null;
    const existing = this.items.find((c) => c.key === key);
    if (existing) {
      existing.score = Math.max(existing.score, score);
      return existing;
    }
    const cand: Candidate = { text, key, score, seq, cue };
    this.items.push(cand);
    if (this.items.length > POOL_CAP) {
      let worst = 0;
      for (let i = 1; i < this.items.length; i++) {
        const c = this.items[i]!;
        const w = this.items[worst]!;
        if (c.score < w.score || (c.score === w.score && c.seq < w.seq)) worst = i;
      }
      this.items.splice(worst, 1);
    }
    return cand;
  }

  remove(cand: Candidate | null): void {
    const i = cand ? this.items.indexOf(cand) : -1;
    if (i >= 0) this.items.splice(i, 1);
  }
}

function flat(c: Candidate): string {
  return c.text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * Best-scored first, but each pick costs the others that open with the same
 * words, or rest on the same cue phrase, a point: five "The issue is that …"
 * guesses from one debugging loop should not crowd out everything else.
 * Ties go to the later candidate. Returned in arrival order.
 */
export function pickDiverse(candidates: readonly Candidate[], max: number): Candidate[] {
  const used = new Map<string, number>();
  const opener = (c: Candidate): string => c.key.split(' ').slice(0, 3).join(' ');
  const groups = (c: Candidate): string[] => (c.cue ? [opener(c), `cue:${c.cue}`] : [opener(c)]);
  const penalty = (c: Candidate): number => groups(c).reduce((sum, g) => sum + (used.get(g) ?? 0), 0);
  const left = [...candidates];
  const out: Candidate[] = [];
  while (out.length < max && left.length > 0) {
    let best = 0;
    let bestScore = -Infinity;
    for (let i = 0; i < left.length; i++) {
      const c = left[i]!;
      const eff = c.score - penalty(c);
      if (eff > bestScore || (eff === bestScore && c.seq > left[best]!.seq)) {
        best = i;
        bestScore = eff;
      }
    }
    const pick = left.splice(best, 1)[0]!;
    // A cue sentence that the turn's wrap-up repeats word for word adds nothing.
    if (out.some((o) => flat(o).includes(flat(pick)) || flat(pick).includes(flat(o)))) continue;
    out.push(pick);
    for (const g of groups(pick)) used.set(g, (used.get(g) ?? 0) + 1);
  }
  return out.sort((a, b) => a.seq - b.seq);
}
