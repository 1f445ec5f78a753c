// Files a prompt names (SPEC §8 UserPromptSubmit): "the landing page",
// "twin_service", "storage.go" — a file of the project earlier sessions worked
// on, named by its name without its folder, is given by its path, so the
// session opens it instead of searching for it. The files are those of the
// worked-files ledger (core/recall/worked-files.ts): every file a working
// session read or edited, the heaviest few hundred. A name is matched whole,
// as one word or as the words it is made of, in any case and spelling
// (`landing-page.tsx`, `LandingPage.tsx`, "landing page"); a name the
// project's files share (`index`, `route`, `SKILL`) is matched by its folder's
// name instead; a name of fewer than MIN_NAME letters, or a common word, is
// never matched. No model call, nothing read but the ledger. Pure.
import { isStopWord, wordsOf } from './search-terms.ts';
import { countsAsWorked, type WorkedFiles, weightAt } from './worked-files.ts';

/** Most files one prompt is given. */
export const MAX_FILES = 4;
/** A name shorter than this (letters and digits) is too common a word to stand for one file. */
export const MIN_NAME = 4;
/** A name that more than this many of the ledger's files share stands for none of them: their folder's name does. */
const SHARED = 2;
/** A name is matched as at most this many words of the prompt ("user profile card"). */
const MAX_WORDS = 4;

/** A name as it is compared: lower case, letters and digits only (`landing-page`, `LandingPage`, `landing page` alike). */
export function nameKey(name: string): string {
  let out = '';
  for (const { word } of wordsOf(name)) out += word.toLowerCase();
  return out;
}

/** A file's name without its folder and last extension (`landing-page.tsx` → `landing-page`; `.env` stays). */
function stemOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The folder a file is in, by its name (`src/app/api/chat/route.ts` → `chat`), or '' at the top. */
function folderOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 1 ? parts[parts.length - 2]! : '';
}

const usable = (key: string) => key.length >= MIN_NAME && !/^\d+$/.test(key) && !isStopWord(key);

/** Every run of one to MAX_WORDS words of the prompt, as a name key; single common words left out. */
export function promptNames(prompt: string): Set<string> {
  const words = wordsOf(prompt.slice(0, 4000)).map((w) => w.word.toLowerCase());
  const out = new Set<string>();
  for (let i = 0; i < words.length; i++) {
    let joined = '';
    for (let n = 0; n < MAX_WORDS && i + n < words.length; n++) {
      joined += words[i + n]!;
      if (n === 0 && isStopWord(joined)) break;
      out.add(joined);
    }
  }
  return out;
}

/**
 * The ledger's files the prompt names, heaviest first, at most MAX_FILES, less those it spells out
 * whole and those `held` (the session holds them already: its hand-off, its start's line of files, an
 * earlier prompt's).
 */
export function filesThePromptNames(prompt: string, ledger: WorkedFiles, held: (path: string) => boolean): string[] {
  const named = promptNames(prompt);
  if (named.size === 0) return [];
  const files = Object.entries(ledger.files).filter(([path]) => countsAsWorked(path));
  const count = (keys: readonly string[]) => {
    const n = new Map<string, number>();
    for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
    return n;
  };
  const stems = files.map(([path]) => nameKey(stemOf(path)));
  const byStem = count(stems);
  // A name many files share (`index`, `route`, `SKILL`) stands for the one whose folder the prompt names;
  // a folder's name many of those share too stands for none.
  const keys = files.map(([path], i) => ((byStem.get(stems[i]!) ?? 0) > SHARED ? nameKey(folderOf(path)) : stems[i]!));
  const byKey = count(keys);
  const hits: Array<{ path: string; weight: number }> = [];
  files.forEach(([path, f], i) => {
    const key = keys[i]!;
    // A path the prompt spells out tells the session nothing it does not hold.
    if (!usable(key) || (byKey.get(key) ?? 0) > SHARED || !named.has(key) || held(path) || prompt.includes(path)) return;
    hits.push({ path, weight: weightAt(f, ledger.seq) });
  });
  return hits
    .sort((a, b) => b.weight - a.weight || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MAX_FILES)
    .map((h) => h.path);
}
