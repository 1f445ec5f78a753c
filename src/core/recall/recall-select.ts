// Prompt-time recall (SPEC §8 UserPromptSubmit): which of the ranked items
// clear the bar. Most prompts match nothing worth injecting, so the bar is
// about evidence, not rank. Each word of the prompt an item holds weighs by
// its rarity in the store — 1 for a word no other item has, (idf / idf of such
// a word)² for the rest, so a word half the items share weighs almost nothing —
// times how much of the item it is (BM25's saturation: about 1 for one
// mention in the body, about 1.6 for a word of the title). A word counts once,
// by its best term: itself, a camelCase part, the whole name it belongs to, or
// (at half weight) a synonym (core/recall/search-terms.ts, queryWords). An
// item is recalled when
//   1. it holds at least two different words of the prompt, each adding at
//      least WORD_FLOOR to it (a word many items hold, `src`, `add`, `run` —
//      in a store of a thousand items one held by about thirty — or one met in
//      passing in a long item adds less, counts for nothing and is no second word:
//      "unit tests for slugify in src/…" does not meet an entry about money in
//      minor units because both say `src`), and
//   2. the weighed sum reaches the bar: `threshold` (default 1.5: a word found
//      in this item alone, adding about 1, and others adding at least 0.75, as
//      rule 3 asks); EXACT_SHARE of it (0.6) when the item holds an exact name
//      of the prompt that little else has (a file name, a snake_case or dotted
//      name, an error code: EXACT_MIN), since a name is rarely typed by chance;
//   3. the match does not rest on one word: its words other than the strongest
//      add at least OTHERS_SHARE of the bar, unless it holds such an exact name.
//      A lesson is often named after the library it is about (`pino`, `bullmq`,
//      `kysely` in its title weigh almost a whole bar), and a question about
//      another use of that library shares the name and one word everything
//      about it says (`logs`, `jobs`): that is the library, not the lesson; and
//   4. it scores at least half of the best item that passed: a weak third
//      item does not ride along with two strong ones.
// A prompt that asks how to do something new ("bullmq: how do I cap a queue
// at 10 jobs/sec?", asksHowToNew), with no sign of trouble met, of the
// project's own things or of earlier work, asks for general knowledge: its bar
// is HOW_TO_FACTOR times higher, and a lesson about the library it names
// (about another use of it) does not clear it.
// Archive logs are looked at only for a prompt that says it continues earlier
// work ("what remains of…", "… again", "pick up where we left", "is … done
// yet", "did we ever…", "carry on with…") or names a
// file or an error; they are judged apart from lessons. For a prompt that
// continues earlier work they meet the lessons' bar and all that clears goes
// by score. For one that only names something, only a log holding the name
// counts (the store looks the name up before any other word of the logs),
// the bar is LOG_FACTOR times higher — a log is a long list of everything a
// session touched, so ordinary words meet in it by chance — and lessons come
// first, what was learnt before the log of the session that learnt it. Rarity is the store's own, so the threshold means the same in a
// store of 20 items and one of 2,000. The bar also rises with the length of
// the prompt (promptBar): each word of the prompt is one more chance for an
// unrelated item to hold it, so a pasted error log or a three-paragraph
// request must meet an item more fully than a one-line question — with the
// square root of its words past BAR_WORDS, since under the word floor a
// chance word adds little (a 32-word prompt meets twice the threshold, a
// 200-word paste five times). Pure and cheap: it runs on every
// prompt, before any stored text is read.
import { wordsOf } from './search-terms.ts';

/** An item ranked against the prompt (search-rank.ts with coverage off). */
export interface RankedItem {
  /** The rarity-weighed sum over the matched words, without priors (search-rank.ts, `weigh: 'rarity'`). */
  raw: number;
  /** Ranking score (raw × where the item lives). */
  score: number;
  /** Distinct prompt words it holds. */
  matched: number;
  /** What its best exact name of the prompt adds to raw (0 for none). */
  exact?: number;
  /** What its strongest word adds to raw. */
  top: number;
}

