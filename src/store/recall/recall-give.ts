// The hit path of prompt-time recall (store/recall/prompt-recall.ts), loaded
// only when an item clears the bar: read what the items say, leave out what
// the session already holds and what was superseded or retracted, mark what
// is stale, render the lines within the budget, note them as given for the
// session and log them to usage.jsonl (`injected`, via prompt).
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { renderRecall } from '../../core/recall/recall-render.ts';
import type { RankedDoc } from '../../core/recall/search-rank.ts';
import type { StoredDoc } from '../../core/recall/search-segment.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import type { Deadline } from '../fs/role-lock.ts';
import { readStaleEntries } from '../memory/stale-entries.ts';
import { appendUsage } from '../usage/usage-log.ts';
import { givenKey, type PromptRecall } from './prompt-recall.ts';
import { type Manifest, type OpenSegment, readStored, retiredKeys } from './search-index.ts';
import { addGiven, readGiven } from './session-given.ts';

export function giveRecall(
  paths: EchoPaths,
  config: EchoesConfig,
  m: Manifest,
  segments: readonly OpenSegment[],
  clearing: readonly RankedDoc[],
  session: { id: string | undefined; now: Date; deadline?: Deadline },
): PromptRecall | null {
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
        ids: keys.filter((k) => k.includes('#')),
        tokens: rendered.tokens,
      },
      session.deadline,
    );
  }
  return { text: rendered.text, keys, tokens: rendered.tokens };
}
