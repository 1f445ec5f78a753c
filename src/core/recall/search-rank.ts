// Ranking: BM25 over the postings of the query's terms, times a prior for
// where a document comes from, times how many of the terms it matched. Pure:
// the store hands in segment views (postings looked up on demand) and gets
// the best documents back. The same function ranks the `search` command and
// prompt-time recall.

import type { Layer } from '../entry/echo-entry.ts';
import { type DocAttrs, type DocKind, type DocSource, kindOf, type Postings } from './search-segment.ts';

export interface SegmentView {
  attrs: DocAttrs;
  /** Role names; attrs.role(d) is 1 + an index here. */
  roles: readonly string[];
  deleted: ReadonlySet<number>;
  lookup(term: string): Postings | null;
}

export interface RankFilters {
  role?: string;
  layer?: Layer;
  kinds?: readonly DocKind[];
  /** Only documents from these places (prompt-time recall leaves archives out). */
  sources?: readonly DocSource[];
  /** Only documents dated on or after this day (days since 1970); undated ones are left out. */
  sinceDay?: number;
}

export interface RankOptions extends RankFilters {
  limit: number;
  /** Live documents and their summed weighted lengths, over every segment. */
  stats: { docs: number; totalLen: number };
  /**
   * false: rank by the words matched alone, without the share of the query's
   * words a document holds (a prompt is long and an entry short: prompt-time recall).
   */
  coverage?: boolean;
  /**
   * How a word weighs: `idf` (BM25), or `rarity` — its idf over the idf of a
   * word found in one document, squared: 1 for a word only this document has,
   * falling fast for words many documents share. Prompt-time recall weighs by
   * rarity, so a long prompt's common words cannot add up to a match.
   */
  weigh?: 'idf' | 'rarity';
  /**
   * The prompt's words, when terms come in groups (core/recall/search-terms.ts,
   * queryWords): the group of each term, its weight (a synonym weighs less than
   * the word typed), and whether it is an exact name (a file name, an error
   * code). A group counts once — its best term — toward the sum and `matched`.
   * Without it every term is a group of its own, of weight 1.
   */
  groups?: { of: readonly number[]; weight: readonly number[]; exact: readonly boolean[] };
  /** A word adding less than this to a document counts for nothing there, not even as a word matched. */
  floor?: number;
}

export interface RankedDoc {
  segment: number;
  doc: number;
  score: number;
  matched: number;
  /** The sum over the matched words alone (BM25, or rarity-weighed): no prior, no coverage. */
  raw: number;
  /** What the best exact name of the query it holds adds to `raw` (0 for none). */
  exact: number;
  /** What its strongest word adds to `raw`: the rest is what its other words add. */
  top: number;
}

const K1 = 1.2;
const B = 0.75;

/** How much a hit from each place is worth before its words are counted. */
export const SOURCE_PRIOR: Record<DocSource, number> = {
  memory: 1,
  solution: 1,
  knowledge: 0.9,
  topic: 0.9,
  ephemeral: 0.85,
  log: 0.75,
  archive: 0.6,
};
const LAYER_PRIOR: Record<Layer, number> = { etched: 1.1, inscribed: 1, traced: 0.95 };

