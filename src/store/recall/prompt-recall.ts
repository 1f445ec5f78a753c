// Prompt-time recall from the store (SPEC §8 UserPromptSubmit): rank the
// memory tier of the search index (entries, knowledge, topic files,
// solutions; no archives, no logs) against the prompt and keep what clears
// the bar (core/recall/recall-select.ts). This runs on every prompt, so the
// usual path — nothing clears the bar — reads the manifest, stamps the memory
// files and reads the shards of the prompt's words, and nothing else: no
// stored text, no parser, no secret filter. The index is brought up to date
// only when a memory file changed since it was built.
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { usageKey } from '../../core/lifecycle/usage-events.ts';
import { clearingItems } from '../../core/recall/recall-select.ts';
import { rankDocuments } from '../../core/recall/search-rank.ts';
import type { DocSource, StoredDoc } from '../../core/recall/search-segment.ts';
import { queryTerms } from '../../core/recall/search-terms.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { readStaleEntries } from '../memory/stale-entries.ts';
import { appendUsage } from '../usage/usage-log.ts';
import { type Manifest, openSegments, readManifest, readStored, retiredKeys } from './search-index.ts';
import { listSources, stampOf } from './search-sources.ts';
import { addGiven, readGiven } from './session-given.ts';

/** What recall may give: live memory, knowledge and solutions; never archives or logs. */
export const RECALL_SOURCES: readonly DocSource[] = ['memory', 'knowledge', 'topic', 'solution'];

/** Ranked beyond max_items so that items already given or retired can make room. */
const SLACK = 6;

export interface PromptRecall {
  text: string;
  /** What was given: usage keys of entries, `path@title` of other items. */
  keys: string[];
  tokens: number;
}

/** True when every memory-tier file still has the stamp the index saw, and none came or went (archive logs and EPHEMERAL.md aside). */
function memoryTierFresh(paths: EchoPaths, m: Manifest): boolean {
  const listed = new Set<string>();
  let ephemeral: string | null = null;
  for (const s of listSources(paths)) {
    if (s.source === 'ephemeral') {
      ephemeral = s.key;
      continue;
    }
    const st = stampOf(s.abs);
    const rec = m.sources[s.key];
    if (st === null) {
      if (rec) return false;
      continue;
    }
    if (!rec || rec[0] !== st.size || rec[1] !== st.mtimeMs || rec[2] !== st.ino) return false;
    listed.add(s.key);
  }
  return Object.keys(m.sources).every((k) => k === ephemeral || listed.has(k));
}

/** The key an item is given under: an entry by role and id, anything else by where it is and its title. */
export function givenKey(d: Pick<StoredDoc, 'id' | 'role' | 'path' | 'title' | 'source'>): string {
  return d.id && d.role && d.source === 'memory' ? usageKey(d.role, d.id) : `${d.path}@${d.title}`;
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
    if (listSources(paths).every((s) => s.source === 'ephemeral' || stampOf(s.abs) === null)) return null;
    const { updateIndex } = await import('./search-indexer.ts');
    m = updateIndex(paths, { deadline: session.deadline ?? NO_DEADLINE, waitMs: 1000 }).manifest;
  }
  const segments = openSegments(paths, m, ['memory']);
  const stats = m.stats.memory;
  const ranked = rankDocuments(
    segments.map((s) => s.view),
    terms,
    { limit: config.recall.maxItems + SLACK, stats, sources: RECALL_SOURCES, coverage: false, weigh: 'rarity' },
  );
  const clearing = clearingItems(ranked, config.recall.threshold);
  if (clearing.length === 0) return null;

  // Something clears the bar: now read what it says, and leave out what the session holds or what was superseded.
  const retired = retiredKeys(m);
  const given = session.id ? readGiven(paths, session.id) : new Set<string>();
  const stale = readStaleEntries(paths);
  const picked: Array<StoredDoc & { key: string; staleSince?: string }> = [];
  for (const r of clearing) {
    if (picked.length >= config.recall.maxItems) break;
    const d = readStored(paths, segments[r.segment]!.dir, r.doc);
    const key = givenKey(d);
    if (d.status || retired.has(key) || given.has(key)) continue;
    const since = stale.get(key);
    picked.push({ ...d, key, ...(since ? { staleSince: since } : {}) });
  }
  if (picked.length === 0) return null;
  const { renderRecall } = await import('../../core/recall/recall-render.ts');
  const rendered = renderRecall(picked, config.recall.maxTokens);
  if (rendered === null) return null;
  const keys = picked.slice(0, rendered.shown).map((p) => p.key);
  if (session.id) {
    addGiven(paths, session.id, keys);
    appendUsage(
      paths,
      {
        ts: session.now.toISOString(),
        session: session.id,
        event: 'injected',
        via: 'prompt',
        ids: keys.filter((k) => !k.includes('@')),
        tokens: rendered.tokens,
      },
      session.deadline,
    );
  }
  return { text: rendered.text, keys, tokens: rendered.tokens };
}
