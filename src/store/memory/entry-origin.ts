// Provenance of entries (SPEC §6b): which entries of a memory file are a
// teammate's, and the mark this clone puts on the entries it writes
// (core/team/provenance.ts). Only a file git tracks can hold a teammate's
// entry — they arrive through a pull, a merge or a clone — so in any other
// file every entry is this clone's and nothing is checked.

import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { updateEntryFields } from '../../core/entry/document-edits.ts';
import { documentEntries, type EchoDocument, parseEchoDocument, serializeEchoDocument } from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { markedByKey, originMark } from '../../core/team/provenance.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, isTrackedInStore, memoryFile } from '../fs/echo-paths.ts';
import { findGitDirs } from '../fs/git-dirs.ts';
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
  return doc;
}

/**
 * `team init`: the entries of memory files git does not track yet were written in this clone (or
 * copied in by its user); they are marked as this clone's before sharing begins. Entries that carry
 * a mark already, and every file git tracks (the team's), are left as they are.
 */
export function markUntrackedEntries(paths: EchoPaths, files: readonly string[]): number {
  const key = originKey(paths);
  if (key === null) return 0;
  let marked = 0;
  for (const file of files) {
    if (isTrackedInStore(paths, file)) continue;
    const text = readTextOrNull(paths, file);
    if (text === null) continue;
    let doc = parseEchoDocument(text);
    if (doc.issues.some((i) => i.code === 'merge-conflict')) continue;
    for (const e of documentEntries(doc)) {
      if (e.origin !== undefined) continue;
      doc = updateEntryFields(doc, e.id, { origin: originMark(e, key) });
      marked++;
    }
    const out = serializeEchoDocument(doc);
    if (out !== text) writeFileAtomic(paths, file, out);
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
