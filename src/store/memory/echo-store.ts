// Role-level operations on disk: read files, ask the pure core for a plan,
// apply it atomically under the role's lock (SPEC §5, §6). Every function here
// is safe to run from many processes at once and to kill at any instant:
// MEMORY.md is replaced atomically, findings are deleted only after the
// memory that holds them is on disk, and re-running is idempotent.
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import {
  appendEntries,
  countLines,
  documentEntries,
  type EchoDocument,
  newMemoryDocumentText,
  parseEchoDocument,
  removeEntries,
  renderEntry,
  serializeEchoDocument,
} from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { readFindingsText } from '../../core/entry/findings-file.ts';
import { EchoesError } from '../../core/errors.ts';
import { consolidateDocument, matchKey } from '../../core/lifecycle/consolidation.ts';
import { compressKnowledge } from '../../core/lifecycle/knowledge-blocks.ts';
import { type PrunePlan, planPrune } from '../../core/lifecycle/pruning.ts';
import type { UsageEvent } from '../../core/lifecycle/usage-events.ts';
import { sanitizeEntry } from '../../core/security/entry-sanitize.ts';
import { estimateTokens } from '../../core/text.ts';
import { createFileExclusive, readTextFile, readTextOrNull, removeFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { archiveDir, assertSafeName, type EchoPaths, knowledgeFile, memoryFile, roleDir } from '../fs/echo-paths.ts';
import { type Deadline, withLock } from '../fs/role-lock.ts';
import { listFindingsFiles, listRoles } from './role-listing.ts';

export { listFindingsFiles, listRoles };

import { ensureStoreIgnored } from '../gitignore.ts';

export const roleTitle = (role: string): string =>
  `${role
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ')} Memory`;

const day = (now: Date): string => now.toISOString().slice(0, 10);

/** Reads a memory file; a missing one is a fresh document, an unreadable one an error (never overwritten). */
export function readEchoFile(path: string, title: string): { text: string | null; doc: EchoDocument } {
  const { text, unreadable } = readTextFile(path);
  if (unreadable) {
    throw new EchoesError('unreadable', `${path} is not a text memory file; left as it is (move it away to start fresh)`);
  }
  return { text, doc: parseEchoDocument(text ?? newMemoryDocumentText(title)) };
}

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
  const clean = entries.map((e) => {
    const s = sanitizeEntry(e, config.ignore);
    if (s.evidenceStripped) stripped += 1;
    return s.entry;
  });
  ensureStoreIgnored(paths, config.versionControlled);
  return withLock(paths, `role-${role}`, () => {
    const { doc } = readEchoFile(path, `${roleTitle(role)} — findings of ${agent}`);
    const next = appendEntries(doc, clean);
    writeFileAtomic(paths, path, serializeEchoDocument(next));
    return { path, recorded: documentEntries(next).slice(-clean.length), stripped };
  });
}

export interface ConsolidationReport {
  role: string;
  findingsFiles: number;
  /** Findings files that held more than entries, moved to archive/ (paths). */
  keptUnparsed?: string[];
  appended: string[];
  updated: string[];
  pruned: PrunePlan | null;
  linesAfter: number;
}

export interface LifecycleOptions {
  now: Date;
  /** Pruning runs only between sessions (SPEC §5). */
  prune: boolean;
  events: UsageEvent[];
  deadline?: Deadline;
}

