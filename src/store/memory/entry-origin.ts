// Provenance of entries (SPEC §6b): which entries of a memory file are a
// teammate's, and the mark this clone puts on the entries it writes
// (core/team/provenance.ts). Only a file git tracks can hold a teammate's
// entry — they arrive through a pull, a merge or a clone — so in any other
// file every entry is this clone's and nothing is checked.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { updateEntryFields } from '../../core/entry/document-edits.ts';
import {
  documentEntries,
  type EchoDocument,
  parseEchoDocument,
  renderEntry,
  serializeEchoDocument,
} from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { consolidateDocument, type DocumentConsolidation } from '../../core/lifecycle/consolidation.ts';
import { markedByKey, originMark } from '../../core/team/provenance.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, isTrackedInStore, memoryFile } from '../fs/echo-paths.ts';
import { findGitDirs } from '../fs/git-dirs.ts';
import { withLock } from '../fs/role-lock.ts';
import { storeKey } from '../fs/store-key.ts';

const keys = new WeakMap<EchoPaths, string | null>();

/**
 * This clone's key, kept in its git folder (`.git/rune-echoes/origin-key`): no commit can hold it and
 * no pull can replace it, unlike anything under the work tree (git overwrites an ignored file with a
 * tracked one). Made on first use. Outside a repository nothing is shared, so the store's own key
 * serves. Null when it can be neither read nor made (nothing is then marked ours).
 */
function originKey(paths: EchoPaths): string | null {
  if (keys.has(paths)) return keys.get(paths) ?? null;
  let key: string | null = null;
  try {
    const dirs = findGitDirs(paths.project);
    key = dirs ? gitFolderKey(join(dirs.commonDir, 'rune-echoes', 'origin-key')) : storeKey(paths);
  } catch {
    key = null;
  }
  keys.set(paths, key);
  return key;
}

const KEY_SHAPE = /^[0-9a-f]{32,}$/;

function gitFolderKey(file: string): string {
  const read = () => {
    try {
      const text = readFileSync(file, 'utf8').trim();
      return KEY_SHAPE.test(text) ? text : null;
    } catch {
      return null;
    }
  };
  const existing = read();
  if (existing) return existing;
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const key = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  mkdirSync(dirname(file), { recursive: true });
  try {
    // The one write of the store outside the memory folders besides the merge driver's: git's own folder.
    writeFileSync(file, `${key}\n`, { flag: 'wx', mode: 0o600 });
    return key;
  } catch {
    // Made by another process at once: the first file wins.
    const again = read();
    if (again) return again;
    throw new Error(`cannot make ${file}`);
  }
}

/** For one memory file: whether an entry of it is a teammate's (no valid mark of this clone in a file git tracks). */
export function teammateCheck(paths: EchoPaths, file: string): (entry: EchoEntry) => boolean {
  if (!isTrackedInStore(paths, file)) return () => false;
  const key = originKey(paths);
  return (entry) => !markedByKey(entry, key);
}

/** Findings merged into a memory document by the one consolidation (SPEC §6), this clone's mark on what it wrote. */
export function consolidateOwn(
  paths: EchoPaths,
  file: string,
  doc: EchoDocument,
  findings: EchoEntry[],
  versionControlled: boolean,
  opts: { keepIds?: boolean } = {},
): DocumentConsolidation {
  const merged = consolidateDocument(doc, findings, opts);
  const changed = { appended: merged.appends.map((e) => e.id), updated: merged.updates.map((e) => e.id) };
  return { ...merged, doc: markOwn(paths, file, doc, merged.doc, changed, versionControlled) };
}

/**
 * The document this clone writes, with its mark on the entries it wrote now: every appended entry,
 * and every updated one that was this clone's before (a teammate's entry stays theirs when a finding
 * of ours merges into it). Only where memory is shared (team mode, or a file git tracks): a private
 * store's entries are all its own, and `team init` marks them when sharing begins.
 */
export function markOwn(
  paths: EchoPaths,
  file: string,
  before: EchoDocument,
  after: EchoDocument,
  changed: { appended: readonly string[]; updated: readonly string[] },
  versionControlled: boolean,
): EchoDocument {
  if (changed.appended.length === 0 && changed.updated.length === 0) return after;
  if (!versionControlled && !isTrackedInStore(paths, file)) return after;
  const key = originKey(paths);
  if (key === null) return after;
  const theirs = teammateCheck(paths, file);
  const was = new Map(documentEntries(before).map((e) => [e.id, e]));
  const own = new Set([...changed.appended, ...changed.updated.filter((id) => was.has(id) && !theirs(was.get(id)!))]);
  let doc = after;
  for (const e of documentEntries(after)) {
    if (!own.has(e.id)) continue;
    const mark = originMark(e, key);
    if (e.origin !== mark) doc = updateEntryFields(doc, e.id, { origin: mark });
  }
  // This clone's etched entries, as it wrote them, are kept beside its key: a teammate's commit that
  // changes or removes one cannot take it from this clone's digest.
  const role = basename(dirname(file));
  const etched = documentEntries(doc).filter((e) => own.has(e.id));
  if (etched.length) {
    updateOwnEtched(paths, (rec) => {
      for (const e of etched) {
        const k = `${role}#${e.id}`;
        if (e.layer === 'etched' && e.status === undefined) rec[k] = renderEntry(e);
        else delete rec[k];
      }
    });
  }
  return doc;
}

