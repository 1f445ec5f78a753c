// What a team shares through git and what stays each person's (SPEC §3 team
// mode), as the two files git reads inside `.claude/echoes/`: its .gitignore
// (session state, bookkeeping, findings and backups never committed) and its
// .gitattributes (memory files merged by entry). Both are committed with the
// shared memory, so every clone follows the same rules. Pure text planning.

import { isAbsolute } from 'node:path';

/** The merge driver's name in .gitattributes and `git config merge.<name>.*`. */
export const MERGE_DRIVER = 'rune-echoes';

export const DRIVER_DESCRIPTION = 'Rune Echoes memory files, merged by entry';

/** Personal files, relative to `.claude/echoes/`: git-ignored in every mode, so switching moves nothing on disk. */
export const PERSONAL_PATTERNS: ReadonlyArray<{ pattern: string; what: string }> = [
  { pattern: '/EPHEMERAL.md', what: 'EPHEMERAL.md (your last-session hand-off)' },
  { pattern: '/ARCHIVE.md', what: 'ARCHIVE.md (your archive-log index)' },
  { pattern: '/memories/', what: 'memories/ (your conversation archive logs)' },
  { pattern: '/usage.jsonl', what: 'usage.jsonl (your usage: relevance stays personal)' },
  // The first store .gitignore already had these three lines, written this way.
  { pattern: '.state/', what: '.state/ (hook state)' },
  { pattern: '.locks/', what: '.locks/ (locks)' },
  { pattern: '.log', what: '.log (errors the hooks met)' },
  { pattern: '*-findings.md', what: "<role>/<agent>-findings.md (agents' findings until the turn ends)" },
  { pattern: '/*/archive/MEMORY-*.md', what: '<role>/archive/MEMORY-<date>.md (your backups before pruning or reset)' },
  { pattern: '/*/archive/unparsed-*.md', what: '<role>/archive/unparsed-*.md (findings files kept for their extra text)' },
  { pattern: '.*.tmp', what: 'temporary files of atomic writes' },
  { pattern: '/report.html', what: 'report.html (your memory report, made by rune-echoes report)' },
];

/**
 * Whether a path (relative to `.claude/echoes/`, with `/`) is one of the
 * personal files above: this clone's session state and bookkeeping, which is
 * never read from a copy git tracks.
 */
export function isPersonalPath(rel: string): boolean {
  const parts = rel.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (parts.length === 1 && (name === 'EPHEMERAL.md' || name === 'ARCHIVE.md' || name === 'usage.jsonl' || name === 'report.html'))
    return true;
  if (parts[0] === 'memories' && parts.length > 1) return true;
  if (parts.slice(0, -1).some((p) => p === '.state' || p === '.locks') || name === '.state' || name === '.locks') return true;
  if (name === '.log' || name.endsWith('-findings.md') || /^\..*\.tmp$/.test(name)) return true;
  return parts.length === 3 && parts[1] === 'archive' && /^(?:MEMORY|unparsed)-.*\.md$/.test(name);
}

/** What is committed in team mode, relative to `.claude/echoes/`. */
export const SHARED_DESCRIPTION = [
  '<role>/MEMORY.md and <role>/knowledge.md',
  '<role>/archive/pruned.md, knowledge-compressed.md (archived entries) and forgotten.md (tombstones)',
  '.gitignore and .gitattributes of the store',
];

/** Files that merge by entry, relative to `.claude/echoes/`. */
export const MERGED_PATTERNS = ['/*/MEMORY.md', '/*/knowledge.md', '/*/archive/*.md'];

const IGNORE_HEADER = '# Rune Echoes: personal session state and bookkeeping, never committed (even with echoes.version_controlled: true)';
const ATTRIBUTES_HEADER = '# Rune Echoes: memory files merge by entry; each clone runs `rune-echoes team init` once to install the driver';

/**
 * The file with every required line present: a missing file gets all of them
 * under a header; an existing one keeps every byte and gains only the missing
 * lines at its end (the same lines in every clone, so two clones adding them
 * merge cleanly). Null when nothing is missing.
 */
function withLines(text: string | null, header: string, required: string[]): string | null {
  if (text === null || text.trim() === '') return `${header}\n${required.join('\n')}\n`;
  const present = new Set(text.split(/\r?\n|\r/).map((l) => l.trim()));
  const missing = required.filter((l) => !present.has(l));
  if (missing.length === 0) return null;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const sep = /\r?\n$|\r$/.test(text) ? '' : eol;
  return `${text}${sep}${missing.join(eol)}${eol}`;
}

export function planStoreGitignore(text: string | null): string | null {
  return withLines(
    text,
    IGNORE_HEADER,
    PERSONAL_PATTERNS.map((p) => p.pattern),
  );
}

export function planStoreGitattributes(text: string | null): string | null {
  return withLines(
    text,
    ATTRIBUTES_HEADER,
    MERGED_PATTERNS.map((p) => `${p} merge=${MERGE_DRIVER}`),
  );
}

/** One word for a POSIX shell (git runs merge drivers through `sh -c`). */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The driver command git runs, with absolute paths: git may run outside
 * Claude Code, where the plugin's bin/ is not on PATH and `node` may not be
 * either. %O %A %B are git's temporary files; %P (the file's path) only names
 * it in messages.
 */
export function driverCommand(node: string, cli: string): string {
  return `${driverCall(node, cli)} || { s=$?; ${FALLBACK}; }`;
}

/** The call of our CLI alone: what older versions installed, without the fallback. */
function driverCall(node: string, cli: string): string {
  return `${shellWord(node)} ${shellWord(cli)} merge-file %O %A %B %P`;
}

/**
 * What runs when the driver did not merge (the plugin moved, was updated or
 * removed: node cannot find the CLI and %A is still ours, with no markers):
 * git's own line merge, with conflict markers where both sides changed, so a
 * teammate's side is never dropped by the next `git add`. When the driver did
 * run and left its own markers (exit 1), that result stands.
 */
const FALLBACK = `grep -qx '${'<'.repeat(7)} ours' %A && exit $s; echo "rune-echoes: the merge driver did not run (run rune-echoes team init again); merged as text" >&2; git merge-file -L ours -L ancestor -L theirs %A %O %B`;

/** A driver command of ours that lacks the fallback (installed by an older version): it drops a side when the plugin moves. */
export function driverLacksFallback(command: string): boolean {
  return driverPaths(command) !== null && !command.includes(FALLBACK);
}

/** The absolute paths a driver command of ours runs (node, the CLI), to check they still exist; null for a command someone else wrote. */
export function driverPaths(command: string): string[] | null {
  const words: string[] = [];
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(command); m; m = re.exec(command)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : (m[2] ?? ''));
  const at = words.indexOf('merge-file');
  if (at < 1) return null;
  return words.slice(0, at).filter((w) => isAbsolute(w));
}
