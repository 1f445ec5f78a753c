// What a person or an agent changes in a role directly: record a finding,
// remember or forget an entry, reset a role. Each under the role's lock, each
// through the security filter on the way in.
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { appendEntries, removeEntries, updateEntryFields } from '../../core/entry/document-edits.ts';
import { countLines, documentEntries, newMemoryDocumentText, serializeEchoDocument } from '../../core/entry/echo-document.ts';
import type { EchoEntry, Layer } from '../../core/entry/echo-entry.ts';
import { slugifyTitle } from '../../core/entry/entry-ids.ts';
import { sanitizeEntry } from '../../core/security/entry-sanitize.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { assertSafeName, type EchoPaths, memoryFile, roleDir } from '../fs/echo-paths.ts';
import { withLock } from '../fs/role-lock.ts';
import { storeFingerprint } from '../fs/store-key.ts';
import { ensureStoreIgnored } from '../gitignore.ts';
import { consolidateOwn, markOwn, updateOwnEtched } from './entry-origin.ts';
import { appendToEchoFile, day, forgottenMatcher, forgottenPath, readEchoFile, roleTitle, writeBackup } from './memory-files.ts';
import type { ConsolidationReport } from './role-consolidation.ts';

/** Appends entries to an agent's findings file, filtered, under the role lock. */
export function recordFindings(
  paths: EchoPaths,
  config: EchoesConfig,
  role: string,
  agent: string,
  entries: EchoEntry[],
): { path: string; recorded: EchoEntry[]; stripped: number } {
  assertSafeName(role, 'role');
  assertSafeName(agent, 'agent');
  const path = join(roleDir(paths, role), `${agent}-findings.md`);
  let stripped = 0;
  const fingerprint = storeFingerprint(paths);
  const clean = entries.map((e) => {
    const s = sanitizeEntry(e, config.ignore, { fingerprint });
    if (s.evidenceStripped) stripped += 1;
    return s.entry;
  });
  ensureStoreIgnored(paths, config.versionControlled);
  return withLock(paths, `role-${role}`, () => {
    const { doc } = readEchoFile(paths, path, `${roleTitle(role)} — findings of ${agent}`);
    const next = appendEntries(doc, clean);
    writeFileAtomic(paths, path, serializeEchoDocument(next));
    return { path, recorded: documentEntries(next).slice(-clean.length), stripped };
  });
}

/** Moves an entry to archive/forgotten.md with a tombstone, so consolidation never brings it back. */
export function forgetEntry(paths: EchoPaths, role: string, id: string, now: Date): EchoEntry | null {
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const { text, doc } = readEchoFile(paths, path, roleTitle(role), { forEdit: true });
    if (text === null) return null;
    const { doc: rest, removed } = removeEntries(doc, [id]);
    const entry = removed[0];
    if (!entry) return null;
    const tomb: EchoEntry = {
      ...entry,
      status: 'retracted',
      extra: [...entry.extra.filter(([k]) => k !== 'forgotten'), ['forgotten', day(now)]],
    };
    appendToEchoFile(paths, forgottenPath(paths, role), `${roleTitle(role)} — forgotten entries`, [tomb]);
    writeFileAtomic(paths, path, serializeEchoDocument(rest));
    // Forgotten by this clone: no longer one of its etched entries to keep.
    updateOwnEtched(paths, (rec) => {
      delete rec[`${role}#${id}`];
    });
    return entry;
  });
}

/**
 * Re-stamps an entry's `verified` day (SPEC §10 verify): someone checked it
 * against the code, so its evidence counts as fresh again from today. Only that
 * line of the file changes. Null when the entry is no longer there.
 */
export function verifyEntry(paths: EchoPaths, role: string, id: string, now: Date): { before: EchoEntry; verified: string } | null {
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const { text, doc } = readEchoFile(paths, path, roleTitle(role), { forEdit: true });
    if (text === null) return null;
    const before = documentEntries(doc).find((e) => e.id === id);
    if (!before) return null;
    const verified = day(now);
    const out = serializeEchoDocument(updateEntryFields(doc, id, { verified }));
    if (out !== text) writeFileAtomic(paths, path, out);
    return { before, verified };
  });
}

/**
 * Adds one entry straight to MEMORY.md (through consolidation, so a repeat merges).
 * A person names an entry by its title: one given without evidence whose title is
 * a live entry's is that entry (what it says is added to it), not a near-duplicate
 * `…-2`. `--layer etched` etches the entry it lands on, new or not (only the user
 * etches). Returns the report, the entry's id and the layer it has now.
 */
