// Prompt-time recall (SPEC §8 UserPromptSubmit): which of the ranked items
// clear the bar. Most prompts match nothing worth injecting, so the bar is
// about evidence, not rank. Each word of the prompt an item holds weighs by
// its rarity in the store — 1 for a word no other item has, (idf / idf of such
// a word)² for the rest, so a word half the items share weighs almost nothing —
// times how much of the item it is (BM25's saturation: about 1 for one
// mention in the body, about 1.6 for a word of the title). An item is recalled
// when
//   1. it holds at least two different words of the prompt, and
//   2. the weighed sum reaches `threshold` (default 2: as much as two words
//      found in this item and nowhere else), and
//   3. it scores at least half of the best item that passed: a weak third
//      item does not ride along with two strong ones.
// Rarity is the store's own, so the threshold means the same in a store of
// 20 items and one of 2,000. Pure and cheap: it runs on every prompt, before
// any stored text is read.

/** An item ranked against the prompt (search-rank.ts with coverage off). */
export interface RankedItem {
  /** The rarity-weighed sum over the matched words, without priors (search-rank.ts, `weigh: 'rarity'`). */
  raw: number;
  /** Ranking score (raw × where the item lives). */
  score: number;
  /** Distinct prompt words it holds. */
  matched: number;
}

/** Items below this share of the best one's score are left out. */
export const RELATIVE_CUT = 0.5;
/** Distinct prompt words an item must hold. */
export const MIN_WORDS = 2;

/** The items that clear the bar, best first (rules 1–3 above). */
export function clearingItems<T extends RankedItem>(items: readonly T[], threshold: number): T[] {
  const passing = items.filter((i) => i.matched >= MIN_WORDS && i.raw >= threshold);
  if (passing.length === 0) return [];
  const best = Math.max(...passing.map((i) => i.score));
  return passing.filter((i) => i.score >= best * RELATIVE_CUT).sort((a, b) => b.score - a.score);
}