type OwnEtched = Record<string, string>;

/** Where this clone keeps its etched entries for the store (null outside a repository: nothing is shared). */
function ownEtchedFile(paths: EchoPaths): string | null {
  const dirs = findGitDirs(paths.project);
  return dirs ? join(dirs.commonDir, 'rune-echoes', 'etched.json') : null;
}

function readOwnEtched(paths: EchoPaths): OwnEtched {
  const file = ownEtchedFile(paths);
  if (file === null) return {};
  try {
    const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, OwnEtched>;
    const mine = all?.[paths.echoes];
    return mine && typeof mine === 'object' ? mine : {};
  } catch {
    return {};
  }
}

/** Changes this store's record under a lock (temp file and rename beside it); a failure only costs the safeguard. */
export function updateOwnEtched(paths: EchoPaths, change: (rec: OwnEtched) => void): void {
  const file = ownEtchedFile(paths);
  if (file === null) return;
  try {
    withLock(
      paths,
      'own-etched',
      () => {
        let all: Record<string, OwnEtched> = {};
        try {
          all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, OwnEtched>;
        } catch {
          /* none yet */
        }
        const rec = { ...(all[paths.echoes] ?? {}) };
        change(rec);
        all[paths.echoes] = rec;
        mkdirSync(dirname(file), { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
        renameSync(tmp, file);
      },
      { waitMs: 2000 },
    );
  } catch {
    /* the record is a safeguard; memory itself is written */
  }
}

/**
 * This clone's etched entries that a teammate's commit changed (they no longer carry its mark, or
 * were given a status) or removed: as this clone wrote them, to be given beside whatever the file holds now.
 */
export function rewrittenOwnEtched(
  paths: EchoPaths,
  items: ReadonlyArray<{ role: string; entry: EchoEntry; teammate?: boolean }>,
): Array<{ role: string; entry: EchoEntry; restored: 'changed' | 'removed' }> {
  const rec = readOwnEtched(paths);
  const keys = Object.keys(rec);
  if (keys.length === 0) return [];
  const out: Array<{ role: string; entry: EchoEntry; restored: 'changed' | 'removed' }> = [];
  for (const k of keys) {
    const at = k.indexOf('#');
    const [role, id] = [k.slice(0, at), k.slice(at + 1)];
    const now = items.filter((it) => it.role === role && it.entry.id === id);
    if (now.some((it) => !it.teammate && it.entry.layer === 'etched' && it.entry.status === undefined)) continue;
    const entry = documentEntries(parseEchoDocument(rec[k] ?? '')).find((e) => e.id === id);
    if (entry) out.push({ role, entry, restored: now.length ? 'changed' : 'removed' });
  }
  return out;
}

/**
 * `team init`: the entries of memory files git does not track yet were written in this clone (or
 * copied in by its user); they are marked as this clone's before sharing begins. Entries that carry
 * a mark already, and every file git tracks (the team's), are left as they are.
 */
export function markUntrackedEntries(paths: EchoPaths, roles: readonly string[]): number {
  const key = originKey(paths);
  if (key === null) return 0;
  let marked = 0;
  for (const role of roles) {
    const file = memoryFile(paths, role);
    if (isTrackedInStore(paths, file)) continue;
    // Under the role's lock, as every write of MEMORY.md.
    withLock(paths, `role-${role}`, () => {
      const text = readTextOrNull(paths, file);
      if (text === null) return;
      let doc = parseEchoDocument(text);
      if (doc.issues.some((i) => i.code === 'merge-conflict')) return;
      for (const e of documentEntries(doc)) {
        if (e.origin !== undefined) continue;
        doc = updateEntryFields(doc, e.id, { origin: originMark(e, key) });
        marked++;
      }
      const out = serializeEchoDocument(doc);
      if (out !== text) writeFileAtomic(paths, file, out);
    });
  }
  return marked;
}

/** Every role's entries with whose they are, for what decides across roles (supersession in show, evidence, the digest). */
export function entriesWithOrigin(
  paths: EchoPaths,
  roles: ReadonlyArray<{ role: string; entries: readonly EchoEntry[] }>,
): Array<{ role: string; entry: EchoEntry; teammate: boolean }> {
  return roles.flatMap((r) => {
    const theirs = teammateCheck(paths, memoryFile(paths, r.role));
    return r.entries.map((entry) => ({ role: r.role, entry, teammate: theirs(entry) }));
  });
}
