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
import { ledgerNames, mayName, promptNames } from '../../core/recall/file-names.ts';
import { queryWords } from '../../core/recall/prompt-words.ts';
import { asksHowToNew, clearingItems, HOW_TO_FACTOR, logBar, promptBar, WORD_FLOOR } from '../../core/recall/recall-select.ts';
import { rankDocuments } from '../../core/recall/search-rank.ts';
import type { DocSource, StoredDoc } from '../../core/recall/search-segment.ts';
import { readTextOrNull } from '../fs/atomic-file.ts';
import { type EchoPaths, workedFilesFile, workedNamesFile } from '../fs/echo-paths.ts';
import { type Deadline, NO_DEADLINE } from '../fs/role-lock.ts';
import { type Manifest, openSegments, readManifest } from './search-index.ts';
import { displayPath, roleFolderNames, sameMemoryFolders, stampOf } from './search-sources.ts';

/** What recall may give from the memory tier: live memory, knowledge and solutions; never archives. */
export const RECALL_SOURCES: readonly DocSource[] = ['memory', 'knowledge', 'topic', 'solution'];
/** And from the logs tier: archive logs (EPHEMERAL.md is the hand-off SessionStart already gave). */
export const LOG_SOURCES: readonly DocSource[] = ['log'];

/** Ranked beyond max_items so that items already given or retired can make room. */
export const SLACK = 6;

export interface PromptRecall {
  text: string;
  /** What was given: usage keys of entries, `path:line` of other items. */
  keys: string[];
  /** The files the prompt names that it gave by their paths (core/recall/file-recall.ts). */
  files?: string[];
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
  const files = await filesToName(paths, config, prompt, session.id);
  const items = await itemsForPrompt(paths, config, prompt, session, files);
  if (items !== null || files.length === 0) return items;
  // Nothing of memory clears the bar, but the prompt names files earlier sessions worked on.
  const { giveFilesOnly } = await import('./file-give.ts');
  return giveFilesOnly(paths, config, files, session);
}

/**
 * The files of the worked-files ledger the prompt names (core/recall/file-names.ts, file-recall.ts), less
 * those the session holds: its start named them (its hand-off, its lines of files), an earlier prompt did,
 * or it read or edited them already. On every prompt only the names file is read and tested; the ledger
 * is parsed and the rest loaded (store/recall/file-give.ts) when the prompt says one of its names.
 */
async function filesToName(paths: EchoPaths, config: EchoesConfig, prompt: string, sessionId: string | undefined): Promise<string[]> {
  if (!config.capture.commands) return [];
  try {
    // The names written beside the ledger; for a ledger from before them (until capture next writes it), made
    // from the ledger itself.
    let ledgerText: string | null = null;
    let names = readTextOrNull(paths, workedNamesFile(paths));
    if (names === null) {
      ledgerText = readTextOrNull(paths, workedFilesFile(paths));
      if (ledgerText === null) return [];
      const { countsAsWorked, parseWorkedFiles } = await import('../../core/recall/worked-files.ts');
      names = ledgerNames(Object.keys(parseWorkedFiles(ledgerText).files).filter(countsAsWorked));
    }
    const named = promptNames(prompt);
    if (!mayName(named, names, prompt)) return [];
    ledgerText ??= readTextOrNull(paths, workedFilesFile(paths));
    if (ledgerText === null) return [];
    const { filesForPrompt } = await import('./file-give.ts');
    return filesForPrompt(paths, prompt, named, ledgerText, sessionId);
  } catch {
    return [];
  }
}

/** The items of memory that clear the bar for the prompt, given with `files`; null when none does. */
async function itemsForPrompt(
  paths: EchoPaths,
  config: EchoesConfig,
  prompt: string,
  session: { id: string | undefined; now: Date; deadline?: Deadline },
  files: readonly string[],
): Promise<PromptRecall | null> {
  const words = queryWords(prompt);
  if (words.of.length === 0 || (words.of[words.of.length - 1]! < 1 && !words.exact.includes(true))) return null;
  const { terms } = words;
  const groups = { of: words.of, weight: words.weight, exact: words.exact };
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
  const memory = openSegments(paths, m, ['memory']);
  // Archive logs are read only for a prompt that goes on with earlier work or names a file or an error:
  // most prompts do neither, and pay nothing for the logs.
  // A long prompt shares more words with any item by chance: its bar is higher.
  // A question how to do something new asks for general knowledge: memory answers it only when it matches it strongly.
  const threshold = promptBar(config.recall.threshold, words.of[words.of.length - 1]! + 1) * (asksHowToNew(prompt) ? HOW_TO_FACTOR : 1);
  const logRule = logBar(prompt, threshold, words.exact.includes(true));
  let logs = logRule !== null && m.stats.logs.docs > 0 ? openSegments(paths, m, ['logs']) : [];
  // A prompt that only names something recalls a log that holds the name: its names are looked up
  // first, and a store where no log holds one reads no other word of the logs (in 10,000 logs, each costs).
  const names = terms.filter((_, i) => words.exact[i]);
  const namedOnly = logRule !== null && !logRule.withLessons;
  if (namedOnly && !logs.some((seg) => names.some((t) => seg.view.lookup(t) !== null))) logs = [];
  const segments = [...memory, ...logs];
  const limit = config.recall.maxItems + SLACK;
  const ranked = rankDocuments(
    memory.map((s) => s.view),
    terms,
    { limit, stats: m.stats.memory, sources: RECALL_SOURCES, coverage: false, weigh: 'rarity', groups, floor: WORD_FLOOR },
  );
  const tiers = [ranked];
  if (logs.length > 0) {
    // Archive logs, a word weighed by its rarity over memory and logs together (a word every log holds,
    // a command or the project's name, says nothing about which session dealt with the prompt's subject),
    // and a log's length against the other logs' (a log is long next to an entry: a list of files).
    const docs = m.stats.memory.docs + m.stats.logs.docs;
    const stats = { docs, totalLen: (m.stats.logs.totalLen / m.stats.logs.docs) * docs };
    const fromLogs = rankDocuments(
      segments.map((s) => s.view),
      terms,
      { limit, stats, sources: LOG_SOURCES, coverage: false, weigh: 'rarity', groups, floor: WORD_FLOOR },
    );
    tiers.push(namedOnly ? fromLogs.filter((r) => r.exact > 0) : fromLogs);
  }
  const bars = [threshold, logRule?.threshold ?? Number.POSITIVE_INFINITY];
  if (tiers.every((t, i) => clearingItems(t, bars[i]!).length === 0)) return null;

  // Something clears the bar (a few prompts): what reads, filters, renders and logs it loads only now.
  const { giveRecall } = await import('./recall-give.ts');
  const byTier = tiers.map((ranked, i) => ({ ranked, threshold: bars[i]! }));
  return giveRecall(paths, config, m, segments, byTier, logRule?.withLessons === true, session, files);
}
