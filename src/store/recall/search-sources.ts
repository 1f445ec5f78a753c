// The one list of what the search index covers (SPEC §10 search): every
// role's MEMORY.md, knowledge.md, topic files and archive, EPHEMERAL.md,
// docs/solutions and the archive logs. Listing and stamping only: no file is
// read here, so the freshness check a query makes costs a few stat calls.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import type { DocSource } from '../../core/recall/search-segment.ts';
import { archiveDir, type EchoPaths, knowledgeFile, memoryFile, roleDir } from '../fs/echo-paths.ts';
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
  const rel = relative(paths.project, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split('\\').join('/');
}

function markdownIn(dir: string, recursive: boolean): string[] {
  try {
    return readdirSync(dir, { recursive })
      .map(String)
      .filter((f) => f.endsWith('.md'))
      .sort();
  } catch {
    return [];
  }
}

/** Every indexed file except the archive logs (listed apart: there can be a hundred thousand of them). */
export function listSources(paths: EchoPaths): SourceFile[] {
  const out: SourceFile[] = [];
  const add = (abs: string, source: DocSource, role?: string) =>
    out.push({ key: displayPath(paths, abs), abs, source, ...(role ? { role } : {}) });
  for (const role of listRoles(paths)) {
    add(memoryFile(paths, role), 'memory', role);
    add(knowledgeFile(paths, role), 'knowledge', role);
    // Other markdown in a role folder (imported topic files, notes) is searchable; findings are not yet memory.
    for (const name of markdownIn(roleDir(paths, role), false)) {
      if (name === 'MEMORY.md' || name === 'knowledge.md' || isFindingsFileName(name)) continue;
      add(join(roleDir(paths, role), name), 'topic', role);
    }
    // Backups (MEMORY-<date>.md) repeat what is live or archived already.
    for (const name of markdownIn(archiveDir(paths, role), true)) {
      if (/(^|\/)MEMORY-[^/]*\.md$/.test(name)) continue;
      add(join(archiveDir(paths, role), name), 'archive', role);
    }
  }
  add(paths.ephemeral, 'ephemeral');
  for (const name of markdownIn(paths.solutionsDir, true)) add(join(paths.solutionsDir, name), 'solution');
  return out;
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
    const st = statSync(abs);
    return st.isFile() || st.isDirectory() ? { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino } : null;
  } catch {
    return null;
  }
}

export function sameStamp(a: Stamp | null | undefined, b: Stamp | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}
