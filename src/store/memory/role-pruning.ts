// Pruning a role's MEMORY.md over its limit and compressing its knowledge.md
// (SPEC §5): a backup first, then the archive and knowledge files, then the
// caller writes MEMORY.md. Runs only between sessions or on request.
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { appendEntries, removeEntries } from '../../core/entry/document-edits.ts';
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
  onCompressed?: (k: KnowledgeCompression) => void,
): EchoDocument {
  if (plan.archive.length === 0 && plan.compress.length === 0) return doc;
  writeBackup(paths, role, `MEMORY-${day(now)}`, originalText);
  const { doc: rest, removed } = removeEntries(doc, [...plan.archive, ...plan.compress]);
  const byId = new Map(removed.map((e) => [e.id, e]));
  const pick = (ids: string[]) => ids.map((id) => byId.get(id)).filter((e): e is EchoEntry => e !== undefined);
  appendToEchoFile(paths, join(archiveDir(paths, role), 'pruned.md'), `${roleTitle(role)} — archived entries`, pick(plan.archive));
  appendToEchoFile(paths, knowledgeFile(paths, role), `${roleTitle(role)} — knowledge`, pick(plan.compress));
  const compressed = compressKnowledgeFile(paths, role, knowledgeMaxLines, now);
  if (compressed) onCompressed?.(compressed);
  return rest;
}

/** What compressing a knowledge.md does: sizes before and after, and the topic of every block. */
export interface KnowledgeCompression {
  linesBefore: number;
  linesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  blocks: Array<{ topic: string; ids: string[]; evidence: string[] }>;
}

/** Compression of a knowledge.md text, planned but not written; null when it is within its limit. */
export function planKnowledgeCompression(
  text: string | null,
  maxLines: number,
  now: Date,
): { summary: KnowledgeCompression; next: string; entries: EchoEntry[] } | null {
  if (text === null || countLines(text) <= maxLines) return null;
  const doc = parseEchoDocument(text);
  const entries = documentEntries(doc);
  if (entries.length === 0) return null;
  const { doc: rest } = removeEntries(
    doc,
    entries.map((e) => e.id),
  );
  const kept = serializeEchoDocument(rest).replace(/\s+$/, '');
  const { text: blocksText, blocks } = compressKnowledge(entries, { now });
  const next = `${kept}\n\n${blocksText.replace(/\s+$/, '')}\n`;
  const summary: KnowledgeCompression = {
    linesBefore: countLines(text),
    linesAfter: countLines(next),
    tokensBefore: estimateTokens(text),
    tokensAfter: estimateTokens(next),
    blocks: blocks.map((b) => ({ topic: b.topic, ids: b.ids, evidence: b.evidence })),
  };
  return { summary, next, entries };
}

/**
 * knowledge.md over its limit: entries become knowledge blocks (SPEC §5).
 * The original entries are archived first, so compression loses nothing.
 */
export function compressKnowledgeFile(paths: EchoPaths, role: string, maxLines: number, now: Date): KnowledgeCompression | null {
  const path = knowledgeFile(paths, role);
  const planned = planKnowledgeCompression(readTextFile(path).text, maxLines, now);
  if (planned === null) return null;
  appendToEchoFile(
    paths,
    join(archiveDir(paths, role), 'knowledge-compressed.md'),
    `${roleTitle(role)} — entries compressed into knowledge blocks`,
    planned.entries,
  );
  writeFileAtomic(paths, path, planned.next);
  return planned.summary;
}

/** knowledge.md as it would be once the entries pruning compresses are appended to it (nothing is written). */
function knowledgeAfterPrune(paths: EchoPaths, role: string, memory: EchoDocument, plan: PrunePlan): string | null {
  const { text } = readTextFile(knowledgeFile(paths, role));
  if (plan.compress.length === 0) return text;
  const { removed } = removeEntries(memory, plan.compress);
  const { doc } = readEchoFile(knowledgeFile(paths, role), `${roleTitle(role)} — knowledge`);
  return serializeEchoDocument(appendEntries(doc, removed));
}

export interface PruneReport {
  role: string;
  plan: PrunePlan;
  linesBefore: number;
  dryRun: boolean;
  /** What knowledge.md compression did, or would do on a dry run; null when knowledge.md is within its limit. */
  knowledge: KnowledgeCompression | null;
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
    const plan = planPruneOf(doc, config, opts);
    const linesBefore = text === null ? 0 : countLines(text);
    if (opts.dryRun) {
      const knowledge = planKnowledgeCompression(knowledgeAfterPrune(paths, role, doc, plan), config.knowledgeMaxLines, opts.now);
      return { role, plan, linesBefore, dryRun: true, knowledge: knowledge?.summary ?? null };
    }
    // Pruning may compress knowledge.md itself (entries moved in pushed it over); otherwise it is checked here.
    let knowledge: KnowledgeCompression | null = null;
    if (text !== null) {
      const next = applyPrune(paths, role, doc, text, plan, opts.now, config.knowledgeMaxLines, (k) => {
        knowledge = k;
      });
      const out = serializeEchoDocument(next);
      if (out !== text) writeFileAtomic(paths, path, out);
    }
    knowledge = compressKnowledgeFile(paths, role, config.knowledgeMaxLines, opts.now) ?? knowledge;
    return { role, plan, linesBefore, dryRun: false, knowledge };
  };
  return opts.dryRun ? run() : withLock(paths, `role-${role}`, run);
}
