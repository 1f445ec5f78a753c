// The retrieval benchmark of issues 11 and 17: a realistic store built at run
// time from the real memory files in ../shared/realdata/memory (never copied
// into this repository) plus entries and solutions written for it
// (test/fixtures/recall/), and archive logs: a few written for it
// (test/fixtures/recall/archive-logs/) and one per session of three real
// project histories (../shared/realdata/histories), summarised by the hooks'
// own code as the store is built. Two labelled sets of prompts, each with the
// items that should be recalled (none for about a third of them): the first
// set (labelled-prompts.json), and a second (paraphrase-prompts.json) of
// prompts that share few words with their lesson and of prompts continuing
// earlier sessions, split into a part the bar was tuned on and a held-out part
// it was not. Scored for prompt-time recall (UserPromptSubmit) and for the
// SessionStart digest: precision@1, recall@3, and how often something is
// injected for a prompt that has no answer. Used by scripts/bench-recall.ts
// (BENCHMARKS.md) and test/integration/recall-benchmark.test.ts (the targets).
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig, type EchoesConfig } from '../../src/core/config/config-defaults.ts';
import { renderArchiveLog } from '../../src/core/session/session-records.ts';
import { didWork } from '../../src/core/session/session-work.ts';
import { type EchoPaths, echoPaths } from '../../src/store/fs/echo-paths.ts';
import { roleSummaries } from '../../src/store/memory/entry-cache.ts';
import { digestFromStore } from '../../src/store/recall/memory-digest.ts';
import { recallForPrompt } from '../../src/store/recall/prompt-recall.ts';
import { updateIndex } from '../../src/store/recall/search-indexer.ts';
import { foldTranscript } from '../../src/store/session/session-lifecycle.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
/** The real memory files, beside the checkout (SOURCES.md there says where each comes from). */
export const REALDATA_MEMORY = join(REPO, '..', 'shared', 'realdata', 'memory');
/** Real project histories (one folder of session transcripts per project), read in place. */
export const REALDATA_HISTORIES = join(REPO, '..', 'shared', 'realdata', 'histories');
/**
 * The histories whose sessions become archive logs, in this order, after the
 * fixture logs: a session's log number is fixed by its place here and its file
 * name, which the labels rely on.
 */
export const HISTORIES: readonly string[] = [
  'Tmeister__dotfiles__-Users-tmeister-Code-Personal-jwt-auth-client-js',
  'Esegnorelli__dotfiles__-home-esegnorelli',
  'elizabeth-goldsmith__prirodnik__-Users-liza-ai-lessons',
];
const FIXTURES = join(REPO, 'test', 'fixtures', 'recall');

/** Where each real file goes in the store: role memory, knowledge, or a topic file of a role (as `import` would keep notes). */
export const REAL_FILES: ReadonlyArray<[file: string, to: string]> = [
  ['vinhnxv__rune__.claude__echoes__reviewer__MEMORY.md', 'reviewer/MEMORY.md'],
  ['vinhnxv__rune__.claude__echoes__orchestrator__MEMORY.md', 'orchestrator/MEMORY.md'],
  ['vinhnxv__rune__.claude__echoes__planner__MEMORY.md', 'planner/MEMORY.md'],
  ['vinhnxv__rune__plugins__rune__data__doc-packs__fastapi__MEMORY.md', 'workers/knowledge.md'],
  ['ActorForth__ActorForth__.claude__memory__MEMORY.md', 'team/actorforth-notes.md'],
  ['Aleslammer__deathwatch_foundryvtt__.claude__memory__feedback_code_quality.md', 'team/code-quality.md'],
  ['Aleslammer__deathwatch_foundryvtt__.claude__memory__testing_standards.md', 'team/testing-standards.md'],
  ['4444J99__application-pipeline__.claude__memory__feedback_multi_agent_postmortem_2026-03-30.md', 'auditor/multi-agent-postmortem.md'],
  ['acn-ericlaw__agent-memory__memory__continuity.md', 'auditor/continuity.md'],
];

