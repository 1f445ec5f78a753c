// Pruning a role's MEMORY.md over its limit and compressing its knowledge.md
// (SPEC §5): a backup first, then the archive and knowledge files, then the
// caller writes MEMORY.md. Runs only between sessions (a few entries at a
// time) or on request (`prune`, the whole plan). Archived entries keep their
// exact bytes under a header line saying when and why they moved.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { appendEntries, moveOutEntries, removeEntries } from '../../core/entry/document-edits.ts';
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
import { appendArchivedBlocks, appendToEchoFile, day, entryLines, readEchoFile, roleTitle, writeBackup } from './memory-files.ts';

/** What pruning would move out of a memory document under the configured limits (`maxMoves`: the automatic per-run cap). */
export function planPruneOf(
  doc: EchoDocument,
  config: EchoesConfig,
  opts: { now: Date; events: UsageEvent[]; maxMoves?: number; role?: string },
): PrunePlan {
  const { entries, otherLines } = entryLines(doc);
  return planPrune({
    entries,
    otherLines,
    ...(opts.role === undefined ? {} : { role: opts.role }),
    maxLines: config.memoryMaxLines,
    events: opts.events,
    now: opts.now,
    window: config.relevanceWindow,
    ...(opts.maxMoves === undefined ? {} : { maxMoves: opts.maxMoves }),
  });
}

/** Who pruned, for the archive's header lines. */
export type PrunedBy = 'automatic pruning between sessions' | 'rune-echoes prune';

/** Applies a prune plan to `doc`: backup first, then archive and knowledge, then the caller writes MEMORY.md. */
export function applyPrune(
  paths: EchoPaths,
  role: string,
  doc: EchoDocument,
  originalText: string,
  plan: PrunePlan,
  opts: { now: Date; knowledgeMaxLines: number; by: PrunedBy; onCompressed?: (k: KnowledgeCompression) => void },
): EchoDocument {
  if (plan.archive.length === 0 && plan.compress.length === 0) return doc;
  const { now } = opts;
  // Automatic pruning moves a few entries per session: one backup a day is enough, since every
  // entry it moves lands byte for byte in the archive. `prune` run by the user always backs up.
  const daily = join(archiveDir(paths, role), `MEMORY-${day(now)}.md`);
  if (opts.by === 'rune-echoes prune' || !existsSync(daily)) writeBackup(paths, role, `MEMORY-${day(now)}`, originalText);
  const { doc: rest, moved } = moveOutEntries(doc, [...plan.archive, ...plan.compress]);
  const archived = new Set(plan.archive);
  appendArchivedBlocks(
    paths,
    join(archiveDir(paths, role), 'pruned.md'),
    `${roleTitle(role)} — archived entries`,
    moved
      .filter((m) => archived.has(m.entry.id))
      .map((m) => ({
        header: `## Archived ${day(now)} from MEMORY.md by ${opts.by} — ${plan.reasons.get(m.entry.id) ?? 'pruned'}`,
        text: m.text,
      })),
  );
  const compressed = new Set(plan.compress);
  appendToEchoFile(
    paths,
    knowledgeFile(paths, role),
    `${roleTitle(role)} — knowledge`,
    moved.filter((m) => compressed.has(m.entry.id)).map((m): EchoEntry => m.entry),
  );
  const knowledge = compressKnowledgeFile(paths, role, opts.knowledgeMaxLines, now);
  if (knowledge) opts.onCompressed?.(knowledge);
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
  // Compression rewrites the file: not while it holds conflict markers (status lists them).
  if (doc.issues.some((i) => i.code === 'merge-conflict')) return null;
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
  const planned = planKnowledgeCompression(readTextFile(paths, path).text, maxLines, now);
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
  const { text } = readTextFile(paths, knowledgeFile(paths, role));
  if (plan.compress.length === 0) return text;
  const { removed } = removeEntries(memory, plan.compress);
  const { doc } = readEchoFile(paths, knowledgeFile(paths, role), `${roleTitle(role)} — knowledge`);
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
    const { text, doc } = readEchoFile(paths, path, roleTitle(role), { forEdit: !opts.dryRun });
    const plan = planPruneOf(doc, config, { ...opts, role });
    const linesBefore = text === null ? 0 : countLines(text);
    if (opts.dryRun) {
      const knowledge = planKnowledgeCompression(knowledgeAfterPrune(paths, role, doc, plan), config.knowledgeMaxLines, opts.now);
      return { role, plan, linesBefore, dryRun: true, knowledge: knowledge?.summary ?? null };
    }
    // Pruning may compress knowledge.md itself (entries moved in pushed it over); otherwise it is checked here.
    let knowledge: KnowledgeCompression | null = null;
    if (text !== null) {
      const next = applyPrune(paths, role, doc, text, plan, {
        now: opts.now,
        knowledgeMaxLines: config.knowledgeMaxLines,
        by: 'rune-echoes prune',
        onCompressed: (k) => {
          knowledge = k;
        },
      });
      const out = serializeEchoDocument(next);
      if (out !== text) writeFileAtomic(paths, path, out);
    }
    knowledge = compressKnowledgeFile(paths, role, config.knowledgeMaxLines, opts.now) ?? knowledge;
    return { role, plan, linesBefore, dryRun: false, knowledge };
  };
  return opts.dryRun ? run() : withLock(paths, `role-${role}`, run);
}

/** What pruning will do to a role: the next automatic run (capped) and `prune` run now (the whole plan). */
export interface PruneOutlook {
  role: string;
  lines: number;
  automatic: PrunePlan;
  full: PrunePlan;
}

