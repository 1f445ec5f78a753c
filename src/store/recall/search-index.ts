// The search index on disk (.claude/echoes/.state/search/) and the query path.
// A query reads the manifest, checks the files it covers by their stamps, and
// reads only the shard files of its own terms plus the records of the hits it
// shows. Only when something changed does it load the indexer (parsers, YAML)
// to bring the index up to date: an unchanged file is never read again.
//
// Segments are immutable directories; the manifest, replaced atomically, says
// which ones are live. A reader that loses a race with a writer's clean-up
// (a segment removed under it) starts over from the new manifest.
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer } from '../../core/entry/echo-entry.ts';
import { EchoesError } from '../../core/errors.ts';
import { resolveRetirements } from '../../core/lifecycle/supersession.ts';
import { type RankedDoc, type RankFilters, rankDocuments, type SegmentView } from '../../core/recall/search-rank.ts';
import {
  type DocKind,
  type DocSource,
  decodeAttrs,
  decodeShard,
  decodeStored,
  IndexFormatError,
  kindOf,
  type SegmentMeta,
  type Shard,
  type StoredDoc,
  storeRange,
  termShard,
} from '../../core/recall/search-segment.ts';
import { snippetOf } from '../../core/recall/search-snippet.ts';
import { queryTerms } from '../../core/recall/search-terms.ts';
import { quoteInput } from '../../core/text.ts';
import { assertReadable, type EchoPaths } from '../fs/echo-paths.ts';
import { isNotWritable } from '../fs/fs-errors.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { listSources, type MemoryFolders, type Stamp, sameStamp, stampOf } from './search-sources.ts';

export const INDEX_FORMAT = 'rune-echoes-search';
// 2: stored texts and titles filtered for secrets; supersession claims and memory folders in the manifest.
// 4: whole names (file names, dotted and snake_case names) indexed as terms of their own.
// 5: a teammate's entries and claims flagged, this clone's etched entries listed (SPEC §6b).
export const INDEX_VERSION = 5;

/**
 * Archive logs (and EPHEMERAL.md) have segments of their own: prompt-time
 * recall ranks entries, knowledge and solutions only, and must not pay for a
 * hundred thousand logs.
 */
export type Tier = 'memory' | 'logs';
export const TIERS: readonly Tier[] = ['memory', 'logs'];
export const tierOf = (source: DocSource): Tier => (kindOf(source) === 'log' ? 'logs' : 'memory');

/** The tiers a query needs: logs have no role or layer, and a kind filter may leave one tier out. */
export function tiersFor(filters: RankFilters): Tier[] {
  if (filters.role !== undefined || filters.layer !== undefined) return ['memory'];
  if (!filters.kinds || filters.kinds.length === 0) return [...TIERS];
  return TIERS.filter((t) => filters.kinds!.some((k) => (k === 'log' ? 'logs' : 'memory') === t));
}

/** A live entry's `supersedes`: its usage key, how new it is (ms), its line, the keys it names, and 1 when it is a teammate's. */
export type ClaimRecord = [from: string, dayMs: number | null, line: number, targets: string[], teammate?: 1];

/**
 * A file the index covers: its stamp when read, the global ids of its
 * documents, and the `supersedes` claims of its live entries (if any).
 */
export type SourceRecord = [size: number, mtimeMs: number, ino: number, gids: number[], claims?: ClaimRecord[], ownEtched?: string[]];

/**
 * Every entry a live entry supersedes, by usage key (`role#id`), from the
 * manifest alone — decided by the same rules as everywhere else
 * (core/lifecycle/supersession.ts: never itself, never a whole cycle).
 */
export function retiredKeys(m: Manifest): Set<string> {
  const records: ClaimRecord[] = [];
  const own = new Set<string>();
  for (const rec of Object.values(m.sources)) {
    if (Array.isArray(rec[4])) records.push(...rec[4].filter((c) => Array.isArray(c)));
    if (Array.isArray(rec[5])) for (const k of rec[5]) own.add(k);
  }
  if (records.length === 0) return new Set();
  // Roles by name, then entries by line: the order the store's own readers break ties in.
  const roleOf = (key: string) => key.slice(0, key.indexOf('#'));
  records.sort((a, b) => (roleOf(a[0]) < roleOf(b[0]) ? -1 : roleOf(a[0]) > roleOf(b[0]) ? 1 : a[2] - b[2]));
  // Only the people who can etch retire an etched entry: a teammate's claim on one of this clone's is not applied.
  const claims = records.map(([from, dayMs, , targets, teammate], order) => ({
    from,
    dayMs,
    order,
    targets: teammate === 1 ? targets.filter((t) => !own.has(t)) : targets,
  }));
  return new Set(resolveRetirements(claims).keys());
}