export const realdataAvailable = (): boolean =>
  REAL_FILES.every(([f]) => existsSync(join(REALDATA_MEMORY, f))) && HISTORIES.every((h) => existsSync(join(REALDATA_HISTORIES, h)));

/**
 * The archive logs: the fixture logs, then one per session of each history
 * that did work (as the hooks write them: a session that did nothing writes
 * none), numbered on. Returns how many came from the histories.
 */
async function writeArchiveLogs(paths: EchoPaths): Promise<{ fixture: number; real: number }> {
  mkdirSync(paths.memoriesDir, { recursive: true });
  const fixtures = readdirSync(join(FIXTURES, 'archive-logs')).sort();
  for (const name of fixtures) copyFileSync(join(FIXTURES, 'archive-logs', name), join(paths.memoriesDir, name));
  let seq = fixtures.length;
  for (const history of HISTORIES) {
    const dir = join(REALDATA_HISTORIES, history);
    // Main sessions only: subagent transcripts are part of their parent's work.
    for (const name of readdirSync(dir)
      .filter((n) => n.endsWith('.jsonl') && !n.startsWith('agent-'))
      .sort()) {
      const { draft } = await foldTranscript(join(dir, name), null, { sessionId: name.replace(/\.jsonl$/, '') });
      if (!didWork(draft)) continue;
      seq++;
      const written = new Date(draft.lastTs ?? '2026-01-01T00:00:00Z');
      const file = `archive-log-${String(seq).padStart(3, '0')}.md`;
      writeFileSync(join(paths.memoriesDir, file), renderArchiveLog(seq, draft, 'session-end', written));
    }
  }
  return { fixture: fixtures.length, real: seq - fixtures.length };
}

/** Builds the benchmark store in `dir` (a project folder), its archive logs and its search index. */
export async function buildRecallStore(dir: string): Promise<EchoPaths> {
  const echoes = join(dir, '.claude', 'echoes');
  for (const [file, to] of REAL_FILES) {
    mkdirSync(dirname(join(echoes, to)), { recursive: true });
    copyFileSync(join(REALDATA_MEMORY, file), join(echoes, to));
  }
  mkdirSync(join(echoes, 'team'), { recursive: true });
  copyFileSync(join(FIXTURES, 'team-memory.md'), join(echoes, 'team', 'MEMORY.md'));
  const solutions = JSON.parse(readFileSync(join(FIXTURES, 'solutions.json'), 'utf8')) as Record<string, string>;
  for (const [rel, text] of Object.entries(solutions)) {
    mkdirSync(dirname(join(dir, 'docs', 'solutions', rel)), { recursive: true });
    writeFileSync(join(dir, 'docs', 'solutions', rel), text);
  }
  const paths = echoPaths(dir, defaultConfig(), join(dir, 'home'));
  await writeArchiveLogs(paths);
  updateIndex(paths);
  return paths;
}

export interface Labelled {
  prompt: string;
  /** Keys of the items that should be recalled (`role#id` for an entry of a role's memory, `path:line` for anything else); [] for none. */
  expect: string[];
  /** In the second set: `tune` (the bar was tuned on these) or `held-out` (never looked at while tuning). */
  split?: 'tune' | 'held-out';
  /** In the second set: a paraphrase of a lesson, a prompt continuing an earlier session, or one with no answer. */
  kind?: 'paraphrase' | 'continuation' | 'none';
}

/** The first labelled set (issue 11). */
export function loadLabels(): Labelled[] {
  return JSON.parse(readFileSync(join(FIXTURES, 'labelled-prompts.json'), 'utf8')) as Labelled[];
}

