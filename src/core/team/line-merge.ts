// Three-way comparison of item sequences (diff3), the text half of the merge
// driver: entry-merge.ts lines up the hand-written lines and the places of the
// entries of a common ancestor and two descendants with it, and decides each
// region itself. Items are compared by a string key.

/** A region of the three sequences: stable where both sides kept the ancestor's items, else changed. */
export interface Diff3Region {
  stable: boolean;
  /** Half-open index ranges in the ancestor (o), ours (a) and theirs (b). */
  o: [number, number];
  a: [number, number];
  b: [number, number];
}

/**
 * Beyond this many cells the quadratic table is not built: the middle (after
 * the common head and tail are set aside) is then one changed region. Memory
 * files are bounded (150 and 300 lines), and archives only grow at their end,
 * so real merges stay far below it.
 */
const MAX_TABLE_CELLS = 4_000_000;

/** Index pairs of a longest common subsequence of `a` and `b`, increasing in both. */
export function matchItems(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const pairs: Array<[number, number]> = [];
  for (let k = 0; k < head; k++) pairs.push([k, k]);
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= MAX_TABLE_CELLS) {
    // lengths[i][j]: LCS length of a[head+i..] and b[head+j..], in one flat table.
    const width = m + 1;
    const lengths = new Uint32Array((n + 1) * width);
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lengths[i * width + j] =
          a[head + i] === b[head + j]
            ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
      }
    }
    for (let i = 0, j = 0; i < n && j < m; ) {
      if (a[head + i] === b[head + j]) {
        pairs.push([head + i, head + j]);
        i++;
        j++;
      } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) i++;
      else j++;
    }
  }
  for (let k = tail; k > 0; k--) pairs.push([a.length - k, b.length - k]);
  return pairs;
}

/**
 * Cuts three sequences into regions: an ancestor item kept by both sides is
 * stable; everything between two stable items is one changed region (which
 * side changed what is for the caller to judge).
 */
export function diff3Regions(o: readonly string[], a: readonly string[], b: readonly string[]): Diff3Region[] {
  const inA = new Map(matchItems(o, a));
  const inB = new Map(matchItems(o, b));
  const regions: Diff3Region[] = [];
  let io = 0;
  let ia = 0;
  let ib = 0;
  const changed = (oe: number, ae: number, be: number) => {
    if (oe > io || ae > ia || be > ib) regions.push({ stable: false, o: [io, oe], a: [ia, ae], b: [ib, be] });
  };
  for (let oi = 0; oi < o.length; oi++) {
    const ai = inA.get(oi);
    const bi = inB.get(oi);
    if (ai === undefined || bi === undefined) continue;
    changed(oi, ai, bi);
    const last = regions[regions.length - 1];
    if (last?.stable && last.o[1] === oi && last.a[1] === ai && last.b[1] === bi) {
      last.o[1]++;
      last.a[1]++;
      last.b[1]++;
    } else regions.push({ stable: true, o: [oi, oi + 1], a: [ai, ai + 1], b: [bi, bi + 1] });
    io = oi + 1;
    ia = ai + 1;
    ib = bi + 1;
  }
  changed(o.length, a.length, b.length);
  return regions;
}