/** Entries of a document with the number of lines each block takes. */
function entryLines(doc: EchoDocument): { entries: Array<{ entry: EchoEntry; lines: number }>; otherLines: number } {
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
function writeBackup(paths: EchoPaths, role: string, stem: string, text: string): string {
  const dir = archiveDir(paths, role);
  for (let n = 1; ; n++) {
    const path = join(dir, n === 1 ? `${stem}.md` : `${stem}-${n}.md`);
    if (createFileExclusive(paths, path, text)) return path;
  }
}

/** Appends entries to an echo file (archive or knowledge), creating it with a header. */
function appendToEchoFile(paths: EchoPaths, path: string, title: string, entries: EchoEntry[]): void {
  if (entries.length === 0) return;
  const { doc } = readEchoFile(path, title);
  // Idempotent: a re-run after a kill must not archive the same entry twice.
  // The whole rendered entry is the key, so two different entries never collide.
  const present = new Set(documentEntries(doc).map((e) => renderEntry(e)));
  const fresh = entries.filter((e) => !present.has(renderEntry(e)));
  if (fresh.length) writeFileAtomic(paths, path, serializeEchoDocument(appendEntries(doc, fresh)));
}

/** Applies a prune plan to `doc`: backup first, then archive and knowledge, then the caller writes MEMORY.md. */
function applyPrune(
  paths: EchoPaths,
  role: string,
  doc: EchoDocument,
  originalText: string,
  plan: PrunePlan,
  now: Date,
  knowledgeMaxLines: number,
): EchoDocument {
  if (plan.archive.length === 0 && plan.compress.length === 0) return doc;
  writeBackup(paths, role, `MEMORY-${day(now)}`, originalText);
  const { doc: rest, removed } = removeEntries(doc, [...plan.archive, ...plan.compress]);
  const byId = new Map(removed.map((e) => [e.id, e]));
  const pick = (ids: string[]) => ids.map((id) => byId.get(id)).filter((e): e is EchoEntry => e !== undefined);
  appendToEchoFile(paths, join(archiveDir(paths, role), 'pruned.md'), `${roleTitle(role)} — archived entries`, pick(plan.archive));
  appendToEchoFile(paths, knowledgeFile(paths, role), `${roleTitle(role)} — knowledge`, pick(plan.compress));
  compressKnowledgeFile(paths, role, knowledgeMaxLines, now);
  return rest;
}

/**
 * knowledge.md over its limit: entries become knowledge blocks (SPEC §5).
 * The original entries are archived first, so compression loses nothing.
 */
export function compressKnowledgeFile(
  paths: EchoPaths,
  role: string,
  maxLines: number,
  now: Date,
): { before: number; after: number } | null {
  const path = knowledgeFile(paths, role);
  const { text } = readTextFile(path);
  if (text === null || countLines(text) <= maxLines) return null;
  const doc = parseEchoDocument(text);
  const entries = documentEntries(doc);
  if (entries.length === 0) return null;
  appendToEchoFile(
    paths,
    join(archiveDir(paths, role), 'knowledge-compressed.md'),
    `${roleTitle(role)} — entries compressed into knowledge blocks`,
    entries,
  );
  const { doc: rest } = removeEntries(
    doc,
    entries.map((e) => e.id),
  );
  const kept = serializeEchoDocument(rest).replace(/\s+$/, '');
  const { text: blocks } = compressKnowledge(entries, { now });
  const next = `${kept}\n\n${blocks.replace(/\s+$/, '')}\n`;
  writeFileAtomic(paths, path, next);
  return { before: estimateTokens(text), after: estimateTokens(next) };
}

/** The six steps of the consolidation protocol (seed 000) for one role. */
export function consolidateRole(paths: EchoPaths, config: EchoesConfig, role: string, opts: LifecycleOptions): ConsolidationReport {
  assertSafeName(role, 'role');
  return withLock(
    paths,
    `role-${role}`,
    () => {
      const path = memoryFile(paths, role);
      const { text, doc } = readEchoFile(path, roleTitle(role));
      const readFindings = (file: string) => readTextFile(file, { stripNul: true }).text;
      const files = listFindingsFiles(paths, role).map((f) => ({ ...f, text: readFindings(f.path) }));
      const readable = files
        .filter((f): f is typeof f & { text: string } => f.text !== null)
        .map((f) => ({ ...f, ...readFindingsText(f.text) }));
      const forgotten = forgottenKeys(paths, role);
      const findings = readable
        .flatMap((f) => f.entries)
        .map((e) => sanitizeEntry(e, config.ignore).entry)
        // Etched memory is the user's (SPEC §4): a finding, however written, enters as inscribed.
        .map((e): EchoEntry => (e.layer === 'etched' ? { ...e, layer: 'inscribed' } : e))
        .filter((e) => !forgotten.has(matchKey(e)));

      const { updates, appends, doc: merged } = consolidateDocument(doc, findings);
      let next = merged;

      let pruned: PrunePlan | null = null;
      const { entries, otherLines } = entryLines(next);
      const lines = otherLines + entries.reduce((s, e) => s + e.lines, 0);
      if (opts.prune && lines > config.memoryMaxLines) {
        pruned = planPrune({
          entries,
          otherLines,
          maxLines: config.memoryMaxLines,
          events: opts.events,
          now: opts.now,
          window: config.relevanceWindow,
        });
        next = applyPrune(paths, role, next, text ?? serializeEchoDocument(doc), pruned, opts.now, config.knowledgeMaxLines);
      }

      const out = serializeEchoDocument(next);
      if (out !== text) writeFileAtomic(paths, path, out);
      // Only now that MEMORY.md holds them may the findings go; a file rewritten
      // meanwhile (an agent writing directly) is kept for the next run.
      // A file with text that is not an entry is moved to the archive, never deleted with it.
      const kept: string[] = [];
      for (const f of readable) {
        if (readFindings(f.path) !== f.text) continue;
        if (f.leftover.trim() !== '') kept.push(writeBackup(paths, role, `unparsed-${f.agent}-findings-${day(opts.now)}`, f.text));
        removeFile(paths, f.path);
      }
      return {
        role,
        findingsFiles: readable.length,
        keptUnparsed: kept,
        appended: appends.map((e) => e.id),
        updated: updates.map((e) => e.id),
        pruned,
        linesAfter: countLines(out),
      };
    },
    { deadline: opts.deadline },
  );
}

const forgottenPath = (paths: EchoPaths, role: string) => join(archiveDir(paths, role), 'forgotten.md');

function forgottenKeys(paths: EchoPaths, role: string): Set<string> {
  const text = readTextOrNull(forgottenPath(paths, role));
  if (text === null) return new Set();
  return new Set(documentEntries(parseEchoDocument(text)).map(matchKey));
}

/** Moves an entry to archive/forgotten.md with a tombstone, so consolidation never brings it back. */
export function forgetEntry(paths: EchoPaths, role: string, id: string, now: Date): EchoEntry | null {
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const { text, doc } = readEchoFile(path, roleTitle(role));
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
    return entry;
  });
}

