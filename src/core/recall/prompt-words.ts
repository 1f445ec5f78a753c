// The words of a prompt as prompt-time recall weighs them
// (core/recall/recall-select.ts): in groups, one per word or name the user
// typed, so that a word counts once however many of its forms an item holds —
// the word, its camelCase parts, the whole name it is part of, or a synonym
// from a short general table (at half weight). Exact names (a file, dotted or
// snake_case name, a long camelCase identifier, an error code) are marked: an
// item holding one needs less. A file's extension is not a word, and an
// absolute path or a URL counts by its last two parts. Pure and cheap: it
// runs on every prompt.
import { camelParts, compoundTerms, foldStem, isWordCode, MAX_QUERY_TERMS, textTerms, wordsOf } from './search-terms.ts';

/**
 * Words programmers use for one thing (abbreviations, tool families, type
 * names): a prompt saying one finds memory that says another, weighed less
 * than the word typed (SYNONYM_WEIGHT). General on purpose — nothing here
 * names a project's own vocabulary — and short, since each adds a lookup to
 * every prompt that uses it.
 */
const SYNONYM_SETS: readonly string[] = [
  'db database',
  'repo repository',
  'config configuration settings',
  'env environment',
  'auth authentication login',
  'deps dependencies',
  'prod production',
  'k8s kubernetes',
  'ci pipeline',
  'timestamp datetime',
  'cron scheduler',
  'email mail',
  'test spec',
  'flaky intermittent',
  'credentials secrets password',
  'logger log',
  'delete remove',
  'dir directory folder',
  'docs documentation',
  'msg message',
  'err error exception',
  'arg argument param parameter',
  'impl implementation',
  'async asynchronous',
  'job task',
  'endpoint route',
  'deploy deployment rollout',
  'upgrade bump',
  'hang hung freeze stuck',
  'oom heap',
  'ui frontend',
  'column field',
  'mock stub fake',
  'lint linter',
  'npm pnpm yarn',
  'container docker',
  'int integer',
  'str string',
  'bool boolean',
  'float double',
  'webhook callback',
  'bug defect',
  'swagger openapi',
  'throttle ratelimit',
];

/** A synonym's weight against the word the prompt used. */
export const SYNONYM_WEIGHT = 0.5;

let synonyms: Map<string, string[]> | null = null;

function synonymsOf(term: string): readonly string[] {
  if (synonyms === null) {
    synonyms = new Map();
    for (const set of SYNONYM_SETS) {
      const stems = set.split(' ').map((w) => foldStem(w));
      for (const s of stems) synonyms.set(s, [...(synonyms.get(s) ?? []), ...stems.filter((o) => o !== s)]);
    }
  }
  return synonyms.get(term) ?? [];
}

/** A prompt's terms in groups, one group per word or name as typed (rankDocuments' `groups`). */
export interface QueryWords {
  terms: string[];
  /** The group of each term. */
  of: number[];
  /** 1 for a term of the prompt, SYNONYM_WEIGHT for a synonym. */
  weight: number[];
  /** True for an exact name: a whole file, dotted or snake_case name, an identifier in camelCase or capitals. */
  exact: boolean[];
}

/** The extension of a file's name at the end of a name: a dot, then a letter and up to five letters or digits. */
const FILE_EXTENSION = /[A-Za-z0-9_-]\.([A-Za-z][A-Za-z0-9]{0,5})[.,:;!?)'"]*$/;

/**
 * An absolute path or a URL (`/Users/me/work/app/docs/plan.md`,
 * `file:///…`, `https://host/…`) by its last two parts: the folders above
 * them say where the project lives on a machine — every file of the
 * project shares them — not what the prompt is about, and a pasted path
 * would spend the prompt's terms on them.
 */
function locallyNamed(chunk: string): string {
  if (chunk.charCodeAt(0) !== 0x2f) return chunk;
  const parts = chunk.split('/').filter((p) => p.length > 0);
  return parts.length > 2 ? parts.slice(-2).join('/') : chunk;
}

/** Long capitals (`ECONNREFUSED`, `ENOENT` is too short to be sure): an error code, not a word. */
const CAPITALS_CODE = /^[A-Z][A-Z0-9]{5,}$/;

/** A name, not a word: camelCase of three parts or more (`JWTAuthClient`, `PaymentNotFoundError`; `JavaScript` is a word), or an error code. */
function isIdentifierWord(word: string): boolean {
  return CAPITALS_CODE.test(word) || camelParts(word).length >= 3;
}

/**
 * The terms of a prompt for prompt-time recall, grouped: a word with its
 * camelCase parts and synonyms, or a name joined by `.`, `_`, `/` or `-` with
 * every word inside it, is one group, which counts once however many of its
 * terms an item holds. At most MAX_QUERY_TERMS terms of the prompt, and as many
 * synonyms again at most.
 */
export function queryWords(query: string): QueryWords {
  const out: QueryWords = { terms: [], of: [], weight: [], exact: [] };
  const seen = new Set<string>();
  const text = query.slice(0, 4000);
  let group = 0;
  let typed = 0;
  let added = 0;
  const add = (term: string, weight: number, exact: boolean): void => {
    if (seen.has(term)) return;
    seen.add(term);
    out.terms.push(term);
    out.of.push(group);
    out.weight.push(weight);
    out.exact.push(exact);
    added++;
  };
  let start = -1;
  for (let i = 0; i <= text.length && typed < MAX_QUERY_TERMS; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20;
    const inChunk = i < text.length && (isWordCode(c) || c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2d);
    if (inChunk) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    const chunk = locallyNamed(text.slice(start, i));
    start = -1;
    added = 0;
    const names = compoundTerms(chunk);
    for (const name of names) add(name, 1, true);
    const words = textTerms(chunk);
    // A file's extension says what kind of file it is, not what it is about: `text.ts` is found by its name, never by `ts`.
    const ext = names.length > 0 ? FILE_EXTENSION.exec(chunk) : null;
    if (ext !== null && words[words.length - 1] === foldStem(ext[1]!.toLowerCase())) words.pop();
    const whole = wordsOf(chunk).filter((w) => isIdentifierWord(w.word));
    const exactWords = new Set(whole.map((w) => foldStem(w.word.toLowerCase())));
    for (const t of words) add(t, 1, exactWords.has(t));
    typed += added;
    for (const t of words) for (const s of synonymsOf(t)) add(s, SYNONYM_WEIGHT, false);
    if (added > 0) group++;
  }
  return out;
}
