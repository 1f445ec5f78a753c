// Provenance of entries (SPEC §6b): which entries of a memory file are a
// teammate's, and the mark this clone puts on the entries it writes
// (core/team/provenance.ts). Only a file git tracks can hold a teammate's
// entry — they arrive through a pull, a merge or a clone — so in any other
// file every entry is this clone's and nothing is checked.

import { updateEntryFields } from '../../core/entry/document-edits.ts';
import { documentEntries, type EchoDocument, parseEchoDocument, serializeEchoDocument } from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { markedByKey, originMark } from '../../core/team/provenance.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, isTrackedInStore, memoryFile } from '../fs/echo-paths.ts';
import { storeKey } from '../fs/store-key.ts';

const keys = new WeakMap<EchoPaths, string | null>();

/** This store's key, or null when it cannot be read or made (a read-only store: nothing is marked ours). */
function originKey(paths: EchoPaths): string | null {
  if (keys.has(paths)) return keys.get(paths) ?? null;
  let key: string | null = null;
  try {
    key = storeKey(paths);
  } catch {
    key = null;
  }
  keys.set(paths, key);
  return key;
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
