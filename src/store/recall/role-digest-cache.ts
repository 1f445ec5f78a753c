// A subagent's start (SPEC §8 SubagentStart), computed once per state of what
// it reads: every role's MEMORY.md (supersession crosses roles), the list of
// stale entries, the settings that shape it, the day, and what of the usage
// log scores depend on — the sessions in the relevance window and every use.
// A subagent's own `injected` line, in a session the log already holds,
// changes none of that, so the next subagent of the same type finds it ready
// (and need not read the log again: the cache notes the log's stamp after that
// line, when the line was the only change);
// so does one started after a consolidation, whose background worker prepares
// the role digests it made out of date. A torn or foreign cache is a miss.
import { join } from 'node:path';
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import type { RoleEntry } from '../../core/lifecycle/supersession.ts';
import { type RelevanceIndex, relevanceIndex, type UsageEvent } from '../../core/lifecycle/usage-events.ts';
import type { Digest } from '../../core/recall/digest.ts';
import { readTextOrNull, writeFileAtomic } from '../fs/atomic-file.ts';
import { type EchoPaths, memoryFile } from '../fs/echo-paths.ts';
import { roleSummaries } from '../memory/entry-cache.ts';
import { rewrittenOwnEtched, teammateCheck } from '../memory/entry-origin.ts';
import { listRoles } from '../memory/role-listing.ts';
import { readStaleEntries, staleEntriesFile } from '../memory/stale-entries.ts';
import { fileStamp, readUsage } from '../usage/usage-log.ts';

/** Bump when the role digest's content or the key's parts change. */
const CACHE_VERSION = 2;
/** Role and agent-type pairs kept; the oldest go first. */
const MAX_KEPT = 32;

const cacheFile = (paths: EchoPaths) => join(paths.stateDir, 'role-digests.json');

interface Kept {
  role: string;
  agentType: string;
  key: string;
  /** Null: the role had nothing to give under this key. */
  digest: Digest | null;
}

const stamp = fileStamp;

/** The usage log's part of the key, for the log as it was at `stamp`. */
export interface UsageState {
  stamp: string;
  signature: string;
  /** The sessions in the relevance window: a line of theirs that only injects changes no score. */
  sessions: string[];
}

interface CacheFile {
  version: number;
  kept: Kept[];
  usage?: UsageState;
}

/** FNV-1a: the usage log's part of the key without storing it. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return `${text.length}:${(h >>> 0).toString(16)}`;
}

/**
 * What of the usage log an Echo Score reads: how many sessions the window
 * holds, which of them (by place) used what, and each last use. Not the
 * sessions' names: a start prepared for "the next session" holds for whichever
 * session comes.
 */
function relevanceSignature(index: RelevanceIndex): string {
  const used = [...index.usedIn].map(([k, s]) => [k, [...s].sort((a, b) => a - b)]);
  return hash(JSON.stringify([index.sessions.length, used, [...index.lastUsed]]));
}

function usageState(events: UsageEvent[], window: number, at: string): UsageState {
  const index = relevanceIndex(events, window);
  return { stamp: at, signature: relevanceSignature(index), sessions: index.sessions };
}

function stateKey(paths: EchoPaths, config: EchoesConfig, now: Date, usage: UsageState): string {
  return JSON.stringify([
    CACHE_VERSION,
    now.toISOString().slice(0, 10),
    config.relevanceWindow,
    config.recall.subagentTokens,
    listRoles(paths).map((r) => `${r}=${stamp(memoryFile(paths, r))}`),
    stamp(staleEntriesFile(paths)),
    usage.signature,
  ]);
}

function readCache(paths: EchoPaths): CacheFile {
  try {
    const c = JSON.parse(readTextOrNull(paths, cacheFile(paths)) ?? 'null') as Partial<CacheFile> | null;
    if (c?.version === CACHE_VERSION && Array.isArray(c.kept))
      return { version: CACHE_VERSION, kept: c.kept, ...(c.usage ? { usage: c.usage } : {}) };
  } catch {
    /* a torn cache is a miss */
  }
  return { version: CACHE_VERSION, kept: [] };
}

function writeCache(paths: EchoPaths, c: CacheFile): void {
  try {
    writeFileAtomic(paths, cacheFile(paths), JSON.stringify({ ...c, kept: c.kept.slice(-MAX_KEPT) }), { durable: false });
  } catch {
    // Not kept: the next subagent computes it again.
  }
}

function keep(paths: EchoPaths, fresh: Kept[], usage: UsageState): void {
  const others = readCache(paths).kept.filter((k) => !fresh.some((f) => f.role === k.role && f.agentType === k.agentType));
  writeCache(paths, { version: CACHE_VERSION, kept: [...others, ...fresh], usage });
}

