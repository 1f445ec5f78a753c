// The retrieval benchmark (issues 11 and 17): prompt-time recall and the
// SessionStart digest scored on two labelled sets of prompts over a realistic
// store, built from ../shared/realdata/memory and ../shared/realdata/histories
// plus test/fixtures/recall/ (see test/helpers/recall-benchmark.ts). Part of `npm run bench`; on its own,
// `npm run bench:recall` prints the section and puts it in BENCHMARKS.md in
// place of the previous one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultConfig } from '../src/core/config/config-defaults.ts';
import { readManifest } from '../src/store/recall/search-index.ts';
import {
  buildRecallStore,
  HISTORIES,
  type Labelled,
  loadIndependentLabels,
  loadLabels,
  loadParaphraseLabels,
  REAL_FILES,
  realdataAvailable,
  type Scores,
  scoreDigest,
  scorePromptRecall,
} from '../test/helpers/recall-benchmark.ts';
import { writeBenchSection } from './bench-section.ts';

const START = '<!-- recall-benchmark:start -->';
const END = '<!-- recall-benchmark:end -->';

const f3 = (x: number) => x.toFixed(3);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export async function benchRecall(say: (s: string) => void): Promise<void> {
  say(START);
  say('## Retrieval: the right memory at the right moment\n');
  if (!realdataAvailable()) {
    say('Not run: `../shared/realdata` (memory and histories) is not beside this checkout.');
    say(END);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'rune-bench-recall-'));
  try {
    const t0 = Date.now();
    const paths = await buildRecallStore(dir);
    const labels = loadLabels();
    const second = loadParaphraseLabels();
    const buildMs = Date.now() - t0;
    const m = readManifest(paths);
    const docs = m?.stats.memory.docs ?? 0;
    const logs = m?.stats.logs.docs ?? 0;
    const answerable = (ls: typeof labels) => ls.filter((l) => l.expect.length > 0).length;
    say(
      `The store: ${REAL_FILES.length} real memory files from other projects (Rune's reviewer, orchestrator and planner echoes, a FastAPI doc pack as knowledge, auto-memory and continuity notes as topic files) plus entries and solutions written for it (test/fixtures/recall/): ${docs} documents in the memory tier. ${logs} archive logs: 7 written for it (test/fixtures/recall/archive-logs/) and one per session that did work in ${HISTORIES.length} real project histories (../shared/realdata/histories, summarised by the hooks' own code as the store is built). Built and indexed in ${(buildMs / 1000).toFixed(1)} s. Each prompt is the first of its own session; defaults (at most 3 items, 300 tokens, threshold ${defaultConfig().recall.threshold}).\n`,
    );
    say(
      `Ten labelled sets. The first (test/fixtures/recall/labelled-prompts.json, ${labels.length} prompts, ${answerable(labels)} with the items that should be recalled, ${labels.length - answerable(labels)} that should recall nothing) was written with the first bar; its prompts mostly share words with their lesson, and it knew no archive logs. The second (test/fixtures/recall/paraphrase-prompts.json, ${second.length} prompts) holds prompts that share few words with their lesson, prompts continuing an earlier session (an archive log, or the lesson it led to, is the answer) and prompts that should recall nothing; its \`tune\` half is what the bar was tuned on, its \`held-out\` half was not looked at while tuning it (held-out before the word floor: precision@1 0.640, false injection 16.7%); the word floor was chosen later with every set in view.\n`,
    );
    const third = loadIndependentLabels('third');
    const fourth = loadIndependentLabels('fourth');
    const fifth = loadIndependentLabels('fifth');
    const sixth = loadIndependentLabels('sixth');
    const seventh = loadIndependentLabels('seventh');
    const eighth = loadIndependentLabels('eighth');
    const ninth = loadIndependentLabels('ninth');
    const tenth = loadIndependentLabels('tenth');
    const noneShare = (ls: Labelled[]) => Math.round((100 * ls.filter((l) => l.kind === 'none').length) / ls.length);
    say(
      `The third, fourth and fifth (test/fixtures/recall/independent-prompts.json, -2 and -3: ${third.length}, ${fourth.length} and ${fifth.length} prompts; paraphrases, continuations and prompts with no answer, ${noneShare(third)}%, ${noneShare(fourth)}% and ${noneShare(fifth)}% of them with none, half of those or more on the very library or tool an entry is about) were each written by another author who saw only the store, neither the recall code nor the other sets; only their names of topic-file sections were then mapped to the items the index makes of them. The third was measured first on the code before the word floor: precision@1 0.528, false injection 45.8% (11 of 24); the word floor was then chosen with the first three sets in view. The fourth was written after that and measured on it: precision@1 0.500, false injection 25.0% (5 of 20; 40.0% without the floor). The words by which a prompt in Portuguese, Spanish, German, French or Russian goes on with earlier work, and the bar rising with the square root of a long prompt's words rather than in proportion, came last, from the misses of the third and fourth. The fifth was written after all of it and is measured here as it came. The sixth (-4: ${sixth.length} prompts, ${noneShare(sixth)}% with none, three in four of those on a library or tool an entry is about) was written later still, by another author given only the store's items under the keys recall gives them by, and measured as it came: precision@1 0.633, false injection 45.0% (9 of 20). Most of its false injections, and of the fourth's and fifth's, were a lesson named after a library met by a question about another use of it, sharing the library's name and one word everything about it says (\`pino\` and \`logs\`, \`redis\` and \`key\`); the rule that a match must not rest on one word (its other words add at least half the bar) came from them, chosen with the first six sets in view. Before it the third, fourth and fifth had false injection 37.5%, 25.0% and 33.3% at the same precision@1; the second set's precision@1 was 0.680 (it lost three paraphrases whose second word was weak: \`marketplace\` beside \`throttled\`, a synonym, a port number). The seventh (-5: ${seventh.length} prompts, ${noneShare(seventh)}% with none) was written after that rule, by another author in the same way, and measured on the code before it (precision@1 0.700, false injection 50.0%, 10 of 20) and after it, as below. The eighth (-6: ${eighth.length} prompts, ${noneShare(eighth)}% with none, nine in ten of those on a library, service or table an entry is about) was written after all of that, by another author in the same way, and measured as it came: precision@1 0.800, false injection 60.0% (12 of 20). Most of its false injections, and of the sets before it, were questions how to do something new with a library or a service an entry is about ("BullMQ: how do I cap a queue at 10 jobs/sec across all workers?", "how do I get pino to pretty print in dev only?"); the rule that such a question, with no word of trouble met, of the project's own things ("my", "our", "we use") or of earlier work, must meet three times the bar came from them, chosen with the first eight sets in view: it lost no answer in any of them (the second set's "How do I get a DB connection into my FastAPI route handler?" and "How do I get the database up locally before running the integration suite?" keep theirs by "my" and "before"), and before it the third to eighth had false injection 25.0%, 20.0%, 33.3%, 15.0%, 30.0% and 60.0% at the same precision@1. The ninth (-7: ${ninth.length} prompts, ${noneShare(ninth)}% with none, three in four of those on a library, tool or table an entry is about; ten prompts in Spanish, Portuguese, Russian, German or French) was written after that rule, by another author given only the store's items, and measured as it came: precision@1 0.733, false injection 15.0% (25.0% on the code before the rule). A review of the rule then widened what counts as trouble met (fix, debug, an exception, cannot, an error code such as \`EADDRINUSE\`, an HTTP status) and as the project's own (a path of one of its files), so that "how do I fix the login redirect" is not taken for new work; with all nine sets in view, no figure moved. Then, from the ninth set's false injections, questions of comparison or choice ("what's the difference between …", "when would you use …", "which … should we use") were counted as how-to questions too: chosen with the first nine sets in view, they took the fifth, seventh and ninth sets' false injection from 26.7%, 10.0% and 15.0% to the figures below, at the same precision@1. The tenth (-8: ${tenth.length} prompts, ${noneShare(tenth)}% with none, nine in ten of those on a library, tool, table or file an entry is about, asked in every form: imperatives, renames, configuration, comparisons, pasted code) was written after all of it, by another author given only the store's items, and is measured as it came; the how-to rule, with or without the last change, moves it little (false injection 45.0% without the rule, 40.0% with it): its false injections are requests for new work on a thing a lesson is about ("rename src/ledger/outbox.ts to src/ledger/outbox-relay.ts and fix all the imports" meets the lesson on the ledger's outbox), which no rule here tells from the requests that a lesson governs ("Write the query for merchant balances with Prisma").\n`,
    );
    say(
      '| set | prompts (answer / none) | precision@1 | precision@1 when something is injected | recall@3 | false injection (no-answer prompts) |\n|---|---|---|---|---|---|',
    );
    const row = (label: string, s: Scores) =>
      say(
        `| ${label} | ${s.answerable} / ${s.unanswerable} | ${f3(s.precisionAt1)} | ${f3(s.precisionAt1WhenInjected)} | ${f3(s.recallAt3)} | ${pct(s.falseInjection)} |`,
      );
    const recall = await scorePromptRecall(paths, labels);
    row('UserPromptSubmit recall, first set', recall);
    const tune = await scorePromptRecall(paths, loadParaphraseLabels('tune'));
    const held = await scorePromptRecall(paths, loadParaphraseLabels('held-out'));
    row('UserPromptSubmit recall, second set, tune', tune);
    row('UserPromptSubmit recall, second set, held-out', held);
    for (const kind of ['paraphrase', 'continuation'] as const) {
      const s = await scorePromptRecall(
        paths,
        second.filter((l) => l.kind === kind || l.kind === 'none'),
      );
      row(`— second set, ${kind === 'paraphrase' ? 'paraphrases' : 'continuations'} only (both halves, with the no-answer prompts)`, s);
    }
    const thirdScores = await scorePromptRecall(paths, third);
    row('UserPromptSubmit recall, third set (another author)', thirdScores);
    const fourthScores = await scorePromptRecall(paths, fourth);
    row('UserPromptSubmit recall, fourth set (another author)', fourthScores);
    const fifthScores = await scorePromptRecall(paths, fifth);
    row('UserPromptSubmit recall, fifth set (another author)', fifthScores);
    const sixthScores = await scorePromptRecall(paths, sixth);
    row('UserPromptSubmit recall, sixth set (another author)', sixthScores);
    const seventhScores = await scorePromptRecall(paths, seventh);
    row('UserPromptSubmit recall, seventh set (another author)', seventhScores);
    const eighthScores = await scorePromptRecall(paths, eighth);
    row('UserPromptSubmit recall, eighth set (another author)', eighthScores);
    const ninthScores = await scorePromptRecall(paths, ninth);
    row('UserPromptSubmit recall, ninth set (another author)', ninthScores);
    const tenthScores = await scorePromptRecall(paths, tenth);
    row('UserPromptSubmit recall, tenth set (another author, written last)', tenthScores);
    row('SessionStart digest, first set', await scoreDigest(paths, labels));
    say(
      '\nBefore issue 17 (the memory tier only, threshold 2, each term of a word counted apart, no names, no synonyms), on this store: first set precision@1 0.818, false injection 8.7%; second set tune 0.400 / 0.0%, held-out 0.240 / 8.3%.',
    );
    say(
      '\nprecision@1: share of the prompts with an answer whose first injected item is one (a prompt that got nothing counts as a miss); recall@3: mean share of each prompt’s answers among its first three items; false injection: share of the no-answer prompts that got anything. The digest is the same whatever the prompt, so it injects for every prompt and holds few of the answers: that is what prompt-time recall adds. Targets: precision@1 ≥ 0.8 and false injection ≤ 10% on the first set; precision@1 ≥ 0.6 and false injection ≤ 10% on the second.\n',
    );
    // How the bar trades precision for silence.
    say('The same prompts at other thresholds (`echoes.recall.threshold`), first set / second set (both halves):\n');
    say('| threshold | precision@1 | when injected | recall@3 | false injection |\n|---|---|---|---|---|');
    for (const threshold of [1, 1.25, 1.5, 2, 2.5, 3]) {
      const config = defaultConfig();
      config.recall.threshold = threshold;
      const a = await scorePromptRecall(paths, labels, config);
      const b = await scorePromptRecall(paths, second, config);
      const both = (f: (s: Scores) => string) => `${f(a)} / ${f(b)}`;
      say(
        `| ${threshold}${threshold === defaultConfig().recall.threshold ? ' (default)' : ''} | ${both((s) => f3(s.precisionAt1))} | ${both((s) => f3(s.precisionAt1WhenInjected))} | ${both((s) => f3(s.recallAt3))} | ${both((s) => pct(s.falseInjection))} |`,
      );
    }
    for (const [name, s] of [
      ['First set', recall],
      ['Second set, held-out', held],
      ['Third set', thirdScores],
      ['Fourth set', fourthScores],
      ['Fifth set', fifthScores],
      ['Sixth set', sixthScores],
      ['Seventh set', seventhScores],
      ['Eighth set', eighthScores],
      ['Ninth set', ninthScores],
      ['Tenth set', tenthScores],
    ] as const) {
      const misses = s.outcomes.filter((o) => o.expect.length > 0 && !(o.got[0] && o.expect.includes(o.got[0])));
      const falses = s.outcomes.filter((o) => o.expect.length === 0 && o.got.length > 0);
      say(
        `\n${name}: misses (${misses.length}): ${misses.filter((o) => o.got.length === 0).length} prompts got nothing, ${misses.filter((o) => o.got.length > 0).length} got another item first. False injections (${falses.length}): ${falses.map((o) => `“${o.prompt}”`).join(', ') || 'none'}.`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  say(END);
}

// `npm run bench:recall`: this section alone, written into BENCHMARKS.md in place of the old one.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const lines: string[] = [];
  await benchRecall((s) => {
    lines.push(s);
    console.log(s);
  });
  const file = join(fileURLToPath(new URL('..', import.meta.url)), 'BENCHMARKS.md');
  const section = lines.join('\n');
  writeBenchSection(file, START, END, section);
}
