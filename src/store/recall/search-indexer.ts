// Brings the search index up to date (loaded only when a query finds it
// stale). Incremental: a file whose stamp (size, mtime, inode) is unchanged
// is never read again; its documents stay where they are. Documents of files
// that changed or went are marked deleted, the new ones go into a small
// delta segment, and the delta is merged into the base segment once it grows
// past a tenth of it, postings to postings, without re-reading any file.
// Everything happens under the index lock; files are written first, the
// manifest last, so a reader sees the old index or the new one.
import { lstatSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EchoesError } from '../../core/errors.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import { echoFileDocs, sessionDocs, solutionDocs } from '../../core/recall/search-docs.ts';
import {
  buildSegment,
  decodeAttrs,
  decodeSegment,
  encodeSegment,
  type IndexDoc,
  mergeSegments,
  type SegmentData,
  type SegmentMeta,
  type StoredDoc,
} from '../../core/recall/search-segment.ts';
import { readTextFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { assertWritable, type EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE, withLock } from '../fs/role-lock.ts';
import { uniqueSuffix } from '../fs/unique-suffix.ts';
import { teammateCheck } from '../memory/entry-origin.ts';
import {
  type ClaimRecord,
  INDEX_FORMAT,
  INDEX_VERSION,
  indexDir,
  isFresh,
  type Manifest,
  readIndexFile,
  readManifest,
  type SourceRecord,
  TIERS,
  type Tier,
  tierOf,
} from './search-index.ts';
import {
  listLogNames,
  listSources,
  logFile,
  type MemoryFolders,
  memoryFolders,
  type SourceFile,
  type Stamp,
  sameStamp,
  stampOf,
} from './search-sources.ts';

export interface UpdateResult {
  manifest: Manifest;
  /** Display paths of the files read, in order: an unchanged file never appears here. */
  read: string[];
  rebuilt: boolean;
}

/** The delta is merged into the base when it passes max(1,000 documents, a tenth of the base). */
const DELTA_SHARE = 0.1;
const DELTA_MIN = 1000;

interface Piece {
  tier: Tier;
  /** An existing segment directory, or none for one built in this update. */
  dir?: string;
  meta: SegmentMeta;
  data?: SegmentData;
  gids: Uint32Array | number[];
  deleted: Set<number>;
}

export function updateIndex(paths: EchoPaths, opts: { deadline?: Deadline; waitMs?: number; force?: boolean } = {}): UpdateResult {
  // Without a bound of its own, the process's: a command waits longer than a hook.
  return withLock(paths, 'search-index', () => update(paths, opts.force === true), {
    ...(opts.waitMs === undefined ? {} : { waitMs: opts.waitMs }),
    deadline: opts.deadline ?? NO_DEADLINE,
  });
}

function update(paths: EchoPaths, force: boolean): UpdateResult {
  clearNonFolder(paths, indexDir(paths));
  const read: string[] = [];
  const old = force ? null : readManifest(paths);
  const listed = listSources(paths);
  const folders = memoryFolders(paths, listed);
  // Another process may have brought it up to date while this one waited for the lock; a folder that only
  // changed (a findings file came and went) is recorded again, so prompt-time recall does not come back here.
  if (old !== null && isFresh(paths, old)) {
    if (sameFolders(old.folders, folders)) return { manifest: old, read, rebuilt: false };
    const manifest = { ...old, folders };
    writeFileAtomic(paths, join(indexDir(paths), 'manifest.json'), JSON.stringify(manifest), { durable: false });
    return { manifest, read, rebuilt: false };
  }
  const dir = indexDir(paths);
  let pieces: Piece[] = [];
  let nextGid = 0;
  let sources: Record<string, SourceRecord> = {};
  /** Log file name → the global id of its document (-1 for a log with nothing to index). */
  let logs: Map<string, number> | null = null;
  if (old !== null) {
    try {
      pieces = old.segments.map((s) => ({
        tier: s.tier,
        dir: s.dir,
        meta: s.meta,
        gids: readGids(paths, join(dir, s.dir), s.meta.docs),
        deleted: new Set(s.deleted),
      }));
      nextGid = old.nextGid;
      sources = { ...old.sources };
    } catch {
      return update(paths, true);
    }
  }

  const dead = new Set<number>();
  const fresh: IndexDoc[] = [];
  const freshOf: Array<{ key: string; stamp: Stamp | null; count: number; retires: ClaimRecord[]; etched: string[] }> = [];
  const take = (file: SourceFile, stamp: Stamp | null) => {
    const docs = documentsOf(paths, file, read);
    if (docs === null) return false;
    fresh.push(...docs);
    const claims = docs.flatMap((d): ClaimRecord[] =>
      d.retires?.length && d.role && d.id
        ? [
            d.teammate
              ? [usageKey(d.role, d.id), d.retiresDay ?? null, d.line, d.retires, 1]
              : [usageKey(d.role, d.id), d.retiresDay ?? null, d.line, d.retires],
          ]
        : [],
    );
    // This clone's etched entries: a teammate's claim never retires them.
    const etched = docs.flatMap((d) =>
      d.source === 'memory' && d.layer === 'etched' && !d.teammate && d.role && d.id && !d.status ? [usageKey(d.role, d.id)] : [],
    );
    freshOf.push({ key: file.key, stamp, count: docs.length, retires: claims, etched });
    return true;
  };

  // Files other than logs: few, so each query stamps them all.
  const current = new Set<string>();
  for (const file of listed) {
    const st = stampOf(file.abs);
    if (st === null) continue;
    current.add(file.key);
    const rec = sources[file.key];
    if (rec && rec[0] === st.size && rec[1] === st.mtimeMs && rec[2] === st.ino) continue;
    if (rec) for (const g of rec[3]) dead.add(g);
    delete sources[file.key];
    take(file, st);
  }
  for (const key of Object.keys(sources)) {
    if (current.has(key)) continue;
    for (const g of sources[key]![3]) dead.add(g);
    delete sources[key];
  }

  // Archive logs are written once: only a change of their folder (a log added or removed) makes us look at them.
  const logsDir = stampOf(paths.memoriesDir);
  const logsChanged = old === null || !sameStamp(logsDir, old.logs.dir);
  const newLogs = new Set<string>();
  if (logsChanged) {
    logs = old === null ? new Map() : readLogs(paths, dir, old.logs.file);
    if (logs === null) return update(paths, true);
    // Written once: a log already indexed is not looked at again; only new names are read, gone ones dropped.
    const listed = new Set(listLogNames(paths));
    for (const name of listed) {
      if (logs.has(name)) continue;
      const file = logFile(paths, name);
      if (take(file, null)) newLogs.add(file.key);
    }
    for (const [name, gid] of logs) {
      if (listed.has(name)) continue;
      dead.add(gid);
      logs.delete(name);
    }
  }

  // Global ids for the new documents, recorded against their files.
  const freshGids = fresh.map(() => nextGid++);
  let at = 0;
  for (const f of freshOf) {
    const gids = freshGids.slice(at, at + f.count);
    at += f.count;
    if (f.stamp !== null)
      sources[f.key] = f.etched.length
        ? [f.stamp.size, f.stamp.mtimeMs, f.stamp.ino, gids, f.retires, f.etched]
        : f.retires.length
          ? [f.stamp.size, f.stamp.mtimeMs, f.stamp.ino, gids, f.retires]
          : [f.stamp.size, f.stamp.mtimeMs, f.stamp.ino, gids];
    else logs!.set(f.key.slice(f.key.lastIndexOf('/') + 1), gids[0] ?? -1);
  }
  for (const p of pieces) {
    for (let i = 0; i < p.gids.length; i++) if (dead.has(p.gids[i]!)) p.deleted.add(i);
  }

  // Each tier composes on its own: a new log never rewrites the memory segments, nor an entry the logs'.
  const next: Piece[] = [];
  for (const tier of TIERS) {
    let mine = pieces.filter((p) => p.tier === tier);
    const docs: IndexDoc[] = [];
    const gids: number[] = [];
    fresh.forEach((d, i) => {
      if (tierOf(d.source) !== tier) return;
      docs.push(d);
      gids.push(freshGids[i]!);
    });
    if (docs.length > 0) {
      const built: Piece = {
        tier,
        meta: { docs: docs.length, shards: 0, roles: [], totalLen: 0 },
        data: buildSegment(docs),
        gids,
        deleted: new Set(),
      };
      mine = compose(paths, mine, built);
    } else if (mine.length === 2 && mine[1]!.deleted.size === mine[1]!.meta.docs) {
      mine = [mine[0]!];
    }
    next.push(...mine);
  }
  pieces = next;

  // Write new segments, then the log table, then the manifest: the switch is the manifest's rename.
  const segments: Manifest['segments'] = pieces.map((p) => {
    if (p.dir !== undefined) return { dir: p.dir, tier: p.tier, meta: p.meta, deleted: [...p.deleted].sort((a, b) => a - b) };
    const name = `seg-${uniqueSuffix()}`;
    const { meta, files } = encodeSegment(p.data!);
    files.set('gids.bin', gidBytes(p.gids));
    for (const [file, bytes] of files) writeFileAtomic(paths, join(dir, name, file), bytes, { durable: false });
    return { dir: name, tier: p.tier, meta, deleted: [] };
  });
  let logsFile = old?.logs.file ?? null;
  if (logs !== null) {
    logsFile = `logs-${uniqueSuffix()}.json`;
    // Two parallel arrays parse and write far faster than an object with a hundred thousand keys.
    writeFileAtomic(paths, join(dir, logsFile), JSON.stringify({ names: [...logs.keys()], gids: [...logs.values()] }), { durable: false });
  }
  const manifest: Manifest = {
    format: INDEX_FORMAT,
    version: INDEX_VERSION,
    project: paths.project,
    memoriesDir: paths.memoriesDir,
    nextGid,
    segments,
    stats: liveStats(paths, dir, segments),
    sources,
    logs: { dir: logsDir, file: logsFile, count: logs ? logs.size : (old?.logs.count ?? 0) },
    folders,
  };
  writeFileAtomic(paths, join(dir, 'manifest.json'), JSON.stringify(manifest), { durable: false });
  sweep(paths, dir, manifest);
  return { manifest, read, rebuilt: old === null };
}

function sameFolders(a: MemoryFolders | undefined, b: MemoryFolders): boolean {
  if (!a || a.roles.join('/') !== b.roles.join('/')) return false;
  const keys = Object.keys(b.dirs);
  return keys.length === Object.keys(a.dirs).length && keys.every((k) => a.dirs[k] === b.dirs[k]);
}

/** Where the new documents go: a delta beside the base, merged into it once it has grown. */
function compose(paths: EchoPaths, pieces: Piece[], built: Piece): Piece[] {
  const dir = indexDir(paths);
  const load = (p: Piece): SegmentData => p.data ?? decodeSegment(p.meta, (f) => readIndexFile(paths, join(dir, p.dir!, f)));
  const merged = (parts: Piece[]): Piece => {
    const { data, remap } = mergeSegments(parts.map((p) => ({ data: load(p), deleted: p.deleted })));
    const gids: number[] = [];
    parts.forEach((p, k) => {
      remap[k]!.forEach((to, i) => {
        if (to >= 0) gids[to] = p.gids[i]!;
      });
    });
    return { tier: built.tier, meta: { docs: data.docs.length, shards: 0, roles: [], totalLen: 0 }, data, gids, deleted: new Set() };
  };
  const [base, delta] = pieces;
  if (base === undefined) return [built];
  const nextDelta = delta === undefined ? built : merged([delta, built]);
  const baseLive = base.meta.docs - base.deleted.size;
  if (nextDelta.meta.docs > Math.max(DELTA_MIN, baseLive * DELTA_SHARE) || base.deleted.size > base.meta.docs / 4) {
    return [merged([base, nextDelta])];
  }
  return [base, nextDelta];
}

/**
 * A file, or a link, where the index folder should be (a copied or hand-made `.state/`): removed, so the
 * index is built again instead of every search failing. Only the entry itself goes, never what a link names.
 */
function clearNonFolder(paths: EchoPaths, dir: string): void {
  const st = lstatSync(dir, { throwIfNoEntry: false });
  if (!st || st.isDirectory()) return;
  assertWritable(paths, dirname(dir));
  unlinkSync(dir);
}

/** What a stored document is, field by field: the same document read again from its file gives the same key. */
const heldKey = (d: StoredDoc): string =>
  JSON.stringify([d.path, d.line, d.source, d.id ?? '', d.role ?? '', d.layer ?? '', d.status ?? '', d.teammate === true, d.title, d.text]);

/**
 * For each document the index returned, whether a file the store holds now gives it: the file is
 * one the index covers and reading it again yields the same document. An index copied from another
 * store, or written by hand, can hold documents no memory file has; those never reach the model.
 * Reads each named file once (the few a query or a prompt's recall shows).
 */
export function heldNow(paths: EchoPaths, docs: readonly StoredDoc[]): boolean[] {
  return docs.map(heldChecker(paths));
}

/** heldNow one document at a time, each file read once however many documents ask. */
export function heldChecker(paths: EchoPaths): (d: StoredDoc) => boolean {
  let files: Map<string, SourceFile> | null = null;
  let logNames: Set<string> | null = null;
  const held = new Map<string, Set<string> | null>();
  return (d) => {
    let keys = held.get(d.path);
    if (keys === undefined) {
      files ??= new Map(listSources(paths).map((f) => [f.key, f]));
      let file = files.get(d.path);
      if (!file && d.source === 'log') {
        const name = d.path.slice(d.path.lastIndexOf('/') + 1);
        const log = logFile(paths, name);
        logNames ??= new Set(listLogNames(paths));
        if (log.key === d.path && logNames.has(name)) file = log;
      }
      const now = file ? documentsOf(paths, file, []) : null;
      keys = now ? new Set(now.map(heldKey)) : null;
      held.set(d.path, keys);
    }
    return keys?.has(heldKey(d)) ?? false;
  };
}

/** The documents a file gives the index (null when it cannot be read now); its display path goes on `read`. */
export function documentsOf(paths: EchoPaths, file: SourceFile, read: string[]): IndexDoc[] | null {
  let text: string | null;
  try {
    text = readTextFile(paths, file.abs).text;
  } catch (err) {
    // A symlink that leads out of the memory folders is never read: recorded with nothing to search.
    if (err instanceof EchoesError && err.code === 'unsafe-path') return [];
    return null;
  }
  read.push(file.key);
  // A binary or non-UTF-8 file has nothing to search; it is recorded so it is not read again.
  if (text === null) return [];
  const origin = { path: file.key, source: file.source, ...(file.role ? { role: file.role } : {}) };
  switch (file.source) {
    case 'log':
    case 'ephemeral':
      return sessionDocs(text, origin);
    case 'solution':
      return solutionDocs(text, { ...origin, fallbackTitle: basename(file.abs, '.md') });
    default:
      // Entries that came through git without this clone's mark are a teammate's (SPEC §6b).
      return echoFileDocs(text, { ...origin, teammate: teammateCheck(paths, file.abs) });
  }
}

function readGids(paths: EchoPaths, segDir: string, docs: number): Uint32Array {
  const bytes = readIndexFile(paths, join(segDir, 'gids.bin'));
  if (bytes.byteLength !== docs * 4) throw new Error('gids size');
  const out = new Uint32Array(docs);
  for (let i = 0; i < docs; i++) out[i] = bytes.readUInt32LE(i * 4);
  return out;
}

function gidBytes(gids: ArrayLike<number>): Uint8Array {
  const view = new DataView(new ArrayBuffer(gids.length * 4));
  for (let i = 0; i < gids.length; i++) view.setUint32(i * 4, gids[i]!, true);
  return new Uint8Array(view.buffer);
}

function readLogs(paths: EchoPaths, dir: string, file: string | null): Map<string, number> | null {
  if (file === null) return new Map();
  try {
    const v = JSON.parse(readIndexFile(paths, join(dir, file)).toString('utf8')) as { names?: unknown; gids?: unknown };
    const { names, gids } = v;
    if (!Array.isArray(names) || !Array.isArray(gids) || names.length !== gids.length) return null;
    const out = new Map<string, number>();
    for (let i = 0; i < names.length; i++) out.set(String(names[i]), Number(gids[i]));
    return out;
  } catch {
    return null;
  }
}

function liveStats(paths: EchoPaths, dir: string, segments: Manifest['segments']): Manifest['stats'] {
  const stats: Manifest['stats'] = { memory: { docs: 0, totalLen: 0 }, logs: { docs: 0, totalLen: 0 } };
  for (const s of segments) {
    const t = stats[s.tier];
    t.docs += s.meta.docs - s.deleted.length;
    t.totalLen += s.meta.totalLen;
    if (s.deleted.length === 0) continue;
    const attrs = decodeAttrs(readIndexFile(paths, join(dir, s.dir, 'attrs.bin')), s.meta.docs);
    for (const d of s.deleted) t.totalLen -= attrs.len(d);
  }
  return stats;
}

/** Removes segments and log tables the manifest no longer names (readers that lose the race start over). */
function sweep(paths: EchoPaths, dir: string, m: Manifest): void {
  const keep = new Set([...m.segments.map((s) => s.dir), m.logs.file, 'manifest.json']);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (keep.has(name) || name.startsWith('.')) continue;
    try {
      rmSync(assertWritable(paths, join(dir, name)), { recursive: true, force: true });
    } catch {
      /* a later update tries again */
    }
  }
}
