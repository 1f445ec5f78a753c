// The SessionStart digest, computed once per state of the store. Its key is
// everything the digest reads: each role's MEMORY.md (size, mtime, inode), the
// usage log, the worked-files and error-sightings ledgers, the archive-log folder, the solutions, the settings that shape
// it, the text handed on as the last session, and the day (scores age by
// days), and the stamps of the files entries cite (staleness marks). The worker that ends a session computes it for the next start, so a
// start usually only checks the stamps and prints. A torn, foreign or older
// cache file is a miss, never an error. A store with entries waiting to be
// retired by a `supersedes` is never cached: the next start must read them.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import type { Digest } from '../../core/recall/digest.ts';
import { sightingsFile } from '../capture/error-sightings.ts';
import { readTextFile, readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { autoMemoryExportFile, type EchoPaths, memoryFile, workedFilesFile } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { retirementsByRole } from '../memory/consolidate-all.ts';
import { type RoleSummary, roleSummaries } from '../memory/entry-cache.ts';
import { type EvidenceStamp, evidenceUnchanged, staleWithStamp } from '../memory/evidence-changes.ts';
import { listRoles } from '../memory/role-listing.ts';
import { latestLogSince } from '../session/archive-logs.ts';
import { givenFile } from '../session/session-state.ts';

/** Bump when the digest's content or the key's parts change, so an older plugin's cache is never used. */
const CACHE_VERSION = 7;

const cacheFile = (paths: EchoPaths) => join(paths.stateDir, 'digest-cache.json');

interface CachedDigest {
  version: number;
  key: string;
  digest: Digest;
  /** Lines per role under the same stamps: enough for the prune check without reading the entries. */
  lines: Array<{ role: string; lines: number }>;
  errors: string[];
  /** The cited files' stamps the staleness marks were taken under. */
  evidence: EvidenceStamp;
}

const stamp = (path: string): string => {
  try {
    const st = statSync(path);
    return `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return '-';
  }
};

/**
 * Every solution document's stamp is too much for a start; the stamps of the
 * folders, at every depth (the digest counts documents in all of them), see
 * files added or removed.
 */
function solutionsStamp(paths: EchoPaths): string {
  const out: string[] = [];
  const walk = (dir: string, rel: string, depth: number): boolean => {
    let subdirs: string[];
    try {
      subdirs = readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort();
    } catch {
      return false;
    }
    out.push(`${rel}=${stamp(dir)}`);
    // Deeper than this is not a layout anyone writes by hand; the day in the key bounds what it could miss.
    if (depth < 6) for (const d of subdirs) walk(join(dir, d), `${rel}/${d}`, depth + 1);
    return true;
  };
  return walk(paths.solutionsDir, '', 0) ? out.join(',') : '-';
}

/** FNV-1a over the text: the last session's summary is part of the key without being stored twice. */
function textHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length}:${(h >>> 0).toString(16)}`;
}

/** The stamp of the auto memory folder export last wrote to (a topic file removed there gives its entry back to the digest). */
function autoMemoryExportStamp(paths: EchoPaths): string {
  try {
    const dir = (JSON.parse(readTextOrNull(paths, autoMemoryExportFile(paths)) ?? '{}') as { dir?: unknown }).dir;
    return typeof dir === 'string' ? stamp(dir) : '';
  } catch {
    return '';
  }
}

export function digestKey(paths: EchoPaths, config: EchoesConfig, lastSession: string, now: Date): string {
  const roles = listRoles(paths).map((r) => `${r}=${stamp(memoryFile(paths, r))}`);
  return JSON.stringify([
    CACHE_VERSION,
    now.toISOString().slice(0, 10),
    config.budgetTokens,
    config.relevanceWindow,
    textHash(lastSession),
    roles,
    stamp(paths.usageLog),
    stamp(workedFilesFile(paths)),
    stamp(sightingsFile(paths)),
    stamp(paths.memoriesDir),
    solutionsStamp(paths),
    // What export put in auto memory is left out of the digest while its topic files are there.
    stamp(autoMemoryExportFile(paths)),
    autoMemoryExportStamp(paths),
  ]);
}

export interface PreparedDigest {
  digest: Digest;
  errors: string[];
  /** Each role's MEMORY.md line count (for the prune check). */
  lines: Array<{ role: string; lines: number }>;
  cached: boolean;
}

export function readDigestCache(paths: EchoPaths, key: string): PreparedDigest | null {
  try {
    const c = JSON.parse(readTextOrNull(paths, cacheFile(paths)) ?? 'null') as CachedDigest | null;
    if (!c || c.version !== CACHE_VERSION || c.key !== key || typeof c.digest?.text !== 'string' || !c.evidence) return null;
    if (!evidenceUnchanged(paths, c.evidence)) return null;
    return { digest: c.digest, errors: c.errors ?? [], lines: c.lines ?? [], cached: true };
  } catch {
    return null;
  }
}

/** The digest for this state of the store: from the cache, or computed (and kept for the next start). */
export async function prepareDigest(
  paths: EchoPaths,
  config: EchoesConfig,
  lastSession: string,
  now: Date,
  opts: { roles?: RoleSummary[] | undefined; deadline?: Deadline } = {},
): Promise<PreparedDigest> {
  const key = digestKey(paths, config, lastSession, now);
  const hit = readDigestCache(paths, key);
  if (hit) return hit;
  const summaries = opts.roles ?? (await roleSummaries(paths));
  const items = summaries.flatMap((r) => r.entries.map((entry) => ({ role: r.role, entry })));
  let staleness: Awaited<ReturnType<typeof staleWithStamp>> | null = null;
  try {
    staleness = await staleWithStamp(paths, items, opts.deadline ?? NO_DEADLINE);
  } catch {
    // Without evidence dates nothing is marked stale, and nothing is kept.
  }
  // Scoring, the filter and the renderer are loaded only on a miss: a start after a SessionEnd rarely needs them.
  const { digestFromStore } = await import('./memory-digest.ts');
  const { digest, errors } = digestFromStore(paths, config, summaries, lastSession, now, staleness?.stale);
  const lines = summaries.map((r) => ({ role: r.role, lines: r.lines }));
  // Kept only when whole: not when git was cut short (stale marks missing), nor while a `supersedes` waits.
  if (staleness?.complete && retirementsByRole(summaries).size === 0) {
    try {
      const entry: CachedDigest = { version: CACHE_VERSION, key, digest, lines, errors, evidence: staleness.stamp };
      writeFileAtomic(paths, cacheFile(paths), JSON.stringify(entry), { durable: false });
    } catch {
      // Not kept: the next start computes it again.
    }
  }
  return { digest, errors, lines, cached: false };
}

/**
 * What a new session's start hands on as the last session, when no crashed
 * session is recovered: EPHEMERAL.md, else the archive log written since the
 * last hand-off. SessionStart reads it the same way.
 */
export function handedOnText(paths: EchoPaths): string {
  // (else the last hand-off again: see SessionStart)
  const ephemeral = readTextFile(paths, paths.ephemeral);
  if (!ephemeral.unreadable && (ephemeral.text ?? '').trim() !== '') return ephemeral.text!;
  let since = 0;
  try {
    since = statSync(givenFile(paths)).mtimeMs;
  } catch {
    /* nothing given yet */
  }
  return latestLogSince(paths, since) ?? readTextOrNull(paths, givenFile(paths)) ?? '';
}