/** What a word must add to an item to count there at all (a word only that item has adds about 1). */
export const WORD_FLOOR = 0.3;
/** Items below this share of the best one's score are left out. */
export const RELATIVE_CUT = 0.5;
/** Distinct prompt words an item must hold. */
export const MIN_WORDS = 2;
/** An exact name of the prompt counts when it adds this much: found in few items, and more than in passing in a long one. */
export const EXACT_MIN = 0.5;
/** The share of the threshold an item holding such a name must reach. */
export const EXACT_SHARE = 0.6;
/** The share of the threshold an item's words other than its strongest must add (unless it holds such a name). */
export const OTHERS_SHARE = 0.5;
/** How much higher the bar is for an archive log, unless the prompt continues earlier work. */
export const LOG_FACTOR = 2;

/** How many times higher the bar is for a prompt that asks how to do something new (asksHowToNew). */
export const HOW_TO_FACTOR = 3;

/** Up to this many words, a prompt meets the threshold as it is; past it, the bar rises with the square root of its words. */
export const BAR_WORDS = 8;

/**
 * The bar for a prompt of `words` words (the groups of queryWords): the
 * threshold for a short prompt, and with the square root of its words past
 * BAR_WORDS — chance matches add up with every word a prompt has, each little.
 */
export function promptBar(threshold: number, words: number): number {
  return threshold * Math.sqrt(Math.max(1, words / BAR_WORDS));
}

/** The items that clear the bar, best first (rules 1–4 above). */
export function clearingItems<T extends RankedItem>(items: readonly T[], threshold: number): T[] {
  const clears = (i: T) => {
    if (i.matched < MIN_WORDS) return false;
    if ((i.exact ?? 0) >= EXACT_MIN) return i.raw >= threshold * EXACT_SHARE;
    return i.raw >= threshold && i.raw - i.top >= threshold * OTHERS_SHARE;
  };
  const passing = items.filter(clears);
  if (passing.length === 0) return [];
  const best = Math.max(...passing.map((i) => i.score));
  return passing.filter((i) => i.score >= best * RELATIVE_CUT).sort((a, b) => b.score - a.score);
}

/** Words by which a prompt says it goes on with earlier work (`again`, a stop word elsewhere, among them). */
const CONTINUATION = new Set(
  [
    'again still yet already remain remains remaining left continue continuing resume resuming finish unfinished pending leftover yesterday earlier previous previously',
    // The same said in Portuguese, Spanish, German, French and Russian (not French `hier`: German for "here").
    'novamente ainda continuar continua retomar falta faltam pendente ontem anterior',
    'todavía aún seguir sigue retomar pendiente ayer',
    'wieder weiter noch gestern fortsetzen übrig',
    'encore reprendre continuer',
    'снова опять ещё еще продолжи продолжим продолжай продолжить осталось вчера',
  ]
    .join(' ')
    .split(' '),
);

/**
 * Pairs of words by which a prompt asks about work done together before
 * ("did we…", "have we…", "carry on", "last time", "next step"): each word
 * alone is common, the pair is not.
 */
const CONTINUATION_PAIRS = new Set([
  'did we',
  'have we',
  'had we',
  'carry on',
  'last time',
  'next step',
  'next steps',
  'follow up',
  'de novo',
  'de nuevo',
  'otra vez',
  'última vez',
  'ещё раз',
  'еще раз',
]);

/** True when the prompt says it continues earlier work: archive logs then meet the lessons' bar. */
export function continuesEarlierWork(prompt: string): boolean {
  const words = wordsOf(prompt.slice(0, 4000)).map((w) => w.word.toLowerCase());
  return words.some((w, i) => CONTINUATION.has(w) || (i > 0 && CONTINUATION_PAIRS.has(`${words[i - 1]} ${w}`)));
}