export function rememberEntry(
  paths: EchoPaths,
  config: EchoesConfig,
  role: string,
  entry: EchoEntry,
): ConsolidationReport & { id: string; layer: Layer } {
  const { doc } = readEchoFile(paths, memoryFile(paths, role), roleTitle(role));
  const slug = slugifyTitle(entry.title);
  const same =
    entry.evidence.trim() === ''
      ? documentEntries(doc).find((e) => !e.status && (e.id === slug || slugifyTitle(e.title) === slug))
      : undefined;
  const finding = same ? { ...entry, title: same.title, evidence: same.evidence, signature: same.signature } : entry;
  const report = addEntries(paths, config, role, [finding]).report;
  const id = report.appended[0] ?? report.updated[0] ?? same?.id ?? entry.id;
  const layer = entry.layer === 'etched' ? etchEntry(paths, role, id, config.versionControlled) : undefined;
  return { ...report, id, layer: layer ?? storedLayer(paths, role, id) ?? entry.layer };
}

/** The layer an entry of the role has on disk, or undefined when it is not there. */
function storedLayer(paths: EchoPaths, role: string, id: string): Layer | undefined {
  return documentEntries(readEchoFile(paths, memoryFile(paths, role), roleTitle(role)).doc).find((e) => e.id === id)?.layer;
}

/** Raises an entry to etched, under the role's lock: only its layer line changes. Undefined when it is not there. */
function etchEntry(paths: EchoPaths, role: string, id: string, versionControlled: boolean): Layer | undefined {
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const { text, doc } = readEchoFile(paths, path, roleTitle(role), { forEdit: true });
    const entry = documentEntries(doc).find((e) => e.id === id);
    if (text === null || !entry) return undefined;
    // The layer is part of what this clone's mark covers: an entry of its own is marked again.
    const etched = markOwn(
      paths,
      path,
      doc,
      updateEntryFields(doc, id, { layer: 'etched' }),
      { appended: [], updated: [id] },
      versionControlled,
    );
    if (entry.layer !== 'etched') writeFileAtomic(paths, path, serializeEchoDocument(etched));
    return 'etched';
  });
}

/**
 * Adds entries straight to MEMORY.md under the role's lock, through the
 * normal write path: the security filter, then consolidation (a repeat merges,
 * new ones get unique ids; `keepIds` keeps an id an imported fact carries).
 * With `skipForgotten`, an entry the user forgot stays forgotten.
 */
export function addEntries(
  paths: EchoPaths,
  config: EchoesConfig,
  role: string,
  entries: EchoEntry[],
  opts: { keepIds?: boolean; skipForgotten?: boolean } = {},
): { report: ConsolidationReport; forgotten: number; stripped: number } {
  assertSafeName(role, 'role');
  ensureStoreIgnored(paths, config.versionControlled);
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const { text, doc } = readEchoFile(paths, path, roleTitle(role), { forEdit: true });
    let stripped = 0;
    const fingerprint = storeFingerprint(paths);
    const clean = entries.map((e) => {
      const s = sanitizeEntry(e, config.ignore, { fingerprint });
      if (s.evidenceStripped) stripped++;
      return s.entry;
    });
    const isForgotten = opts.skipForgotten ? forgottenMatcher(paths, role) : () => false;
    const kept = clean.filter((e) => !isForgotten(e));
    const {
      updates,
      appends,
      doc: next,
    } = consolidateOwn(paths, path, doc, kept, config.versionControlled, { keepIds: opts.keepIds === true });
    const out = serializeEchoDocument(next);
    if (out !== text) writeFileAtomic(paths, path, out);
    return {
      report: {
        role,
        findingsFiles: 0,
        appended: appends.map((e) => e.id),
        updated: updates.map((e) => e.id),
        pruned: null,
        linesAfter: countLines(out),
      },
      forgotten: clean.length - kept.length,
      stripped,
    };
  });
}

/** Backs the role's MEMORY.md up, then empties it to its header. */
export function resetRole(paths: EchoPaths, role: string, now: Date): { backup: string | null } {
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const text = readTextOrNull(paths, path);
    if (text === null) return { backup: null };
    const backup = writeBackup(paths, role, `MEMORY-${day(now)}-reset`, text);
    writeFileAtomic(paths, path, newMemoryDocumentText(roleTitle(role)));
    updateOwnEtched(paths, (rec) => {
      for (const k of Object.keys(rec)) if (k.startsWith(`${role}#`)) delete rec[k];
    });
    return { backup };
  });
}
