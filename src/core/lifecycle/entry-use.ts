// When a session *used* an entry (SPEC §8): it read, edited or searched a file
// the entry's evidence cites, ran a command the entry names, or its text named
// the entry's id or title. Being injected is not use: the digest and recall
// never count for Relevance by themselves. Pure: the store hands in what the
// session did (from its summary) and a glob matcher for evidence written as a glob.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { evidencePaths } from '../entry/evidence-paths.ts';
import { oneLine } from '../text.ts';

/** What a session did, as far as use goes (the summary's lists). */
export interface SessionActivity {
  /** Files read or edited, as the summary shows them (relative to the project when inside it). */
  files: readonly string[];
  /** Grep/Glob searches as the summary keeps them: `pattern` or `pattern in path`. */
  searches: readonly string[];
  /** Commands run, one line each. */
  commands: readonly string[];
  /** Ids and titles the conversation named. */
  named: readonly string[];
}

export type GlobMatcher = (globs: string[]) => (path: string) => boolean;

const GLOB_CHARS = /[*?[\]{}]/;
/** A backticked span: where an entry names a command (`npm run build`). */
const CODE_SPAN = /`([^`\n]{2,200})`/g;
/** A span that reads as a command line: a program name, then arguments. */
const COMMAND_SHAPE = /^(?:\.\/|[a-z])[\w./+-]*(?: +\S+)+$/;

/** The command lines an entry names in backticks (learning, solution, evidence): at least a program and one argument. */
export function namedCommands(entry: Pick<EchoEntry, 'learning' | 'solution' | 'evidence'>): string[] {
  const out: string[] = [];
  for (const text of [entry.learning, entry.solution ?? '', entry.evidence]) {
    for (const m of text.matchAll(CODE_SPAN)) {
      const span = oneLine(m[1]!);
      if (COMMAND_SHAPE.test(span) && !out.includes(span)) out.push(span);
    }
  }
  return out;
}

/** True when a command run is the named one, or starts with it (`npm test` covers `npm test -- --watch`). */
export function runsCommand(command: string, named: string): boolean {
  const c = oneLine(command);
  if (c === named || c.startsWith(`${named} `)) return true;
  // `cd app && npm test`, `FOO=1 npm test`: the named command as one step of the line.
  return c.split(/\s*(?:&&|\|\||;|\|)\s*/).some((step) => {
    const s = step.replace(/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+/, '');
    return s === named || s.startsWith(`${named} `);
  });
}

/** Tells whether a cited relative path names a file at the project's root (then it means that file alone). */
export type RootCheck = (cited: string) => boolean;

/**
 * The session's file (relative to the project, or absolute outside it) is the
 * cited one: the same, or the cited path is its end (`src/a.ts` of
 * `app/src/a.ts`) unless the project has the cited path itself (`package.json`
 * is the root's, not every package's), or the cited path is absolute and ends with it.
 */
const touches = (file: string, cited: string, atRoot?: RootCheck) =>
  file === cited || (file.endsWith(`/${cited}`) && !atRoot?.(cited)) || (cited.startsWith('/') && cited.endsWith(`/${file}`));

/** The file a summarised search looked in (`pattern in path`), or the pattern when it names one file. */
function searchedFile(search: string): string | null {
  const at = search.lastIndexOf(' in ');
  if (at >= 0) return search.slice(at + 4).trim();
  return GLOB_CHARS.test(search) ? null : search.trim();
}

/** Whether the session used this entry, and how (for tests and the log). */
export function entryUse(
  entry: Pick<EchoEntry, 'id' | 'title' | 'learning' | 'solution' | 'evidence'>,
  activity: SessionActivity,
  glob?: GlobMatcher,
  atRoot?: RootCheck,
): 'named' | 'file' | 'search' | 'command' | null {
  const named = new Set(activity.named.map((t) => t.toLowerCase()));
  if (named.has(entry.id.toLowerCase()) || (entry.title !== '' && named.has(entry.title.toLowerCase()))) return 'named';
  const cited = evidencePaths(entry.evidence);
  if (cited.length > 0) {
    const plain = cited.filter((c) => !GLOB_CHARS.test(c));
    if (plain.some((c) => activity.files.some((f) => touches(f, c, atRoot)))) return 'file';
    const globs = cited.filter((c) => GLOB_CHARS.test(c));
    if (globs.length > 0 && glob && activity.files.length > 0) {
      const match = glob(globs);
      if (activity.files.some((f) => match(f))) return 'file';
    }
    for (const s of activity.searches) {
      const file = searchedFile(s);
      if (file && plain.some((c) => touches(file, c, atRoot))) return 'search';
    }
  }
  const commands = namedCommands(entry);
  if (commands.some((n) => activity.commands.some((c) => runsCommand(c, n)))) return 'command';
  return null;
}

/** The entries a transcript read watches for use, each under its usage key (`role#id`). */
export interface UseWatch {
  entries: ReadonlyArray<{ key: string; entry: Pick<EchoEntry, 'id' | 'title' | 'learning' | 'solution' | 'evidence'> }>;
  /** Ids and titles to look for in the conversation's text (see SessionSummary.namedTerms). */
  terms: readonly string[];
  /** For evidence written as a glob; without it such evidence matches nothing. */
  glob?: GlobMatcher;
  /** Without it, a cited path matches as the end of any session file's path. */
  atRoot?: RootCheck;
}

/** The keys of the watched entries a session's activity used. */
export function usedEntries(watch: UseWatch, activity: SessionActivity): string[] {
  return watch.entries.filter(({ entry }) => entryUse(entry, activity, watch.glob, watch.atRoot) !== null).map(({ key }) => key);
}
