// The words search ranks by: one tokenizer for the index and the query, so a
// word is found exactly when it was indexed. Pure and linear: no regex built
// from user text, nothing that backtracks, bounded work for a huge query.

/** Common English words that say nothing about what a text is about. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from had has have he her his how i if in into is it its ' +
    'me my no nor not of on or our she so such than that the their them then there these they this those to too was we were what ' +
    'when where which while who whom why will with would you your about after again all also any because before both each few ' +
    'just more most only other own same should some very just ok please'
  ).split(' '),
);

// Words are found by a scan over character codes, not by Unicode property classes: \p{L} and
// \p{Script=…} make V8 build ICU tables, a quarter of a node start, and a hook pays that on
// every prompt. A character is part of a word when it is an ASCII letter or digit, or any other
// character outside the blocks of punctuation, symbols and spaces (so accented letters, Hangul,
// Cyrillic, Han all count); emoji and other astral characters do not.
export function isWordCode(c: number): boolean {
  if (c < 0x80) return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  if (c < 0xc0) return c === 0xaa || c === 0xb5 || c === 0xba; // Latin-1 punctuation and signs, but ª µ º
  if (c === 0xd7 || c === 0xf7) return false; // × ÷
  if (c >= 0x2000 && c <= 0x2bff) return false; // punctuation, super/subscripts, currency, arrows, maths, boxes, shapes, dingbats
  if (c >= 0x3000 && c <= 0x303f) return false; // CJK punctuation
  if (c >= 0xd800 && c <= 0xdfff) return false; // astral characters (emoji) as surrogate halves
  if (c >= 0xfe10 && c <= 0xfe6f) return false; // vertical and small forms
  if ((c >= 0xff00 && c <= 0xff0f) || (c >= 0xff1a && c <= 0xff20) || (c >= 0xff3b && c <= 0xff40) || c >= 0xff5b)
    return c >= 0xff66 && c <= 0xffdc; // fullwidth punctuation; halfwidth kana and Hangul are letters
  return c !== 0xfeff;
}

/** Han, Hiragana, Katakana and Thai are written without spaces between words: indexed as overlapping pairs. */
function isUnspacedCode(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x3040 && c <= 0x30ff) ||
    (c >= 0x0e00 && c <= 0x0e7f) ||
    (c >= 0xf900 && c <= 0xfaff)
  );
}

/** The words of a text (runs of word characters), each with where it starts. */
export function wordsOf(text: string): Array<{ word: string; index: number }> {
  const out: Array<{ word: string; index: number }> = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const inWord = i < text.length && isWordCode(text.charCodeAt(i));
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      out.push({ word: text.slice(start, i), index: start });
      start = -1;
    }
  }
  return out;
}

const ASCII_CAMEL = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const ASCII_ONLY = /^[A-Za-z0-9]+$/;

/** At most this many distinct terms of a query count: a pasted page still answers at once. */
export const MAX_QUERY_TERMS = 32;

/**
 * A light English stemmer: plurals, -ing, -ed, -ly. Conservative on purpose
 * (no Porter steps that merge unrelated words): "retries" → "retry",
 * "caching" → "cach", "imports" → "import", "class" stays.
 */
export function stem(word: string): string {
  const w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('sses')) return w.slice(0, -2);
  if (w.endsWith('ing') && w.length > 5) return undouble(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 4 && !w.endsWith('eed')) return undouble(w.slice(0, -2));
  if (w.endsWith('es') && /(?:ch|sh|x|z)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('ly') && w.length > 5) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

// "stopped" → "stopp" → "stop"; "fetching" keeps its "ch".
function undouble(w: string): string {
  const n = w.length;
  if (n >= 3 && w[n - 1] === w[n - 2] && !/[lsz]/.test(w[n - 1]!)) return w.slice(0, -1);
  if (w.endsWith('e') && n > 3) return w.slice(0, -1);
  return w;
}

/** A word as the index keeps it: stemmed, and folded so that "caches" meets "cache". */
export function foldStem(word: string): string {
  // "caches" and "cache" must meet, as must "retried" and "retry".
  const s = stem(word);
  return s.length > 3 && s.endsWith('e') ? s.slice(0, -1) : s.endsWith('i') && s.length > 3 ? `${s.slice(0, -1)}y` : s;
}

/** A word that is all lower case, or capitalised like the first word of a sentence: no camelCase parts. */
const PLAIN_WORD = /^[A-Z]?[a-z0-9]*$/;