export interface Manifest {
  format: typeof INDEX_FORMAT;
  version: typeof INDEX_VERSION;
  /** The project and log folder it was built for: a copied or moved store is rebuilt, not trusted. */
  project: string;
  memoriesDir: string;
  nextGid: number;
  segments: Array<{ dir: string; tier: Tier; meta: SegmentMeta; deleted: number[] }>;
  /** Live documents and their summed weighted lengths, per tier. */
  stats: Record<Tier, { docs: number; totalLen: number }>;
  /** Every indexed file but the archive logs, by display path. */
  sources: Record<string, SourceRecord>;
  /** The archive logs: the folder's stamp (a new log changes it) and the file with their records. */
  logs: { dir: Stamp | null; file: string | null; count: number };
  /** The memory tier's folders when it was built: prompt-time recall checks these instead of listing them. */
  folders?: MemoryFolders;
}

export const indexDir = (paths: EchoPaths) => join(paths.stateDir, 'search');

/** A file of the index, read only if it lies inside the memory folders (checked once per folder). */
export function readIndexFile(paths: EchoPaths, path: string): Buffer {
  return readFileSync(assertReadable(paths, path));
}

/** The manifest, or null when it is missing, torn, of another format or version, or built for another place. */
export function readManifest(paths: EchoPaths): Manifest | null {
  let m: Manifest;
  try {
    m = JSON.parse(readIndexFile(paths, join(indexDir(paths), 'manifest.json')).toString('utf8')) as Manifest;
  } catch {
    return null;
  }
  if (
    m === null ||
    typeof m !== 'object' ||
    m.format !== INDEX_FORMAT ||
    m.version !== INDEX_VERSION ||
    m.project !== paths.project ||
    m.memoriesDir !== paths.memoriesDir ||
    !Array.isArray(m.segments) ||
    typeof m.stats !== 'object' ||
    m.stats === null ||
    !TIERS.every((t) => typeof m.stats[t]?.docs === 'number') ||
    typeof m.sources !== 'object' ||
    m.sources === null ||
    typeof m.logs !== 'object' ||
    m.logs === null ||
    // Every file it names is a plain name inside the index folder: a manifest pointing out is built again.
    !m.segments.every((s) => s !== null && typeof s === 'object' && isPlainName(s.dir) && TIERS.includes(s.tier)) ||
    !(m.logs.file === null || isPlainName(m.logs.file))
  ) {
    return null;
  }
  return m;
}

const isPlainName = (name: unknown): name is string =>
  typeof name === 'string' && /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/.test(name) && !name.includes('..');

/** True when every covered file still has the stamp it was read with, and no file came or went. */
export function isFresh(paths: EchoPaths, m: Manifest): boolean {
  if (!sameStamp(stampOf(paths.memoriesDir), m.logs.dir)) return false;
  let seen = 0;
  for (const s of listSources(paths)) {
    const st = stampOf(s.abs);
    const rec = m.sources[s.key];
    if (st === null) {
      if (rec) return false;
      continue;
    }
    if (!rec || rec[0] !== st.size || rec[1] !== st.mtimeMs || rec[2] !== st.ino) return false;
    seen++;
  }
  return seen === Object.keys(m.sources).length;
}

export interface OpenSegment {
  view: SegmentView;
  dir: string;
  meta: SegmentMeta;
}

export function openSegments(paths: EchoPaths, m: Manifest, tiers: readonly Tier[]): OpenSegment[] {
  return m.segments
    .filter((s) => tiers.includes(s.tier))
    .map((s) => {
      const dir = join(indexDir(paths), s.dir);
      const attrs = decodeAttrs(readIndexFile(paths, join(dir, 'attrs.bin')), s.meta.docs);
      const shards = new Map<number, Shard>();
      const view: SegmentView = {
        attrs,
        roles: s.meta.roles,
        deleted: new Set(s.deleted),
        lookup(term) {
          const k = termShard(term, s.meta.shards);
          let shard = shards.get(k);
          if (shard === undefined) {
            shard = decodeShard(readIndexFile(paths, join(dir, `p-${k}.bin`)));
            shards.set(k, shard);
          }
          return shard.lookup(term);
        },
      };
      return { view, dir, meta: s.meta };
    });
}

