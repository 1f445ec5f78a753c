// What each role's MEMORY.md holds, cached by file size and mtime in
// .state/entries-cache.json, so SessionStart builds its digest without
// loading or running the parser when no memory file changed since the last
// read (the usual case). A miss parses that one file and refreshes the cache.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import { listRoles } from './role-listing.ts';

export interface RoleSummary {
  role: string;
  lines: number;
  entries: EchoEntry[];
  /** Set when the file could not be read as memory (binary, not UTF-8). */
  error?: string;
}

interface CachedRole extends RoleSummary {
  size: number;
  mtimeMs: number;
  /** Every write of a memory file is a rename, so a new inode even where mtime is coarse. */
  ino: number;
}

const CACHE_VERSION = 2;
const cacheFile = (paths: EchoPaths) => join(paths.stateDir, 'entries-cache.json');

function readCache(paths: EchoPaths): Map<string, CachedRole> {
  try {
    const raw = JSON.parse(readTextOrNull(paths, cacheFile(paths)) ?? 'null') as { version?: number; roles?: CachedRole[] } | null;
    if (raw?.version === CACHE_VERSION && Array.isArray(raw.roles)) return new Map(raw.roles.map((r) => [r.role, r]));
  } catch {
    /* a torn or foreign cache is just a miss */
  }
  return new Map();
}

export async function roleSummaries(paths: EchoPaths): Promise<RoleSummary[]> {
  const cache = readCache(paths);
  const out: CachedRole[] = [];
  let changed = false;
  for (const role of listRoles(paths)) {
    let st: { size: number; mtimeMs: number; ino: number };
    try {
      st = statSync(memoryFile(paths, role));
    } catch {
      out.push({ role, lines: 0, entries: [], size: -1, mtimeMs: 0, ino: 0 });
      changed ||= cache.get(role)?.size !== -1;
      continue;
    }
    const hit = cache.get(role);
    if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs && hit.ino === st.ino) {
      out.push(hit);
      continue;
    }
    changed = true;
    out.push({ ...(await parseRole(paths, role)), size: st.size, mtimeMs: st.mtimeMs, ino: st.ino });
  }
  if (changed || out.length !== cache.size) {
    try {
      writeFileAtomic(paths, cacheFile(paths), JSON.stringify({ version: CACHE_VERSION, roles: out }), { durable: false });
    } catch {
      // A cache that cannot be written (read-only store, full disk) only makes the next read slower.
    }
  }
  return out.map(({ role, lines, entries, error }) => (error ? { role, lines, entries, error } : { role, lines, entries }));
}

async function parseRole(paths: EchoPaths, role: string): Promise<RoleSummary> {
  const { countLines, documentEntries } = await import('../../core/entry/echo-document.ts');
  const { readEchoFile, roleTitle } = await import('./memory-files.ts');
  try {
    const { text, doc } = readEchoFile(paths, memoryFile(paths, role), roleTitle(role));
    return { role, lines: text === null ? 0 : countLines(text), entries: text === null ? [] : documentEntries(doc) };
  } catch (err) {
    return { role, lines: 0, entries: [], error: err instanceof Error ? err.message : String(err) };
  }
}
