// The names a prompt may name a file by (core/recall/file-recall.ts matches
// them against the worked-files ledger): every run of one to four words of one
// sentence, as a key of letters and digits in lower case (`landing-page`,
// `LandingPage` and "landing page" are one key). And a cheap test of whether
// the ledger's text holds any of them at all, so that most prompts stop before
// the ledger is parsed and the matching code is loaded. Pure and light: it
// runs on every prompt.
import { isStopWord, isWordCode, wordsOf } from './search-terms.ts';

/** A name shorter than this (letters and digits) is too common a word to stand for one file. */
export const MIN_NAME = 4;
/** A name is matched as at most this many words of the prompt ("user profile card"). */
const MAX_WORDS = 4;
/** Only this much of a prompt is read for names (a pasted log names files past it by their paths). */
const PROMPT_CHARS = 4000;

/** A name as it is compared: lower case, letters and digits only (`landing-page`, `LandingPage`, `landing page` alike). */
export function nameKey(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) if (isWordCode(name.charCodeAt(i))) out += name[i];
  return out.toLowerCase();
}

/** A key long enough, not a number and not a common word, to stand for a file. */
export const usable = (key: string) => key.length >= MIN_NAME && !/^\d+$/.test(key) && !isStopWord(key);

/** Han, kana and Hangul: written without spaces, so a name typed among them is cut from them. */
const UNSPACED = /([\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]+)/;
/** What may stand between two words of one name: a space, or the dots, dashes and slashes of a name written out. */
const JOINS = /^(?:[ \t]+|[-_./\\]{1,2})$/;

/**
 * Every run of one to MAX_WORDS words of the prompt that may be one name, as a name key (single common
 * words left out): words of one sentence, the slash command it opens with left out.
 */
export function promptNames(prompt: string): Set<string> {
  const text = prompt.slice(0, PROMPT_CHARS).replace(/^\s*\/\S+/, '');
  const words: Array<{ key: string; start: number; end: number }> = [];
  for (const w of wordsOf(text)) {
    let at = w.index;
    for (const part of w.word.split(UNSPACED)) {
      if (part !== '') words.push({ key: part.toLowerCase(), start: at, end: at + part.length });
      at += part.length;
    }
  }
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    if (isStopWord(words[i]!.key)) continue;
    let joined = '';
    for (let n = 0; n < MAX_WORDS && i + n < words.length; n++) {
      const w = words[i + n]!;
      if (n > 0 && !JOINS.test(text.slice(words[i + n - 1]!.end, w.start)) && w.start !== words[i + n - 1]!.end) break;
      joined += w.key;
      out.add(joined);
    }
  }
  return out;
}

/**
 * Every name the files at `paths` can be named by (a name, the name without extension, either after the
 * folder's name), space-separated: capture writes it beside the ledger, so that a prompt tests its own
 * names against it without parsing the ledger or going through its files.
 */
export function ledgerNames(paths: Iterable<string>): string {
  const out = new Set<string>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const base = nameKey(path.slice(slash + 1));
    const dot = path.lastIndexOf('.');
    const stem = dot > slash + 1 ? nameKey(path.slice(slash + 1, dot)) : base;
    const folder = slash > 0 ? nameKey(path.slice(path.lastIndexOf('/', slash - 1) + 1, slash)) : '';
    for (const key of [stem, base, folder + stem, folder + base]) if (usable(key)) out.add(key);
  }
  return ` ${[...out].join(' ')} `;
}

/** The names of a ledger read from its text as it is (a ledger written before the names were kept beside it). */
export function ledgerNamesOfText(ledgerText: string): string {
  // Its paths are the keys of the objects in its `files` (JSON.stringify writes `files` before `commands`);
  // its field names (`weight`, `last`) are not names.
  const from = ledgerText.indexOf('"files":{');
  if (from < 0) return ' ';
  const to = ledgerText.indexOf('"commands":{', from);
  const files = ledgerText.slice(from + '"files":{'.length, to < 0 ? undefined : to);
  return ledgerNames([...files.matchAll(/"((?:[^"\\]|\\.)*)":\{/g)].map((m) => m[1]!));
}

/** False when no name of the prompt (promptNames) is one of the ledger's names (ledgerNames): most prompts end here. */
export function mayName(named: ReadonlySet<string>, names: string): boolean {
  for (const key of named) if (usable(key) && names.includes(` ${key} `)) return true;
  return false;
}
