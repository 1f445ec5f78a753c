// Files a prompt names (SPEC §8 UserPromptSubmit): "the landing page",
// "twin_service", "storage.go" — a file of the project earlier sessions worked
// on, named by its name without its folder, is given by its path, so the
// session opens it instead of searching for it. The files are those of the
// worked-files ledger (core/recall/worked-files.ts): every file a working
// session read or edited, the heaviest few hundred. What counts as naming a
// file, in any case and spelling (`landing-page.tsx`, `LandingPage.tsx`,
// "landing page"), in words of one sentence (never across a full stop):
//   - its whole name with its extension (`storage.go`, `DESIGN.md`, "providers.ts");
//   - its name without extension when that name is made of two words or more
//     (`twin_service`, "landing page", `PLXPPollingManager`): one word alone
//     (`settings`, `design`, `products`) is a word of the prompt, not a file;
//   - for a name more than two of the files share (`index`, `route`, `SKILL`):
//     its folder's name and then its own, together ("the chat route", "chat/route.ts"),
//     when no more than two of the files have that folder and name.
// A name of fewer than MIN_NAME letters, a number or a common word never
// counts, nor the slash command a prompt opens with (Claude Code expands it
// itself), nor a path the prompt spells out whole. No model call, nothing read
// but the ledger: cheap enough for every prompt. Pure.
import { nameKey, promptNames, usable } from './file-names.ts';
import { wordsOf } from './search-terms.ts';
import { countsAsWorked, type WorkedFiles, weightAt } from './worked-files.ts';

/** Most files one prompt is given. */
export const MAX_FILES = 4;
/** A name that more than this many of the ledger's files share stands for none of them: their folder's name and it do. */
const SHARED = 2;

/** A file's name without its folder (`landing-page.tsx`), and that without its last extension (`landing-page`; `.env` stays). */
function namesOf(path: string): { base: string; stem: string } {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return { base, stem: dot > 0 ? base.slice(0, dot) : base };
}

/** The folder a file is in, by its name (`src/app/api/chat/route.ts` → `chat`), or '' at the top. */
function folderOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 1 ? parts[parts.length - 2]! : '';
}

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

/** True when `text` holds `path` whole: not as a piece of a longer name (`app-settings.js` in `app-settings.json`). */
export function holdsPath(text: string, path: string): boolean {
  if (path === '') return false;
  for (let i = text.indexOf(path); i >= 0; i = text.indexOf(path, i + 1)) {
    const before = text[i - 1] ?? ' ';
    const after = text[i + path.length] ?? ' ';
    const next = text[i + path.length + 1] ?? ' ';
    if (/[\w.-]/.test(before) && before !== '/') continue;
    if (/[\w/-]/.test(after) || (after === '.' && /\w/.test(next))) continue;
    return true;
  }
  return false;
}

/**
 * The ledger's files the prompt names, heaviest first, at most MAX_FILES, less those it spells out
 * whole and those `held` (the session holds them already: its start's lines of files, an earlier
 * prompt's; asked only of files the prompt names).
 */
export function filesThePromptNames(
  prompt: string,
  ledger: WorkedFiles,
  held: (path: string) => boolean,
  named: ReadonlySet<string> = promptNames(prompt),
): string[] {
  const paths = Object.keys(ledger.files);
  if (paths.length === 0 || named.size === 0) return [];
  const says = (key: string) => usable(key) && named.has(key);
  // Each file's names as keys; on most prompts none is named, and nothing more is done.
  const files = paths.map((path) => {
    const { base, stem } = namesOf(path);
    return { path, stemName: stem, base: nameKey(base), stem: nameKey(stem), folder: nameKey(folderOf(path)), extension: base !== stem };
  });
  const maybe = (f: (typeof files)[number]) =>
    named.has(f.base) || named.has(f.stem) || named.has(f.folder + f.stem) || named.has(f.folder + f.base);
  if (!files.some(maybe)) return [];
  const count = (keys: readonly string[]) => {
    const n = new Map<string, number>();
    for (const k of keys) n.set(k, (n.get(k) ?? 0) + 1);
    return n;
  };
  const byStem = count(files.map((f) => f.stem));
  const byFolder = count(files.map((f) => `${f.folder}/${f.stem}`));
  const whole = files.map((f) => f.extension && says(f.base));
  // A name written with its extension (`launch_chrome.js`) is that file, not another of the same name (`launch_chrome.bat`).
  const wholeStems = new Set(files.flatMap((f, i) => (whole[i] ? [f.stem] : [])));
  const hits: Array<{ path: string; weight: number }> = [];
  files.forEach((f, i) => {
    if (!maybe(f)) return;
    const byName =
      (byStem.get(f.stem) ?? 0) > SHARED
        ? // A name many files share (`index`, `route`, `SKILL`), after the name of its folder: "the chat route".
          (byFolder.get(`${f.folder}/${f.stem}`) ?? 0) <= SHARED &&
          usable(f.folder) &&
          (says(f.folder + f.stem) || (f.extension && says(f.folder + f.base)))
        : whole[i] || (!wholeStems.has(f.stem) && says(f.stem) && severalWords(f.stemName));
    // A path the prompt spells out tells the session nothing it does not hold.
    if (!byName || !countsAsWorked(f.path) || holdsPath(prompt, f.path) || held(f.path)) return;
    hits.push({ path: f.path, weight: weightAt(ledger.files[f.path]!, ledger.seq) });
  });
  return hits
    .sort((a, b) => b.weight - a.weight || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MAX_FILES)
    .map((h) => h.path);
}
