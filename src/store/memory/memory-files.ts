// The files of a role's memory on disk, read and written safely: a missing
// file is a fresh document, an unreadable one an error that is never
// overwritten; backups never overwrite; appends to archive files are
// idempotent. Shared by consolidation, pruning and the user's edits.
import { join } from 'node:path';
import { appendEntries } from '../../core/entry/document-edits.ts';
import {
  countLines,
  documentEntries,
  type EchoDocument,
  handWrittenBlocks,
  newMemoryDocumentText,
  parseEchoDocument,
  renderEntry,
  serializeEchoDocument,
} from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { EchoesError } from '../../core/errors.ts';
import { identityKeys } from '../../core/lifecycle/consolidation.ts';
import { createFileExclusive, readTextFile, readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { archiveDir, type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import { listRoles } from './role-listing.ts';

export const roleTitle = (role: string): string =>
  `${role
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')} Memory`;

/** YYYY-MM-DD of a moment, for backup and tombstone names. */
export const day = (now: Date): string => now.toISOString().slice(0, 10);

export interface ReadOptions {
  /**
   * The caller will rewrite the file. One that git left with conflict markers
   * (a pull from before the merge driver was installed) is then refused until a
   * person resolves it: an edit would only bury the conflict deeper. Findings
   * wait in their files meanwhile; `status` lists the lines.
   */
  forEdit?: boolean;
}

/** Reads a memory file; a missing one is a fresh document, an unreadable one an error (never overwritten). */
export function readEchoFile(
  paths: EchoPaths,
  path: string,
  title: string,
  opts: ReadOptions = {},
): { text: string | null; doc: EchoDocument } {
  const { text, unreadable } = readTextFile(paths, path);
  if (unreadable) {
    throw new EchoesError('unreadable', `${path} is not a text memory file; left as it is (move it away to start fresh)`);
  }
  const doc = parseEchoDocument(text ?? newMemoryDocumentText(title));
  if (opts.forEdit) {
    const at = doc.issues.filter((i) => i.code === 'merge-conflict').map((i) => i.line);
    if (at.length > 0)
      throw new EchoesError(
        'conflicted',
        `${path} has an unresolved merge conflict (markers from line${at.length > 1 ? 's' : ''} ${at.join(', ')}); nothing written: keep what is right, delete the marker lines, then run again`,
      );
  }
  return { text, doc };
}

/** Entries of a document with the number of lines each block takes. */
export function entryLines(doc: EchoDocument): { entries: Array<{ entry: EchoEntry; lines: number }>; otherLines: number } {
  const entries: Array<{ entry: EchoEntry; lines: number }> = [];
  let otherLines = 0;
  for (const b of doc.blocks) {
    const lines = countLines(b.text);
    if (b.type === 'entry') entries.push({ entry: b.entry, lines });
    else otherLines += lines;
  }
  return { entries, otherLines };
}

/** Writes `text` to archive/<stem>.md, or <stem>-2.md … when that name is taken. Never overwrites. */
export function writeBackup(paths: EchoPaths, role: string, stem: string, text: string): string {
  const dir = archiveDir(paths, role);
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? `${stem}.md` : `${stem}-${n}.md`);
    if (createFileExclusive(paths, path, text)) return path;
  }
}

/** Appends entries to an echo file (archive or knowledge), creating it with a header. */
export function appendToEchoFile(paths: EchoPaths, path: string, title: string, entries: EchoEntry[]): void {
  if (entries.length === 0) return;
  // Appending after the last line leaves conflict markers (if any) as they were: not made worse.
  const { doc } = readEchoFile(paths, path, title);
  // Idempotent: a re-run after a kill must not archive the same entry twice.
  // The whole rendered entry is the key, so two different entries never collide.
  const present = new Set(documentEntries(doc).map((e) => renderEntry(e)));
  const fresh = entries.filter((e) => !present.has(renderEntry(e)));
  if (fresh.length) writeFileAtomic(paths, path, serializeEchoDocument(appendEntries(doc, fresh)));
}

/**
 * Appends entry blocks to an archive file exactly as they were, each after a
 * header line saying when and why it moved (a `##` heading, so it also ends a
 * legacy entry above it). Idempotent: a re-run after a kill finds the bytes
 * it already wrote and does not add them twice.
 */
export function appendArchivedBlocks(paths: EchoPaths, path: string, title: string, blocks: Array<{ header: string; text: string }>): void {
  if (blocks.length === 0) return;
  const { text: current, unreadable } = readTextFile(paths, path);
  if (unreadable) {
    throw new EchoesError('unreadable', `${path} is not a text memory file; left as it is (move it away to archive again)`);
  }
  let text = current ?? newMemoryDocumentText(title);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const present = new Map<string, number>();
  const occurrences = (needle: string): number => {
    let n = 0;
    for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
    return n;
  };
  let added = false;
  for (const b of blocks) {
    // Two identical blocks archived together are two entries: count them.
    const seen = (present.get(b.text) ?? 0) + 1;
    present.set(b.text, seen);
    if (occurrences(b.text) >= seen) continue;
    if (!text.endsWith('\n') && !text.endsWith('\r')) text += eol;
    text += `${eol}${b.header}${eol}${b.text}`;
    if (!b.text.endsWith('\n') && !b.text.endsWith('\r')) text += eol;
    added = true;
  }
  if (added) writeFileAtomic(paths, path, text);
}

/** Entries another entry's `supersedes` retired, each with `superseded_by` naming its successor. */
export const supersededPath = (paths: EchoPaths, role: string) => join(archiveDir(paths, role), 'superseded.md');

/** Tombstones of forgotten entries: consolidation never brings these back. */
export const forgottenPath = (paths: EchoPaths, role: string) => join(archiveDir(paths, role), 'forgotten.md');

/** Whether a finding is one the user forgot, by identity (see identityKeys). */
export function forgottenMatcher(paths: EchoPaths, role: string): (entry: EchoEntry) => boolean {
  const text = readTextOrNull(paths, forgottenPath(paths, role));
  if (text === null) return () => false;
  const keys = new Set(documentEntries(parseEchoDocument(text)).flatMap((e) => identityKeys({ ...e, idExplicit: true })));
  return (entry) => identityKeys(entry).some((k) => keys.has(k));
}

/** Every role's entries, for show, search and the digest. Unreadable files are reported, not thrown. */
export function readAllEntries(paths: EchoPaths): {
  roles: Array<{ role: string; entries: EchoEntry[]; lines: number; verbatimBlocks: number; error?: string }>;
} {
  const roles = listRoles(paths).map((role) => {
    try {
      const { text, doc } = readEchoFile(paths, memoryFile(paths, role), roleTitle(role));
      return {
        role,
        entries: text === null ? [] : documentEntries(doc),
        lines: text === null ? 0 : countLines(text),
        verbatimBlocks: text === null ? 0 : handWrittenBlocks(doc),
      };
    } catch (err) {
      return { role, entries: [], lines: 0, verbatimBlocks: 0, error: err instanceof Error ? err.message : String(err) };
    }
  });
  return { roles };
}