export function readStored(paths: EchoPaths, dir: string, doc: number): StoredDoc {
  const idx = new Uint8Array(8);
  const fd = openSync(assertReadable(paths, join(dir, 'store.idx')), 'r');
  try {
    if (readSync(fd, idx, 0, 8, doc * 4) !== 8) throw new IndexFormatError('search store index is short');
  } finally {
    closeSync(fd);
  }
  const [a, b] = storeRange(idx, 0);
  const bytes = new Uint8Array(b - a);
  const sfd = openSync(assertReadable(paths, join(dir, 'store.bin')), 'r');
  try {
    if (readSync(sfd, bytes, 0, bytes.length, a) !== bytes.length) throw new IndexFormatError('search store is short');
  } finally {
    closeSync(sfd);
  }
  return decodeStored(bytes);
}

export interface SearchRequest extends RankFilters {
  query: string;
  limit: number;
}

export interface SearchHit {
  /** `path:line` of the line the snippet shows. */
  at: string;
  path: string;
  line: number;
  id?: string;
  title: string;
  kind: DocKind;
  source: DocSource;
  role?: string;
  layer?: Layer;
  date?: string;
  score: number;
  /** The best matching line, matches wrapped in ** **. */
  snippet: string;
  /** An entry's status, or `superseded` when a live entry's `supersedes` names it: ranked below the live ones. */
  status?: string;
  /** A teammate's entry (SPEC §6b). */
  teammate?: boolean;
}

export interface SearchResult {
  terms: string[];
  hits: SearchHit[];
  index: {
    documents: number;
    segments: number;
    /** Files read to bring the index up to date for this query (0 when it was fresh). */
    filesRead: number;
    rebuilt: boolean;
    /** The index could not be updated in time (another process holds it): results may miss the newest changes. */
    stale: boolean;
  };
}

/** The query's terms; a query with none (only very common words, or no words at all) is refused in one line. */
export function searchTerms(query: string): string[] {
  const terms = queryTerms(query);
  if (terms.length === 0) {
    throw new EchoesError('bad-argument', `"${quoteInput(query)}" has no words to search for (only very common ones); add a specific word`);
  }
  return terms;
}

export interface SearchOptions {
  deadline?: Deadline;
  /** How long to wait for another process's index update (ms). */
  waitMs?: number;
  /** Skip the freshness check and use the index as it is (prompt-time recall, where every millisecond counts). */
  asIs?: boolean;
}

