// Files a prompt names (SPEC §8 UserPromptSubmit): "the landing page",
// "twin_service", "storage.go" — a file of the project earlier sessions worked
// on, named by its name without its folder, is given by its path, so the
// session opens it instead of searching for it. What names a file is decided
// in core/recall/file-names.ts (the same keys the names file holds); here the
// files whose keys the prompt says are taken, less a path the prompt spells
// out whole and what the session holds, the heaviest few first; a name written
// with its extension (`launch_chrome.js`) is that file, not another of the same
// name (`launch_chrome.bat`). Loaded only when the names file says the prompt
// may name one. Pure.
import { fileKeys, holdsPath, nameKey, namesOf, type PromptNames, promptNames, says } from './file-names.ts';
import { countsAsWorked, type WorkedFiles, weightAt } from './worked-files.ts';

/** Most files one prompt is given. */
export const MAX_FILES = 4;

/**
 * The ledger's files the prompt names, heaviest first, at most MAX_FILES, less those it spells out
 * whole and those `held` (the session holds them already: its start's lines of files, an earlier
 * prompt's, what it read or edited; asked only of files the prompt names).
 */
export function filesThePromptNames(
  prompt: string,
  ledger: WorkedFiles,
  held: (path: string) => boolean,
  named: PromptNames = promptNames(prompt),
): string[] {
  const keys = fileKeys(Object.keys(ledger.files));
  const said = new Map<string, string[]>();
  for (const [path, ks] of keys) {
    const hit = ks.filter((k) => says(named, k));
    if (hit.length > 0) said.set(path, hit);
  }
  // Names written whole with their extension, by the name without it: another file of that name gives way.
  const wholeStems = new Set([...said].filter(([, ks]) => ks.some((k) => k.startsWith('.'))).map(([path]) => nameKey(namesOf(path).stem)));
  const hits: Array<{ path: string; weight: number }> = [];
  for (const [path, ks] of said) {
    const whole = ks.some((k) => k.startsWith('.'));
    if (!whole && wholeStems.has(nameKey(namesOf(path).stem))) continue;
    // A path the prompt spells out tells the session nothing it does not hold.
    if (!countsAsWorked(path) || holdsPath(prompt, path) || held(path)) continue;
    hits.push({ path, weight: weightAt(ledger.files[path]!, ledger.seq) });
  }
  return hits
    .sort((a, b) => b.weight - a.weight || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, MAX_FILES)
    .map((h) => h.path);
}
