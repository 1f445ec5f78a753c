// Ranked keyword search over memory texts (entries, knowledge, archive logs,
// solutions). Pure: callers hand in the documents; this scores and snippets.
import { compareText } from '../text.ts';

export interface SearchDoc {
  /** Where it is, shown to the user: `reviewer/MEMORY.md#unused-imports`. */
  ref: string;
  kind: 'entry' | 'knowledge' | 'archive' | 'archive-log' | 'solution';
  title: string;
  text: string;
  /** Tie-breaker and small boost: newer first. */
  date?: string;
}

export interface SearchHit {
  ref: string;
  kind: SearchDoc['kind'];
  title: string;
  score: number;
  snippet: string;
  date?: string;
}

const KIND_WEIGHT: Record<SearchDoc['kind'], number> = { entry: 1.3, solution: 1.2, knowledge: 1.0, archive: 0.7, 'archive-log': 0.9 };

export function queryTerms(query: string): string[] {
  return [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}_-]+/u)
        .filter((t) => t.length >= 2),
    ),
  ];
}

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1 && n < 50; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function snippetOf(text: string, terms: string[], max = 160): string {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  let best = lines[0] ?? '';
  let bestHits = -1;
  for (const line of lines) {
    const lower = line.toLowerCase();
    const hits = terms.filter((t) => lower.includes(t)).length;
    if (hits > bestHits) {
      best = line;
      bestHits = hits;
    }
  }
  const flat = best.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Documents matching every term rank first; if none match all, any term counts. */
export function searchDocs(docs: SearchDoc[], query: string, limit = 10): SearchHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const scored = docs.map((d) => {
    const title = d.title.toLowerCase();
    const body = d.text.toLowerCase();
    let matched = 0;
    let raw = 0;
    for (const t of terms) {
      const inTitle = countOccurrences(title, t);
      const inBody = countOccurrences(body, t);
      if (inTitle + inBody > 0) matched++;
      raw += inTitle * 3 + Math.log2(1 + inBody);
    }
    // Short documents with the same hits are more on-topic than long ones.
    const lengthNorm = 1 / Math.sqrt(1 + body.length / 2000);
    return { d, matched, score: raw * KIND_WEIGHT[d.kind] * (0.5 + lengthNorm) };
  });
  const all = scored.filter((s) => s.matched === terms.length);
  const pool = all.length ? all : scored.filter((s) => s.matched > 0);
  return pool
    .sort((a, b) => b.score - a.score || compareText(b.d.date ?? '', a.d.date ?? '') || compareText(a.d.ref, b.d.ref))
    .slice(0, limit)
    .map(({ d, score }) => ({
      ref: d.ref,
      kind: d.kind,
      title: d.title,
      score: Math.round(score * 100) / 100,
      snippet: snippetOf(d.text, terms),
      ...(d.date ? { date: d.date } : {}),
    }));
}
