// The hit path of prompt-time recall (store/recall/prompt-recall.ts), loaded
// only when an item clears the bar: read what the items say, leave out what
// the session already holds and what was superseded or retracted — and judge
// the bar again without them, so a retired entry never crowds out its
// successor, nor an item given earlier a weaker one — mark what is stale,
// render the lines within the budget, note them as given for the session and
// log them to usage.jsonl (`injected`, via prompt). An entry given again and
// again since it was last used needs a plainer match (twice the bar).
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { isWorn, relevanceIndex, type UsageTotals } from '../../core/lifecycle/usage-events.ts';
import { RECALL_NOTE, renderRecall } from '../../core/recall/recall-render.ts';
import { clearingItems } from '../../core/recall/recall-select.ts';
import type { RankedDoc } from '../../core/recall/search-rank.ts';
import type { StoredDoc } from '../../core/recall/search-segment.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import type { Deadline } from '../fs/role-lock.ts';
import { readStaleEntries } from '../memory/stale-entries.ts';
import { appendUsage, readUsage } from '../usage/usage-log.ts';
import { givenKey, type PromptRecall } from './prompt-recall.ts';
import { type Manifest, type OpenSegment, readStored, retiredKeys } from './search-index.ts';
import { heldChecker } from './search-indexer.ts';
import { addGiven, fileGivenKey, readGiven } from './session-given.ts';

/** How much more plainly a worn entry (usage-events.ts) must match a prompt: this many times the bar. */
const WORN_BAR = 2;

export function giveRecall(
  paths: EchoPaths,
  config: EchoesConfig,
  m: Manifest,
  segments: readonly OpenSegment[],
  tiers: ReadonlyArray<{ ranked: readonly RankedDoc[]; threshold: number }>,
  /** Items of every tier by score (a prompt continuing earlier work); else tier by tier, lessons first. */
  byScore: boolean,
  session: { id: string | undefined; now: Date; deadline?: Deadline },
  /** Files the prompt names, given by their paths after the items. */
  files: readonly string[] = [],
): PromptRecall | null {
  const retired = retiredKeys(m);
  const given = session.id ? readGiven(paths, session.id) : new Set<string>();
  const stale = readStaleEntries(paths);
  // Only what a file of the store holds now: an index copied from elsewhere may hold other text.
  const held = heldChecker(paths);
  const stored = new Map<RankedDoc, StoredDoc & { key: string }>();
  const read = (r: RankedDoc) => {
    let d = stored.get(r);
    if (!d) {
      const doc = readStored(paths, segments[r.segment]!.dir, r.doc);
      d = { ...doc, key: givenKey(doc) };
      stored.set(r, d);
    }
    return d;
  };
  // A log of this very session (a checkpoint before a compaction) tells it nothing it did not do.
  const ownLog = session.id ? `- session: ${session.id}\n` : null;
  // Entries given again and again since they last mattered (the usage log read only on this path).
  let totals: Map<string, UsageTotals> | null = null;
  const wornOut = (key: string) => {
    totals ??= relevanceIndex(readUsage(paths), config.relevanceWindow).totals;
    return isWorn(totals.get(key));
  };
  const eligible = (r: RankedDoc, threshold: number) => {
    const d = read(r);
    if (ownLog !== null && d.source === 'log' && d.text.includes(ownLog)) return false;
    if (!(!d.status && !retired.has(d.key) && !given.has(d.key) && held(d))) return false;
    // An entry given at three starts or prompts since it was last used must be asked for more plainly.
    return d.source !== 'memory' || clearingItems([r], WORN_BAR * threshold).length > 0 || !wornOut(d.key);
  };
  // The bar among the items that may be given, tier by tier: each round drops those that may not and judges again.
  const clearing: RankedDoc[] = [];
  for (const { ranked, threshold } of tiers) {
    let candidates = [...ranked];
    let passing = clearingItems(candidates, threshold);
    while (passing.some((r) => !eligible(r, threshold))) {
      candidates = candidates.filter((r) => !passing.includes(r) || eligible(r, threshold));
      passing = clearingItems(candidates, threshold);
    }
    clearing.push(...passing);
  }
  if (byScore) clearing.sort((a, b) => b.score - a.score);
  const picked: Array<StoredDoc & { key: string; staleSince?: string }> = [];
  for (const r of clearing.slice(0, config.recall.maxItems)) {
    const d = read(r);
    const since = stale.get(d.key);
    picked.push({ ...d, ...(since ? { staleSince: since } : {}) });
  }
  // None may be given: the caller gives the files the prompt names, if any, on their own.
  if (picked.length === 0) return null;
  const rendered = renderRecall(picked, config.recall.maxTokens, RECALL_NOTE, files);
  if (rendered === null) return null;
  const keys = picked.slice(0, rendered.shown).map((p) => p.key);
  const named = files.slice(0, rendered.files);
  if (session.id) addGiven(paths, session.id, [...keys, ...named.map(fileGivenKey)]);
  // A usage line names the entries given: none when only the files fitted.
  if (session.id && keys.length > 0) {
    appendUsage(
      paths,
      {
        ts: session.now.toISOString(),
        session: session.id,
        event: 'injected',
        via: 'prompt',
        ids: keys.filter((k) => k.includes('#')),
        tokens: rendered.tokens,
      },
      session.deadline,
    );
  }
  return { text: rendered.text, keys, ...(named.length > 0 ? { files: named } : {}), tokens: rendered.tokens };
}