/** camelCase and PascalCase parts of an ASCII identifier ("retryDelayMs" → retry, delay, ms). */
export function camelParts(word: string): string[] {
  // Most words have no parts: answered without the look-behind split (a prompt hook pays for compiling it).
  if (PLAIN_WORD.test(word) || !ASCII_ONLY.test(word) || word === word.toLowerCase()) return [];
  const parts = word.split(ASCII_CAMEL);
  return parts.length > 1 ? parts : [];
}

/**
 * Every indexable term of a text, in order, repeats kept (term frequency).
 * Words are lower-cased and stemmed; stop words and one-letter words go;
 * identifiers also give their camelCase parts; unspaced scripts (Chinese,
 * Japanese, Thai) give overlapping character pairs.
 */
export function textTerms(text: string, out: string[] = []): string[] {
  for (const { word } of wordsOf(text)) {
    // "Redis缓存失效" is a word and a run of characters: each part is read by its own script's rule.
    for (const raw of ASCII_ONLY.test(word) ? [word] : scriptRuns(word)) {
      if (isUnspacedCode(raw.charCodeAt(0))) {
        pushUnspaced(raw.toLowerCase(), out);
        continue;
      }
      for (const part of [raw, ...camelParts(raw)]) {
        const lower = part.toLowerCase();
        if (lower.length < 2 || lower.length > 64 || STOP_WORDS.has(lower)) continue;
        out.push(foldStem(lower));
      }
    }
  }
  return out;
}

/** A word cut where it changes between an unspaced script and any other. */
function scriptRuns(word: string): string[] {
  const runs: string[] = [];
  let start = 0;
  let unspaced = isUnspacedCode(word.charCodeAt(0));
  for (let i = 1; i < word.length; i++) {
    const u = isUnspacedCode(word.charCodeAt(i));
    if (u === unspaced) continue;
    runs.push(word.slice(start, i));
    start = i;
    unspaced = u;
  }
  runs.push(word.slice(start));
  return runs;
}

function pushUnspaced(word: string, out: string[]): void {
  const chars = [...word];
  if (chars.length === 1) out.push(word);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
}

// ASCII letters, digits and the joiners of names in code: `_`, `.`, `/` and `-`.
function isNameCode(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2d
  );
}

const COMPOUND = /^[a-z0-9]+(?:[._-][a-z0-9]+)*$/;

/**
 * Names the words alone would scatter, each kept whole as one more term: a
 * file's name (the last part of a path: `src/jobs/payout-report.ts` gives
 * `payout-report.ts`), a dotted name (`express.json`, `vi.usefaketimers`) and a
 * snake_case one (`notify_on_cmd_finish`, also inside a dotted one:
 * `merchants.legal_name` gives `legal_name` too). A prompt naming a file or an
 * error an earlier session dealt with meets it in one term that almost nothing
 * else holds; prose has few such names. Version numbers and addresses (no
 * letter) are none.
 */
export function compoundTerms(text: string, out: string[] = []): string[] {
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const inName = i < text.length && isNameCode(text.charCodeAt(i));
    if (inName && start < 0) start = i;
    else if (!inName && start >= 0) {
      pushCompound(text.slice(start, i), out);
      start = -1;
    }
  }
  return out;
}

function pushCompound(token: string, out: string[]): void {
  if (token.length < 4 || !(token.includes('.') || token.includes('_'))) return;
  const base = token.slice(token.lastIndexOf('/') + 1).toLowerCase();
  const name = base.replace(/^[._-]+|[._-]+$/g, '');
  if (name.length < 4 || name.length > 64 || !COMPOUND.test(name) || !/[a-z]/.test(name)) return;
  if (!(name.includes('.') || name.includes('_'))) return;
  // "e.g", "i.e": a joined name has a part of two characters at least.
  if (!name.split(/[._-]/).some((p) => p.length >= 3)) return;
  out.push(name);
  if (name.includes('.') && name.includes('_'))
    for (const part of name.split('.')) if (part.includes('_') && part.length >= 4) out.push(part);
}

/** The distinct terms of a query, first occurrence first (the names of compoundTerms before the words), at most MAX_QUERY_TERMS. */
export function queryTerms(query: string): string[] {
  const seen = new Set<string>();
  // A 10,000-character query is cut before tokenizing: the first terms are what the user typed first.
  const text = query.slice(0, 4000);
  for (const t of [...compoundTerms(text), ...textTerms(text)]) {
    seen.add(t);
    if (seen.size >= MAX_QUERY_TERMS) break;
  }
  return [...seen];
}

/** True for a word the tokenizer drops as too common to search for. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}
