// The one list of what the search index covers (SPEC §10 search): every
// role's MEMORY.md, knowledge.md, topic files and archive, EPHEMERAL.md,
// docs/solutions and the archive logs. Listing and stamping only: no file is
// read here, so the freshness check a query makes costs a few stat calls.
import { readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';
import type { DocSource } from '../../core/recall/search-segment.ts';
import { type EchoPaths, isRoleName, roleDir } from '../fs/echo-paths.ts';
import { isFindingsFileName, listRoles } from '../memory/role-listing.ts';

export interface SourceFile {
  /** The path shown in hits and used as the key: relative to the project when inside it. */
  key: string;
  abs: string;
  source: DocSource;
  role?: string;
}

/** What identifies a version of a file without reading it (every memory write is a rename: a new inode). */
export interface Stamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

export const LOG_FILE = /^archive-log-(\d{3,})\.md$/;

export function displayPath(paths: EchoPaths, abs: string): string {
  // Inside the project, a plain cut: path.relative walks both paths character by character, and
  // the prompt hook stamps every source on every prompt (in a cold process that loop is what costs).
  const root = paths.project.endsWith(sep) ? paths.project : `${paths.project}${sep}`;
  if (abs.startsWith(root) && !abs.includes(`${sep}..${sep}`))
    return sep === '/' ? abs.slice(root.length) : abs.slice(root.length).split(sep).join('/');
  const rel = relative(paths.project, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split('\\').join('/');
}

/** A child of a folder that is already normalised (the store's own paths, names read from it): no path.join walk. */
const child = (dir: string, name: string): string => `${dir}${sep}${sep === '/' ? name : name.split('/').join(sep)}`;

/** Markdown files in a folder (and its subfolders, as `sub/name.md`), sorted; [] when there is no folder. */
function markdownIn(dir: string, recursive: boolean): string[] {
  const out: string[] = [];
  // A walk of our own: Node's recursive readdir joins and relativises every name through path.*.
  const walk = (at: string, prefix: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    // A missing folder is the usual case (no archive yet): asked without an exception, which costs a stack trace.
    if (!statSync(at, { throwIfNoEntry: false })?.isDirectory()) return;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (recursive && depth < 8) walk(`${at}${sep}${e.name}`, `${prefix}${e.name}/`, depth + 1);
      } else if (e.name.endsWith('.md')) out.push(`${prefix}${e.name}`);
    }
  };
  walk(dir, '', 0);
  return out.sort();
}

/** Every indexed file except the archive logs (listed apart: there can be a hundred thousand of them). */
export function listSources(paths: EchoPaths): SourceFile[] {
  const out: SourceFile[] = [];
  const add = (abs: string, source: DocSource, role?: string) =>
    out.push({ key: displayPath(paths, abs), abs, source, ...(role ? { role } : {}) });
  for (const role of listRoles(paths)) {
    const dir = roleDir(paths, role);
    add(child(dir, 'MEMORY.md'), 'memory', role);
    add(child(dir, 'knowledge.md'), 'knowledge', role);
    // Other markdown in a role folder (imported topic files, notes) is searchable; findings are not yet memory.
    for (const name of markdownIn(dir, false)) {
      if (name === 'MEMORY.md' || name === 'knowledge.md' || isFindingsFileName(name)) continue;
      add(child(dir, name), 'topic', role);
    }
    // Backups (MEMORY-<date>.md) repeat what is live or archived already.
    const archive = child(dir, 'archive');
    for (const name of markdownIn(archive, true)) {
      if (/(^|\/)MEMORY-[^/]*\.md$/.test(name)) continue;
      add(child(archive, name), 'archive', role);
    }
  }
  add(paths.ephemeral, 'ephemeral');
  for (const name of markdownIn(paths.solutionsDir, true)) add(child(paths.solutionsDir, name), 'solution');
  return out;
}

/**
 * What tells a query that a file of the memory tier came or went without
 * listing the folders: the role folders by name, and the modification time of
 * every folder that holds such files (a file added, removed or renamed into
 * place changes its folder's time; every memory write is a rename). Recorded
 * by the indexer, checked by prompt-time recall.
 */
export interface MemoryFolders {
  roles: string[];
  /** Folder path → its mtime (ms), -1 for one that does not exist. */
  dirs: Record<string, number>;
}

const folderTime = (dir: string): number => {
  try {
    const st = statSync(dir, { throwIfNoEntry: false });
    return st?.isDirectory() ? st.mtimeMs : -1;
  } catch {
    return -1;
  }
};

/** The role folders, by one read of the store folder (no stat per entry). */
export function roleFolderNames(paths: EchoPaths): string[] {
  try {
    return readdirSync(paths.echoes, { withFileTypes: true })
      .filter((e) => e.isDirectory() && isRoleName(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The folders of the memory tier's files, as listed now (roles, their archives, docs/solutions and its categories). */
export function memoryFolders(paths: EchoPaths, sources: readonly SourceFile[]): MemoryFolders {
  const dirs: Record<string, number> = {};
  const roles = roleFolderNames(paths);
  for (const role of roles) {
    const dir = roleDir(paths, role);
    dirs[dir] = folderTime(dir);
  }
  dirs[paths.solutionsDir] = folderTime(paths.solutionsDir);
  for (const s of sources) {
    if (s.source !== 'archive' && s.source !== 'solution') continue;
    for (let d = dirname(s.abs); d.length > 1 && !(d in dirs); d = dirname(d)) {
      dirs[d] = folderTime(d);
      if (d === paths.solutionsDir) break;
    }
  }
  return { roles, dirs };
}

/** True when the role folders are the same and no recorded folder changed: no memory-tier file came or went. */
export function sameMemoryFolders(paths: EchoPaths, recorded: MemoryFolders | undefined): boolean {
  if (!recorded) return false;
  const roles = roleFolderNames(paths);
  if (roles.length !== recorded.roles.length || roles.some((r, i) => r !== recorded.roles[i])) return false;
  for (const [dir, time] of Object.entries(recorded.dirs)) if (folderTime(dir) !== time) return false;
  return true;
}

/** Names of the archive logs (`archive-log-NNN.md`), in order. */
export function listLogNames(paths: EchoPaths): string[] {
  try {
    return readdirSync(paths.memoriesDir)
      .filter((n) => LOG_FILE.test(n))
      .sort();
  } catch {
    return [];
  }
}

export function logFile(paths: EchoPaths, name: string): SourceFile {
  const abs = join(paths.memoriesDir, name);
  return { key: displayPath(paths, abs), abs, source: 'log' };
}

export function listLogFiles(paths: EchoPaths): SourceFile[] {
  return listLogNames(paths).map((n) => logFile(paths, n));
}

export function stampOf(abs: string): Stamp | null {
  try {
    // No exception for a missing file (knowledge.md usually is): the prompt hook stamps every source.
    const st = statSync(abs, { throwIfNoEntry: false });
    return st && (st.isFile() || st.isDirectory()) ? { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : null;
  } catch {
    return null;
  }
}

export function sameStamp(a: Stamp | null | undefined, b: Stamp | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}
