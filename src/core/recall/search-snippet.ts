// The line of a hit that best shows why it matched, with the matching words
// marked, and its line number in the file. Words are compared as the index
// compares them (same tokenizer), so what is marked is what was found.

import { clip } from '../text.ts';
import { textTerms, wordsOf } from './search-terms.ts';

export interface Snippet {
  /** 1-based line in the file. */
  line: number;
  /** The line, cut around its first match, matches wrapped in ** **. */
  text: string;
}

const MAX = 200;

/** The best line of `text` (which starts at line `firstLine` of its file) for these query terms. */
export function snippetOf(text: string, firstLine: number, terms: readonly string[]): Snippet {
  const wanted = new Set(terms);
  const lines = text.split(/\r\n|\r|\n/);
  let bestIndex = -1;
  let bestCount = 0;
  for (let i = 0; i < lines.length; i++) {
    const found = new Set(textTerms(lines[i]!).filter((t) => wanted.has(t)));
    if (found.size > bestCount) {
      bestCount = found.size;
      bestIndex = i;
    }
  }
  if (bestIndex < 0)
    bestIndex = Math.max(
      0,
      lines.findIndex((l) => l.trim() !== ''),
    );
  return { line: firstLine + bestIndex, text: markLine(lines[bestIndex] ?? '', wanted) };
}

/** Marks the words of `line` whose terms are wanted; cuts a long line so its first match shows. */
export function markLine(line: string, wanted: ReadonlySet<string>): string {
  const flat = line.replace(/\s+/g, ' ').trim();
  let first = -1;
  const spans: Array<[number, number]> = [];
  for (const { word, index: at } of wordsOf(flat)) {
    if (textTerms(word).some((t) => wanted.has(t))) {
      if (first < 0) first = at;
      spans.push([at, at + word.length]);
    }
  }
  let start = 0;
  if (first > MAX / 2) start = flat.lastIndexOf(' ', first - 40) + 1;
  let out = '';
  let at = start;
  for (const [a, b] of spans) {
    if (a < start) continue;
    out += `${flat.slice(at, a)}**${flat.slice(a, b)}**`;
    at = b;
  }
  out += flat.slice(at);
  const body = clip(out, MAX + spans.length * 4);
  return `${start > 0 ? '…' : ''}${balanced(body)}`;
}

/** A cut inside a marked word would leave a dangling **: close it. */
function balanced(text: string): string {
  const marks = text.split('**').length - 1;
  return marks % 2 === 1 ? text.replace(/…$/, '**…') : text;
}