/** The usage log's state: from the cache while the log has the stamp it noted, else read. */
function currentUsage(paths: EchoPaths, window: number, cache: CacheFile): { usage: UsageState; events: UsageEvent[] | null } {
  const at = stamp(paths.usageLog);
  if (cache.usage?.stamp === at) return { usage: cache.usage, events: null };
  const events = readUsage(paths);
  return { usage: usageState(events, window, at), events };
}

async function computeRoleDigest(
  paths: EchoPaths,
  config: EchoesConfig,
  role: string,
  agentType: string,
  now: Date,
  events: UsageEvent[],
): Promise<Digest | null> {
  const summaries = await roleSummaries(paths);
  if (!summaries.some((r) => r.role === role && r.entries.length > 0)) return null;
  // The digest code (and its secret filter) loads only when the cache misses.
  const { buildRoleDigest, digestCandidates } = await import('../../core/recall/digest.ts');
  const items: RoleEntry[] = summaries.flatMap((r) => {
    const theirs = teammateCheck(paths, memoryFile(paths, r.role));
    return r.entries.map((entry) => ({ role: r.role, entry, teammate: theirs(entry) }));
  });
  items.push(...rewrittenOwnEtched(paths, items));
  // Supersession looks across every role; scoring and staleness as for the session digest.
  const { etched, lessons, traced } = digestCandidates(items, events, now, config.relevanceWindow, readStaleEntries(paths));
  return buildRoleDigest({
    role,
    agentType,
    etched: etched.filter((d) => d.role === role),
    // The role's own lessons, traced ones too: the subagent's budget decides how many fit.
    lessons: [...lessons, ...traced].filter((d) => d.role === role),
    budgetTokens: config.recall.subagentTokens,
  });
}

/** The start of a subagent of `agentType` mapped to `role`: from the cache, or computed and kept. */
export async function roleDigest(
  paths: EchoPaths,
  config: EchoesConfig,
  role: string,
  agentType: string,
  now: Date,
): Promise<{ digest: Digest | null; usage: UsageState }> {
  const cache = readCache(paths);
  const { usage, events } = currentUsage(paths, config.relevanceWindow, cache);
  const key = stateKey(paths, config, now, usage);
  const hit = cache.kept.find((k) => k.role === role && k.agentType === agentType && k.key === key);
  if (hit) return { digest: hit.digest, usage };
  const digest = await computeRoleDigest(paths, config, role, agentType, now, events ?? readUsage(paths));
  keep(paths, [{ role, agentType, key, digest }], usage);
  return { digest, usage };
}

/**
 * After the subagent's `injected` line was appended (the log's stamps just
 * before and after it, under its lock): when the log was as `usage` saw it, no
 * score changed (an injected line adds no session to the window: only a session
 * that worked counts), and the cache notes the new stamp so the next start need
 * not read the log.
 */
export function noteOwnInjection(paths: EchoPaths, usage: UsageState, before: string, after: string): void {
  if (before !== usage.stamp) return;
  const cache = readCache(paths);
  if (cache.usage?.signature !== usage.signature) return;
  writeCache(paths, { ...cache, usage: { ...usage, stamp: after } });
}

/**
 * After a background worker changed memory: the role digests kept for the
 * subagent types seen before, computed again for the store as it is now —
 * or, when a session has ended (`forNextSession`), as it will be once the
 * next session's start is logged, so its first subagent finds them ready.
 */
export async function prepareRoleDigests(
  paths: EchoPaths,
  config: EchoesConfig,
  now: Date,
  opts: { forNextSession?: boolean } = {},
): Promise<void> {
  const cache = readCache(paths);
  if (cache.kept.length === 0) return;
  // Stamped before it is read: a line appended meanwhile changes the stamp, and the next start reads again.
  const at = stamp(paths.usageLog);
  // The next session's start adds an injected line, which changes no score (only a session that worked is in the window).
  const events = readUsage(paths);
  // Noted under the log's stamp only when it is the log as it stands.
  const usage = usageState(events, config.relevanceWindow, opts.forNextSession ? '' : at);
  const key = stateKey(paths, config, now, usage);
  const fresh: Kept[] = [];
  for (const k of cache.kept) {
    if (k.key === key) continue;
    const digest = await computeRoleDigest(paths, config, k.role, k.agentType, now, events);
    fresh.push({ role: k.role, agentType: k.agentType, key, digest });
  }
  if (fresh.length) keep(paths, fresh, usage);
}
