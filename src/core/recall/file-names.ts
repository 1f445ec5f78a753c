// The names by which a prompt names a file of the worked-files ledger, one
// definition for both sides: what a file can be named by (its keys, written by
// capture beside the ledger as the names file), and what a prompt says (every
// run of one to four words of one sentence). A key is letters and digits in
// lower case, so `landing-page`, `LandingPage` and "landing page" are one key.
// A file can be named by
//   - its whole name as written with a dot before its extension (`server.go`,
//     `DESIGN.md`; not "the server go down"): a key marked with a leading `.`;
//   - its name without extension when that name is two words or more
//     (`twin_service`, "landing page", `PLXPPollingManager`): one word alone
//     (`settings`, `design`) is a word of the prompt, not a file;
//   - for a name more than two of the files share (`index`, `route`, `SKILL`),
//     its folder's name and then its own ("the chat route", `chat/route.ts`),
//     when no more than two files have that folder and name.
// A key of fewer than MIN_NAME letters, a number or a common word never counts.
// The test of a prompt against the names file is cheap: most prompts end there,
// before the ledger is parsed and the matching (core/recall/file-recall.ts) is
// loaded. Pure and light: it runs on every prompt.
import { isStopWord, isWordCode, wordsOf } from './search-terms.ts';

/** A name shorter than this (letters and digits) is too common a word to stand for one file. */
export const MIN_NAME = 4;
/** A name that more than this many of the ledger's files share stands for none of them: their folder's name and it do. */
const SHARED = 2;
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

const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * A name made of two words or more: `twin_service`, `landing-page`, `LandingPage`, `v2-notes`. Read by
 * character codes, not Unicode property classes (those make V8 build tables a hook pays for on every prompt).
 */
export function severalWords(name: string): boolean {
  const words = wordsOf(name);
  if (words.length >= 2) return true;
  const w = words[0]?.word ?? '';
  for (let i = 1; i < w.length; i++) {
    const a = w.charCodeAt(i - 1);
    const b = w.charCodeAt(i);
    if ((isLower(a) && isUpper(b)) || ((isLower(a) || isUpper(a)) && isDigit(b))) return true;
  }
  return false;
}

/** What a prompt says that may name a file: every run of words (`plain`), and those written with a dot last (`dotted`). */
export interface PromptNames {
  plain: Set<string>;
  /** Runs whose last two words a dot joins, as a file's name and extension are written (`server.go`). */
  dotted: Set<string>;
}

/** Han, kana and Hangul: written without spaces, so a name typed among them is cut from them. */
const UNSPACED = /([\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]+)/;
/** What may stand between two words of one name: a space, or the dots, dashes and slashes of a name written out. */
const JOINS = /^(?:[ \t]+|[-_./\\]{1,2})$/;
/** The slash command a prompt opens with (`/review-pr 12`): Claude Code expands it itself. */
const SLASH_COMMAND = /^\s*\/[\w:-]+(?=\s|$)/;

/**
 * Every run of one to MAX_WORDS words of one sentence of the prompt, as a key; a run starting with a
 * common word only when a dash, dot or underscore joins it to the next (`with_auth`, `about-page.tsx`).
 */
export function promptNames(prompt: string): PromptNames {
  const text = prompt.slice(0, PROMPT_CHARS).replace(SLASH_COMMAND, '');
  const words: Array<{ key: string; start: number; end: number }> = [];
  for (const w of wordsOf(text)) {
    let at = w.index;
    for (const part of w.word.split(UNSPACED)) {
      if (part !== '') words.push({ key: part.toLowerCase(), start: at, end: at + part.length });
      at += part.length;
    }
  }
  // What stands between each word and the next: null where no name goes on (punctuation, a line break).
  const gaps = words.map((w, i) => {
    const next = words[i + 1];
    if (!next) return null;
    const gap = text.slice(w.end, next.start);
    return gap === '' || JOINS.test(gap) ? gap : null;
  });
  const out: PromptNames = { plain: new Set(), dotted: new Set() };
  for (let i = 0; i < words.length; i++) {
    if (isStopWord(words[i]!.key) && !/^[-_.]/.test(gaps[i] ?? ' ')) continue;
    let joined = words[i]!.key;
    out.plain.add(joined);
    for (let n = 1; n < MAX_WORDS && i + n < words.length; n++) {
      const gap = gaps[i + n - 1];
      if (gap === null || gap === undefined) break;
      joined += words[i + n]!.key;
      out.plain.add(joined);
      if (gap.includes('.')) out.dotted.add(joined);
    }
  }
  return out;
}