export function rankDocuments(segments: readonly SegmentView[], terms: readonly string[], opts: RankOptions): RankedDoc[] {
  if (terms.length === 0 || opts.limit <= 0) return [];
  const lists = terms.map((t) => segments.map((s) => s.lookup(t)));
  const N = Math.max(1, opts.stats.docs);
  const avgLen = Math.max(1, opts.stats.totalLen / N);
  const idfOf = (df: number) => Math.log(1 + (N - df + 0.5) / (df + 0.5));
  const unique = idfOf(1);
  const idf = lists.map((perSeg) => {
    const df = perSeg.reduce((n, p) => n + (p?.ids.length ?? 0), 0);
    const w = idfOf(df);
    return opts.weigh === 'rarity' ? (Math.min(w, unique) / unique) ** 2 : w;
  });

  // The terms of each group, in order (without groups, a group per term).
  const groupTerms: number[][] = [];
  terms.forEach((_, t) => {
    const g = opts.groups?.of[t] ?? t;
    while (groupTerms.length <= g) groupTerms.push([]);
    groupTerms[g]!.push(t);
  });

  const floor = opts.floor ?? 0;
  const best: RankedDoc[] = [];
  segments.forEach((seg, s) => {
    const roleCode = opts.role === undefined ? -1 : seg.roles.indexOf(opts.role) + 1;
    if (opts.role !== undefined && roleCode === 0) return;
    const kinds = opts.kinds && opts.kinds.length > 0 ? new Set(opts.kinds) : null;
    const sources = opts.sources && opts.sources.length > 0 ? new Set(opts.sources) : null;
    const allowed = (d: number): boolean => {
      if (seg.deleted.has(d)) return false;
      if (roleCode > 0 && seg.attrs.role(d) !== roleCode) return false;
      if (opts.layer !== undefined && seg.attrs.layer(d) !== opts.layer) return false;
      if (kinds !== null && !kinds.has(kindOf(seg.attrs.source(d)))) return false;
      if (sources !== null && !sources.has(seg.attrs.source(d))) return false;
      if (opts.sinceDay !== undefined && seg.attrs.day(d) < opts.sinceDay) return false;
      return true;
    };
    // Dense arrays over the segment's documents: a common term has postings in a good share of them.
    const n = seg.attrs.count;
    const score = new Float64Array(n);
    const matched = new Uint8Array(n);
    const exact = new Float64Array(n);
    const inGroup = new Float64Array(n); // the best term of the group at hand, per document
    const top = new Float64Array(n); // what the strongest group adds, per document
    const verdict = new Int8Array(n); // 0 not yet asked, 1 allowed, -1 filtered out
    const touched: number[] = [];
    for (const members of groupTerms) {
      const hit: number[] = [];
      for (const t of members) {
        const p = lists[t]![s];
        if (!p) continue;
        const w = idf[t]! * (K1 + 1) * (opts.groups?.weight[t] ?? 1);
        if (!(w > 0)) continue;
        const isExact = opts.groups?.exact[t] === true;
        for (let i = 0; i < p.ids.length; i++) {
          const d = p.ids[i]!;
          if (d >= n) continue;
          if (verdict[d] === 0) verdict[d] = allowed(d) ? 1 : -1;
          if (verdict[d]! < 0) continue;
          const tf = p.tfs[i]!;
          const c = (w * tf) / (tf + K1 * (1 - B + (B * seg.attrs.len(d)) / avgLen));
          if (inGroup[d] === 0) hit.push(d);
          if (c > inGroup[d]!) inGroup[d] = c;
          if (isExact && c > exact[d]!) exact[d] = c;
        }
      }
      for (const d of hit) {
        if (inGroup[d]! < floor) {
          inGroup[d] = 0;
          continue;
        }
        if (matched[d] === 0) touched.push(d);
        score[d]! += inGroup[d]!;
        if (inGroup[d]! > top[d]!) top[d] = inGroup[d]!;
        matched[d]! += 1;
        inGroup[d] = 0;
      }
    }
    for (const d of touched) {
      const m = matched[d]!;
      const layer = seg.attrs.layer(d);
      // A document that has every word of the query beats one that repeats a single word.
      const coverage = opts.coverage === false ? 1 : (m / groupTerms.length) ** 2;
      const total = score[d]! * coverage * SOURCE_PRIOR[seg.attrs.source(d)] * (layer ? LAYER_PRIOR[layer] : 1);
      offer(best, { segment: s, doc: d, score: total, matched: m, raw: score[d]!, exact: exact[d]!, top: top[d]! }, opts.limit);
    }
  });
  return best.sort(byScore);
}

function byScore(a: RankedDoc, b: RankedDoc): number {
  return b.score - a.score || a.segment - b.segment || a.doc - b.doc;
}

/** Keeps the `limit` best seen so far (a small sorted list: limits are small). */
function offer(best: RankedDoc[], hit: RankedDoc, limit: number): void {
  if (best.length >= limit && byScore(hit, best[best.length - 1]!) >= 0) return;
  let i = best.length;
  while (i > 0 && byScore(hit, best[i - 1]!) < 0) i--;
  best.splice(i, 0, hit);
  if (best.length > limit) best.pop();
}
