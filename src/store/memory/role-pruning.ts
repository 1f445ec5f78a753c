// Pruning a role's MEMORY.md over its limit and compressing its knowledge.md
// (SPEC §5): a backup first, then the archive and knowledge files, then the
// caller writes MEMORY.md. Runs only between sessions or on request.
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { removeEntries } from '../../core/entry/document-edits.ts';
import {
  countLines,
  documentEntries,
  type EchoDocument,
  parseEchoDocument,
  serializeEchoDocument,
} from '../../core/entry/echo-document.ts';
import type { EchoEntry } from '../../core/entry/echo-entry.ts';
import { compressKnowledge } from '../../core/lifecycle/knowledge-blocks.ts';
import { type PrunePlan, planPrune } from '../../core/lifecycle/pruning.ts';
import type { UsageEvent } from '../../core/lifecycle/usage-events.ts';
import { estimateTokens } from '../../core/text.ts';
import { readTextFile, writeFileAtomic } from '../fs/atomic-file.ts';
import { archiveDir, type EchoPaths, knowledgeFile, memoryFile } from '../fs/echo-paths.ts';
import { withLock } from '../fs/role-lock.ts';
import { appendToEchoFile, day, entryLines, readEchoFile, roleTitle, writeBackup } from './memory-files.ts';

/** What pruning would move out of a memory document under the configured limits. */
export function planPruneOf(doc: EchoDocument, config: EchoesConfig, opts: { now: Date; events: UsageEvent[] }): PrunePlan {
  const { entries, otherLines } = entryLines(doc);
  return planPrune({
    entries,
    otherLines,
    maxLines: config.memoryMaxLines,
    events: opts.events,
    now: opts.now,
    window: config.relevanceWindow,
  });
}

/** Applies a prune plan to `doc`: backup first, then archive and knowledge, then the caller writes MEMORY.md. */
export function applyPrune(
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
  // Compression rewrites the file: not while it holds conflict markers (status lists them).
  if (doc.issues.some((i) => i.code === 'merge-conflict')) return null;
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
    const { text, doc } = readEchoFile(path, roleTitle(role), { forEdit: !opts.dryRun });
    const plan = planPruneOf(doc, config, opts);
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