/** True when the prompt says `key` (a file's key, `.`-marked when it must be written with a dot). */
export function says(named: PromptNames, key: string): boolean {
  return key.startsWith('.') ? named.dotted.has(key.slice(1)) : named.plain.has(key);
}

/** A file's name without its folder (`landing-page.tsx`), and that without its last extension (`landing-page`; `.env` stays). */
export function namesOf(path: string): { base: string; stem: string; folder: string } {
  const slash = path.lastIndexOf('/');
  const base = path.slice(slash + 1);
  const dot = base.lastIndexOf('.');
  const folder = slash > 0 ? path.slice(path.lastIndexOf('/', slash - 1) + 1, slash) : '';
  return { base, stem: dot > 0 ? base.slice(0, dot) : base, folder };
}

/** The keys each file can be named by (see the top of this file), by path; a file with none is left out. */
export function fileKeys(paths: readonly string[]): Map<string, string[]> {
  const files = paths.map((path) => {
    const { base, stem, folder } = namesOf(path);
    return { path, base: nameKey(base), stem: nameKey(stem), folder: nameKey(folder), stemName: stem, extension: base !== stem };
  });
  const count = (keys: readonly string[]) => {
    const n = new Map<string, number>();
    for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
    return n;
  };
  const byStem = count(files.map((f) => f.stem));
  const byFolder = count(files.map((f) => `${f.folder}/${f.stem}`));
  const out = new Map<string, string[]>();
  for (const f of files) {
    const keys: string[] = [];
    if ((byStem.get(f.stem) ?? 0) > SHARED) {
      if ((byFolder.get(`${f.folder}/${f.stem}`) ?? 0) <= SHARED && usable(f.folder)) {
        keys.push(f.folder + f.stem);
        if (f.extension) keys.push(`.${f.folder}${f.base}`);
      }
    } else {
      if (f.extension && usable(f.base)) keys.push(`.${f.base}`);
      if (usable(f.stem) && severalWords(f.stemName)) keys.push(f.stem);
    }
    if (keys.length > 0) out.set(f.path, keys);
  }
  return out;
}

/**
 * The names file: a line for each key a file at `paths` can be named by, the key and the path with a tab
 * between (written by capture beside the ledger, of the files that count as work: no control character in them).
 */
export function ledgerNames(paths: readonly string[]): string {
  const lines: string[] = [];
  for (const [path, keys] of fileKeys(paths)) for (const key of keys) lines.push(`${key}\t${path}`);
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/**
 * False when the prompt says none of the names file's keys (ledgerNames), or only those of paths it spells
 * out whole: most prompts end here, before the ledger is parsed.
 */
export function mayName(named: PromptNames, names: string, prompt: string): boolean {
  if (named.plain.size === 0) return false;
  for (const line of names.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0 && says(named, line.slice(0, tab)) && !holdsPath(prompt, line.slice(tab + 1))) return true;
  }
  return false;
}

/**
 * True when `text` holds `path` whole, not as a piece of a longer name (`app-settings.js` in
 * `app-settings.json`); spelled with backslashes or in another case (a Windows drive letter) too.
 */
export function holdsPath(text: string, path: string): boolean {
  if (path === '') return false;
  const hay = text.replace(/\\/g, '/').toLowerCase();
  const needle = path.replace(/\\/g, '/').toLowerCase();
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    const before = hay[i - 1] ?? ' ';
    const after = hay[i + needle.length] ?? ' ';
    const next = hay[i + needle.length + 1] ?? ' ';
    if (/[\w.-]/.test(before) && before !== '/') continue;
    if (/[\w/-]/.test(after) || (after === '.' && /\w/.test(next))) continue;
    return true;
  }
  return false;
}