function isMissingFile(err: unknown): boolean {
  return (err as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * Brings the index up to date now, for a background worker that just wrote
 * memory or logs: the next prompt's recall and the next search then find it
 * fresh instead of updating it while the user waits. Another process updating
 * it at the same time is as good.
 */
export async function refreshIndex(paths: EchoPaths, deadline: Deadline = NO_DEADLINE): Promise<void> {
  const m = readManifest(paths);
  if (m !== null && isFresh(paths, m)) return;
  const { updateIndex } = await import('./search-indexer.ts');
  try {
    updateIndex(paths, { deadline, waitMs: 1000 });
  } catch (err) {
    if (!(err instanceof EchoesError && err.code === 'locked')) throw err;
  }
}

/**
 * Brings the index up to date when needed, then ranks. Throws EchoesError only
 * for a query with no searchable words; a broken index is rebuilt silently.
 */
export async function searchMemory(paths: EchoPaths, req: SearchRequest, opts: SearchOptions = {}): Promise<SearchResult> {
  try {
    return await searchIn(paths, req, opts);
  } catch (err) {
    if (!isNotWritable(err)) throw err;
  }
  // A store this user cannot write (a read-only mount, another user's project): the index is built
  // for this query in a temporary folder, from the same files, and removed after.
  const scratch = mkdtempSync(join(tmpdir(), 'rune-echoes-search-'));
  try {
    const roots = [...paths.writableRoots, { root: scratch, base: scratch }];
    return await searchIn(
      { ...paths, stateDir: join(scratch, 'state'), locksDir: join(scratch, 'locks'), writableRoots: roots },
      req,
      opts,
    );
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function searchIn(paths: EchoPaths, req: SearchRequest, opts: SearchOptions): Promise<SearchResult> {
  const terms = searchTerms(req.query);
  let filesRead = 0;
  let rebuilt = false;
  let stale = false;
  let force = false;
  for (let attempt = 0; ; attempt++) {
    let m = readManifest(paths);
    if (force || m === null || (!opts.asIs && !isFresh(paths, m))) {
      const { updateIndex } = await import('./search-indexer.ts');
      try {
        const r = updateIndex(paths, { deadline: opts.deadline ?? NO_DEADLINE, waitMs: opts.waitMs, force });
        m = r.manifest;
        filesRead += r.read.length;
        rebuilt ||= r.rebuilt;
      } catch (err) {
        // Another process is updating: answer from the index as it stands, if there is one.
        if (!(err instanceof EchoesError && err.code === 'locked') || m === null) throw err;
        stale = true;
      }
    }
    // Hits are checked against the files the store holds now (an index copied from elsewhere holds others).
    const { heldNow } = await import('./search-indexer.ts');
    try {
      return {
        terms,
        hits: rankAndShow(paths, m, terms, req, heldNow),
        index: { documents: m.stats.memory.docs + m.stats.logs.docs, segments: m.segments.length, filesRead, rebuilt, stale },
      };
    } catch (err) {
      // A segment cleaned away by a newer writer, or a torn file: start over, rebuilding if it persists.
      if (attempt >= 3 || !(isMissingFile(err) || err instanceof IndexFormatError)) throw err;
      force = err instanceof IndexFormatError || attempt >= 1;
    }
  }
}

/** A superseded or retracted entry's score is cut by this much: it still shows, below the live ones. */
const RETIRED_FACTOR = 0.5;
/** Hits ranked beyond the limit, so that retired ones can drop below live ones that would otherwise be cut. */
const RETIRED_SLACK = 10;

function rankAndShow(
  paths: EchoPaths,
  m: Manifest,
  terms: string[],
  req: SearchRequest,
  held: (paths: EchoPaths, docs: StoredDoc[]) => boolean[],
): SearchHit[] {
  const tiers = tiersFor(req);
  const segments = openSegments(paths, m, tiers);
  const stats = { docs: 0, totalLen: 0 };
  for (const t of tiers) {
    stats.docs += m.stats[t].docs;
    stats.totalLen += m.stats[t].totalLen;
  }
  const retired = retiredKeys(m);
  const ranked: RankedDoc[] = rankDocuments(
    segments.map((s) => s.view),
    terms,
    { ...req, limit: req.limit + RETIRED_SLACK, stats },
  );
  const found = ranked.map((r) => ({ r, d: readStored(paths, segments[r.segment]!.dir, r.doc) }));
  const inFiles = held(
    paths,
    found.map((f) => f.d),
  );
  const hits = found
    .filter((_, i) => inFiles[i])
    .map(({ r, d }) => {
      const status = d.status ?? (d.id && d.role && d.source === 'memory' && retired.has(`${d.role}#${d.id}`) ? 'superseded' : undefined);
      return { r, d, status, score: status ? r.score * RETIRED_FACTOR : r.score };
    });
  hits.sort((a, b) => b.score - a.score || a.r.segment - b.r.segment || a.r.doc - b.r.doc);
  return hits.slice(0, req.limit).map(({ d, status, score }) => {
    const snip = snippetOf(d.text, d.line, terms);
    return {
      at: `${d.path}:${snip.line}`,
      path: d.path,
      line: snip.line,
      ...(d.id ? { id: d.id } : {}),
      title: d.title,
      kind: kindOf(d.source),
      source: d.source,
      ...(d.role ? { role: d.role } : {}),
      ...(d.layer ? { layer: d.layer } : {}),
      ...(d.date ? { date: d.date } : {}),
      ...(d.teammate ? { teammate: true } : {}),
      score: Math.round(score * 100) / 100,
      snippet: snip.text,
      ...(status ? { status } : {}),
    };
  });
}