/** The second labelled set (issue 17): paraphrases, continuations of earlier sessions, and prompts with no answer. */
export function loadParaphraseLabels(split?: 'tune' | 'held-out'): Labelled[] {
  const all = JSON.parse(readFileSync(join(FIXTURES, 'paraphrase-prompts.json'), 'utf8')) as Labelled[];
  return split ? all.filter((l) => l.split === split) : all;
}

/**
 * The third to eighth labelled sets: each written by a separate author who saw only the store (not the
 * recall code, not the other sets); the third to fifth named topic-file sections by their headings, mapped
 * afterwards to the items the index makes of them (a heading's section by its paragraphs, a sub-heading by the
 * item holding it); the sixth's to eighth's authors were given the store's items under the keys recall gives them by.
 */
export function loadIndependentLabels(
  which: 'third' | 'fourth' | 'fifth' | 'sixth' | 'seventh' | 'eighth' | 'ninth' | 'tenth',
): Labelled[] {
  const file = {
    third: 'independent-prompts.json',
    fourth: 'independent-prompts-2.json',
    fifth: 'independent-prompts-3.json',
    sixth: 'independent-prompts-4.json',
    seventh: 'independent-prompts-5.json',
    eighth: 'independent-prompts-6.json',
    ninth: 'independent-prompts-7.json',
    tenth: 'independent-prompts-8.json',
  }[which];
  return JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Labelled[];
}

export interface PromptOutcome {
  prompt: string;
  expect: string[];
  /** What was injected, in order. */
  got: string[];
}

export interface Scores {
  /** Prompts with an answer whose first injected item is one of the answers (a prompt that got nothing counts as a miss). */
  precisionAt1: number;
  /** Of those that got something: how often the first item is an answer. */
  precisionAt1WhenInjected: number;
  /** Mean share of each prompt's answers among its first three injected items. */
  recallAt3: number;
  /** Prompts with no answer that got something injected. */
  falseInjection: number;
  answerable: number;
  unanswerable: number;
  outcomes: PromptOutcome[];
}

export function score(outcomes: PromptOutcome[]): Scores {
  const answerable = outcomes.filter((o) => o.expect.length > 0);
  const unanswerable = outcomes.filter((o) => o.expect.length === 0);
  const hit1 = answerable.filter((o) => o.got[0] !== undefined && o.expect.includes(o.got[0]));
  const injected = answerable.filter((o) => o.got.length > 0);
  const r3 = answerable.map((o) => o.expect.filter((k) => o.got.slice(0, 3).includes(k)).length / o.expect.length);
  return {
    precisionAt1: hit1.length / Math.max(1, answerable.length),
    precisionAt1WhenInjected: hit1.length / Math.max(1, injected.length),
    recallAt3: r3.reduce((a, b) => a + b, 0) / Math.max(1, r3.length),
    falseInjection: unanswerable.filter((o) => o.got.length > 0).length / Math.max(1, unanswerable.length),
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    outcomes,
  };
}

/** Prompt-time recall: each prompt as the first of its own session (nothing given yet), with the defaults. */
export async function scorePromptRecall(paths: EchoPaths, labels: Labelled[], config: EchoesConfig = defaultConfig()): Promise<Scores> {
  const outcomes: PromptOutcome[] = [];
  for (const l of labels) {
    const r = await recallForPrompt(paths, config, l.prompt, { id: undefined, now: new Date('2026-11-23T10:00:00Z') });
    outcomes.push({ prompt: l.prompt, expect: l.expect, got: r?.keys ?? [] });
  }
  return score(outcomes);
}

/** The SessionStart digest: the same entries whatever the prompt (etched first, then lessons by Echo Score). */
export async function scoreDigest(paths: EchoPaths, labels: Labelled[], config: EchoesConfig = defaultConfig()): Promise<Scores> {
  const { digest } = digestFromStore(paths, config, await roleSummaries(paths), '', new Date('2026-11-23T10:00:00Z'));
  const got = digest.injectedKeys;
  return score(labels.map((l) => ({ prompt: l.prompt, expect: l.expect, got })));
}
