// Prompt-time recall from the store (SPEC §8 UserPromptSubmit): rank the
// memory tier of the search index (entries, knowledge, topic files,
// solutions; no archives, no logs) against the prompt and keep what clears
// the bar (core/recall/recall-select.ts). This runs on every prompt, so the
// usual path — nothing clears the bar — reads the manifest, stamps the memory
// files and reads the shards of the prompt's words, and nothing else: no
// stored text, no parser, no secret filter. The index is brought up to date
// only when a memory file changed since it was built.
import { isAbsolute, sep } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { EchoesError } from '../../core/errors.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import { clearingItems } from '../../core/recall/recall-select.ts';
import { rankDocuments } from '../../core/recall/search-rank.ts';
import type { DocSource, StoredDoc } from '../../core/recall/search-segment.ts';
import { queryTerms } from '../../core/recall/search-terms.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { type Manifest, openSegments, readManifest } from './search-index.ts';
import { displayPath, roleFolderNames, sameMemoryFolders, stampOf } from './search-sources.ts';

/** What recall may give: live memory, knowledge and solutions; never archives or logs. */
export const RECALL_SOURCES: readonly DocSource[] = ['memory', 'knowledge', 'topic', 'solution'];

/** Ranked beyond max_items so that items already given or retired can make room. */
export const SLACK = 6;

export interface PromptRecall {
  text: string;
  /** What was given: usage keys of entries, `path:line` of other items. */
  keys: string[];
  tokens: number;
}

/**
 * True when every memory-tier file the index read still has its stamp and no
 * such file came or went (archive logs and EPHEMERAL.md aside). Checked from the
 * manifest alone — the recorded files and folders are stamped, no folder is
 * listed — because this runs on every prompt.
 */
function memoryTierFresh(paths: EchoPaths, m: Manifest): boolean {
  if (!sameMemoryFolders(paths, m.folders)) return false;
  const ephemeral = displayPath(paths, paths.ephemeral);
  for (const [key, rec] of Object.entries(m.sources)) {
    if (key === ephemeral) continue;
    const st = stampOf(isAbsolute(key) ? key : `${paths.project}${sep}${key}`);
    if (st === null || rec[0] !== st.size || rec[1] !== st.mtimeMs || rec[2] !== st.ino) return false;
  }
  return true;
}

/** The key an item is given under: an entry of a role's memory by role and id, anything else by its place (`path:line`). */
export function givenKey(d: Pick<StoredDoc, 'id' | 'role' | 'path' | 'line' | 'source'>): string {
  return d.id && d.role && d.source === 'memory' ? usageKey(d.role, d.id) : `${d.path}:${d.line}`;
}

/**
 * The recall for one prompt, or null when nothing clears the bar (most
 * prompts). Logs what it gives to usage.jsonl (`injected`, via prompt) and
 * notes it for the session, so it is never given twice.
 */
export async function recallForPrompt(
  paths: EchoPaths,
  config: EchoesConfig,
  prompt: string,
  session: { id: string | undefined; now: Date; deadline?: Deadline },
): Promise<PromptRecall | null> {
  const terms = queryTerms(prompt);
  if (terms.length < 2) return null;
  let m = readManifest(paths);
  if (m === null || !memoryTierFresh(paths, m)) {
    // A memory file changed since the index was built (or there is none yet): bring it up to date once.
    // A store with no role and no solution yet has nothing to recall, and no index is built for it.
    if (roleFolderNames(paths).length === 0 && stampOf(paths.solutionsDir) === null) return null;
    const { updateIndex } = await import('./search-indexer.ts');
    try {
      m = updateIndex(paths, { deadline: session.deadline ?? NO_DEADLINE, waitMs: 1000 }).manifest;
    } catch (err) {
      // Another process is updating the index: this prompt is answered from the index as it stands, or not at all.
      if (!(err instanceof EchoesError && err.code === 'locked')) throw err;
      if (m === null) return null;
    }
  }
  const segments = openSegments(paths, m, ['memory']);
  const stats = m.stats.memory;
  const ranked = rankDocuments(
    segments.map((s) => s.view),
    terms,
    { limit: config.recall.maxItems + SLACK, stats, sources: RECALL_SOURCES, coverage: false, weigh: 'rarity' },
  );
  if (clearingItems(ranked, config.recall.threshold).length === 0) return null;

  // Something clears the bar (a few prompts): what reads, filters, renders and logs it loads only now.
  const { giveRecall } = await import('./recall-give.ts');
  return giveRecall(paths, config, m, segments, ranked, session);
}