// A question asking how to do something: "how do I cap a queue at 10 jobs/sec with bullmq?", "how to write a CTE
// in kysely", "what's the best way to …", and the same in the languages above (and Chinese); or one of comparison or
// choice ("what's the difference between …", "when would you use …", "which … should we use").
const HOW_TO =
  /\b(?:how (?:do|can|could|would|should|shall) (?:i|we|you|one|a|an)|how to|what'?s the (?:best |right )?way to|what'?s the difference between|when (?:would|should|do) (?:you|i|we) use|which [\w -]{1,40} should (?:i|we|you) use|what [\w -]{1,40} (?:should|would) (?:i|we|you|a|an) (?:[\w -]{0,30} )?use|what [\w -]{1,40} does [\w:.-]+ (?:give|guarantee|support)|(?:is|are) there (?:a|any) way to)\b|(?:^|[\s,.;:!¿])(?:como (?:(?:é que |eu )?(?:fa[çc]o|fazer|posso|consigo|configuro|crio|uso|escrevo|adiciono)|se faz)|c[oó]mo (?:hago|puedo|se hace|configuro|creo|uso|escribo|a[ñn]ado)|wie (?:kann|mache|erstelle|konfiguriere|schreibe) ich|comment (?:faire|puis-je|je peux|on fait)|как (?:сделать|мне|настроить|создать|написать|добавить))(?=[\s,.;:!?]|$)|怎么|怎麼|如何/iu;
// What ties a prompt to something that went wrong, or to the project's own things: memory may know that trouble or
// that thing ("how do I get a DB connection into my FastAPI route handler?", "… like we did for payouts").
const TROUBLE_OR_OWN =
  /(?<![\p{L}\p{N}])(?:errors?|exceptions?|warnings?|fail\p{L}*|broke\p{L}*|break\p{L}*|crash\p{L}*|wrong|twice|stuck|hang\p{L}*|slow\p{L}*|leak\p{L}*|why|issues?|bugs?|problems?|conflicts?|fix\p{L}*|debug\p{L}*|resolve|avoid|get around|work ?around|time(?:d|s)? ?out|timing out|flaky|doesn'?t|don'?t|isn'?t|won'?t|can'?t|cannot|unable|denied|not|never|missing|lost|duplicate\p{L}*|stop\p{L}*|before|like we did|as we did|same as|my|mine|our|ours|(?<!(?:^|[^\p{L}\p{N}])(?:should|would|could|shall) )we use|this (?:project|repo|app|codebase)|deploy\p{L}*|seed|erro|falh\p{L}*|quebr\p{L}*|problema|corrig\p{L}*|n[ãa]o|meu|minha|nosso|nossa|fallo|falla|no funciona|arregl\p{L}*|mi|mis|nuestr[oa]s?|fehler|kaputt|nicht|repar\p{L}*|mein\p{L}*|unser\p{L}*|erreur|ne|mon|ma|mes|notre|nos|ошибк\p{L}*|не|проблем\p{L}*|исправ\p{L}*|почин\p{L}*|мой|моя|мои|наш\p{L}*)(?![\p{L}\p{N}])|错误|錯誤|问题|問題|修复|修復|我的|我们的|我們的/iu;

// The same, named: an error code (`EADDRINUSE`, `ENOENT`), an HTTP status, or a file of the project's by its path
// (`packages/billing/src/api.ts`).
const NAMES_TROUBLE_OR_OWN = /\bE[A-Z]{3,}\b|\b[45]\d\d\b|(?:^|[\s(`'"])(?:\.{0,2}\/)?[\w@-][\w.@-]*\/[\w.@/-]*\.[A-Za-z]\w{0,4}\b/;

/**
 * The prompt asks how to do something new: a how-to question with nothing in it of trouble met, of the project's own
 * things or of earlier work. Its answer is general knowledge; memory holds it only when an item matches it strongly
 * (HOW_TO_FACTOR): a lesson about the library the question names is about another use of it.
 */
export function asksHowToNew(prompt: string): boolean {
  const text = prompt.slice(0, 4000);
  return HOW_TO.test(text) && !TROUBLE_OR_OWN.test(text) && !NAMES_TROUBLE_OR_OWN.test(text) && !continuesEarlierWork(text);
}

/**
 * The bar for archive logs for this prompt, and whether they rank with the
 * lessons (or after them); null when logs are not looked at — a prompt that
 * neither goes on with earlier work nor names a file or an error (most).
 */
export function logBar(prompt: string, threshold: number, namesSomething: boolean): { threshold: number; withLessons: boolean } | null {
  if (continuesEarlierWork(prompt)) return { threshold, withLessons: true };
  return namesSomething ? { threshold: threshold * LOG_FACTOR, withLessons: false } : null;
}