/** Adds one entry straight to MEMORY.md (through consolidation, so a repeat merges). */
export function rememberEntry(paths: EchoPaths, config: EchoesConfig, role: string, entry: EchoEntry): ConsolidationReport {
  ensureStoreIgnored(paths, config.versionControlled);
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const { text, doc } = readEchoFile(path, roleTitle(role));
    const clean = sanitizeEntry(entry, config.ignore).entry;
    const { updates, appends, doc: next } = consolidateDocument(doc, [clean]);
    const out = serializeEchoDocument(next);
    if (out !== text) writeFileAtomic(paths, path, out);
    return {
      role,
      findingsFiles: 0,
      appended: appends.map((e) => e.id),
      updated: updates.map((e) => e.id),
      pruned: null,
      linesAfter: countLines(out),
    };
  });
}

export interface PruneReport {
  role: string;
  plan: PrunePlan;
  linesBefore: number;
  dryRun: boolean;
}

export function pruneRole(
  paths: EchoPaths,
  config: EchoesConfig,
  role: string,
  opts: { now: Date; events: UsageEvent[]; dryRun: boolean },
): PruneReport {
  const run = () => {
    const path = memoryFile(paths, role);
    const { text, doc } = readEchoFile(path, roleTitle(role));
    const { entries, otherLines } = entryLines(doc);
    const plan = planPrune({
      entries,
      otherLines,
      maxLines: config.memoryMaxLines,
      events: opts.events,
      now: opts.now,
      window: config.relevanceWindow,
    });
    const linesBefore = text === null ? 0 : countLines(text);
    if (!opts.dryRun && text !== null) {
      const next = applyPrune(paths, role, doc, text, plan, opts.now, config.knowledgeMaxLines);
      const out = serializeEchoDocument(next);
      if (out !== text) writeFileAtomic(paths, path, out);
    }
    if (!opts.dryRun) compressKnowledgeFile(paths, role, config.knowledgeMaxLines, opts.now);
    return { role, plan, linesBefore, dryRun: opts.dryRun };
  };
  return opts.dryRun ? run() : withLock(paths, `role-${role}`, run);
}

/** Backs the role's MEMORY.md up, then empties it to its header. */
export function resetRole(paths: EchoPaths, role: string, now: Date): { backup: string | null } {
  return withLock(paths, `role-${role}`, () => {
    const path = memoryFile(paths, role);
    const text = readTextOrNull(path);
    if (text === null) return { backup: null };
    const backup = writeBackup(paths, role, `MEMORY-${day(now)}-reset`, text);
    writeFileAtomic(paths, path, newMemoryDocumentText(roleTitle(role)));
    return { backup };
  });
}

/** Every role's entries, for show, search and the digest. Unreadable files are reported, not thrown. */
export function readAllEntries(paths: EchoPaths): {
  roles: Array<{ role: string; entries: EchoEntry[]; lines: number; verbatimBlocks: number; error?: string }>;
} {
  const roles = listRoles(paths).map((role) => {
    try {
      const { text, doc } = readEchoFile(memoryFile(paths, role), roleTitle(role));
      return {
        role,
        entries: text === null ? [] : documentEntries(doc),
        lines: text === null ? 0 : countLines(text),
        verbatimBlocks: text === null ? 0 : doc.blocks.filter((b) => b.type === 'verbatim').length,
      };
    } catch (err) {
      return { role, entries: [], lines: 0, verbatimBlocks: 0, error: err instanceof Error ? err.message : String(err) };
    }
  });
  return { roles };
}