/** Reads the role's MEMORY.md and plans both ways; null when it is within its limit. */
export function pruneOutlook(
  paths: EchoPaths,
  config: EchoesConfig,
  role: string,
  opts: { now: Date; events: UsageEvent[] },
): PruneOutlook | null {
  const { text, doc } = readEchoFile(paths, memoryFile(paths, role), roleTitle(role));
  const lines = text === null ? 0 : countLines(text);
  if (lines <= config.memoryMaxLines) return null;
  return {
    role,
    lines,
    automatic: planPruneOf(doc, config, { ...opts, role, maxMoves: config.prunePerSession }),
    full: planPruneOf(doc, config, { ...opts, role }),
  };
}

/** One line for `status`: why a role is over its limit and what the user can do about it. */
export function describeOutlook(o: PruneOutlook, config: EchoesConfig): string {
  const moves = (p: PrunePlan) => p.archive.length + p.compress.length;
  const auto = moves(o.automatic);
  const full = moves(o.full);
  const parts: string[] = [];
  if (full > 0 && auto === full) parts.push(`the next session start moves ${full} to the archive`);
  else if (full > 0) {
    parts.push(
      config.prunePerSession === 0
        ? `automatic pruning is off (prune_per_session: 0); \`rune-echoes prune\` moves ${full} now`
        : `sessions move at most ${config.prunePerSession} at a time; \`rune-echoes prune\` moves ${full} now (see --dry-run first)`,
    );
  }
  const rest = full > 0 ? 'after that ' : '';
  if (o.full.overReason === 'hand-written')
    parts.push(
      `${rest}${o.full.handWrittenLines} lines are hand-written text, not entries, so new lessons are kept: shorten that text or move it to knowledge.md`,
    );
  else if (o.full.overReason === 'etched')
    parts.push(`${rest}${o.full.etchedLines} lines are etched entries, never pruned: forget some or raise memory_max_lines`);
  else if (o.full.overReason === 'best-lessons')
    parts.push(`${rest}only its best lessons are left, which always stay: forget some or raise memory_max_lines`);
  return `${o.role}: ${o.lines}/${config.memoryMaxLines} lines — ${parts.join('; ') || 'nothing to prune'}`;
}

/** Where pruning archives the entries it moves out of MEMORY.md. */
const prunedPath = (paths: EchoPaths, role: string): string => join(archiveDir(paths, role), 'pruned.md');

/** The header line pruning writes above an archived entry. */
const ARCHIVED_HEADER = /^## Archived \d{4}-\d{2}-\d{2} from MEMORY\.md by .*(?:\r?\n)?$/;

/**
 * The entries pruning archived that the role no longer holds (`live`: the ids
 * MEMORY.md holds): a session that uses one brings it back. Superseded and
 * retracted ones are left out. None when the archive is missing or unreadable.
 */
export function archivedEntries(paths: EchoPaths, role: string, live: ReadonlySet<string>): EchoEntry[] {
  const { text, unreadable } = readTextFile(paths, prunedPath(paths, role));
  if (text === null || unreadable) return [];
  const byId = new Map<string, EchoEntry>();
  for (const e of documentEntries(parseEchoDocument(text))) if (!e.status && !live.has(e.id)) byId.set(e.id, e);
  return [...byId.values()];
}

/**
 * Brings archived entries a session used back into MEMORY.md (the seed's
 * two-way movement: what comes up again is pulled back from the archive):
 * each is appended verified today, then taken out of archive/pruned.md with
 * the header line that said why it moved. MEMORY.md is written first, so a
 * run cut short leaves a copy in both, never in neither; a second run only
 * tidies the archive. Returns the ids brought back.
 */
export function reactivateEntries(paths: EchoPaths, role: string, ids: readonly string[], now: Date): string[] {
  if (ids.length === 0) return [];
  return withLock(paths, `role-${role}`, () => {
    const archivePath = prunedPath(paths, role);
    const { text: archiveText, doc: archive } = readEchoFile(paths, archivePath, `${roleTitle(role)} — archived entries`, {
      forEdit: true,
    });
    if (archiveText === null) return [];
    const wanted = new Set(ids);
    const found = new Map<string, EchoEntry>();
    for (const e of documentEntries(archive)) if (wanted.has(e.id) && !e.status) found.set(e.id, e);
    if (found.size === 0) return [];
    const path = memoryFile(paths, role);
    const { doc } = readEchoFile(paths, path, roleTitle(role), { forEdit: true });
    const live = new Set(documentEntries(doc).map((e) => e.id));
    const back = [...found.values()].filter((e) => !live.has(e.id)).map((e) => ({ ...e, verified: day(now) }));
    if (back.length) writeFileAtomic(paths, path, serializeEchoDocument(appendEntries(doc, back)));
    // Out of the archive, with the header line above each.
    const blocks = archive.blocks.map((b) => b.text);
    archive.blocks.forEach((b, k) => {
      if (b.type !== 'entry' || !found.has(b.entry.id)) return;
      blocks[k] = '';
      const before = archive.blocks[k - 1];
      if (before?.type !== 'verbatim') return;
      const lines = before.text.split(/(?<=\n)/);
      if (ARCHIVED_HEADER.test(lines[lines.length - 1] ?? '')) blocks[k - 1] = lines.slice(0, -1).join('');
    });
    writeFileAtomic(paths, archivePath, blocks.join(''));
    return back.map((e) => e.id);
  });
}
