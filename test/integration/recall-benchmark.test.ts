// The retrieval benchmark's targets (issues 11 and 17), on the store built
// from the real memory files and project histories beside the checkout plus
// the entries, solutions and archive logs of test/fixtures/recall/. On the
// first labelled set prompt-time recall puts a right item first for at least
// 80% of the prompts that have an answer; on the second (prompts sharing few
// words with their lesson, prompts continuing an earlier session) for at least
// 60%; on both it injects something for at most 10% of those that have none.
// The held-out half of the second set is reported, not tuned on; so are the
// third, fourth and fifth sets, written by other authors, whose every expected item
// must exist in the store. The figures go to BENCHMARKS.md through
// `npm run bench:recall`.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { echoFileDocs } from '../../src/core/recall/search-docs.ts';
import { givenKey } from '../../src/store/recall/prompt-recall.ts';
import {
  buildRecallStore,
  loadIndependentLabels,
  loadLabels,
  loadParaphraseLabels,
  realdataAvailable,
  type Scores,
  scoreDigest,
  scorePromptRecall,
} from '../helpers/recall-benchmark.ts';

const figures = (s: Scores) =>
  `precision@1 ${s.precisionAt1.toFixed(3)}, recall@3 ${s.recallAt3.toFixed(3)}, false injection ${s.falseInjection.toFixed(3)}`;

test('the labelled set has at least 60 prompts, at least 20 of them with no answer', () => {
  const labels = loadLabels();
  assert.ok(labels.length >= 60, `${labels.length} prompts`);
  assert.ok(labels.filter((l) => l.expect.length === 0).length >= 20);
});

test('prompt-time recall meets its targets on the realistic store: precision@1 ≥ 0.8, false injection ≤ 10%', async (t) => {
  if (!realdataAvailable()) return t.skip('../shared/realdata not present');
  const dir = mkdtempSync(join(tmpdir(), 'rune-recall-bench-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const paths = await buildRecallStore(dir);
  const labels = loadLabels();
  const recall = await scorePromptRecall(paths, labels);
  t.diagnostic(figures(recall));
  assert.ok(recall.precisionAt1 >= 0.8, `precision@1 ${recall.precisionAt1}`);
  assert.ok(recall.falseInjection <= 0.1, `false injection ${recall.falseInjection}`);
  // The digest cannot know the prompt: it is the baseline prompt-time recall exists to beat.
  const digest = await scoreDigest(paths, labels);
  assert.equal(digest.falseInjection, 1);
  assert.ok(recall.recallAt3 > digest.recallAt3);
});

test('the second labelled set has paraphrases, continuations and no-answer prompts in both halves', () => {
  const labels = loadParaphraseLabels();
  for (const split of ['tune', 'held-out'] as const)
    for (const [kind, least] of [
      ['paraphrase', 15],
      ['continuation', 6],
      ['none', 10],
    ] as const)
      assert.ok(labels.filter((l) => l.split === split && l.kind === kind).length >= least, `${split} ${kind}`);
  assert.ok(labels.every((l) => (l.kind === 'none') === (l.expect.length === 0)));
});

test('prompt-time recall on prompts that share few words with their lesson or continue an earlier session: precision@1 ≥ 0.6, false injection ≤ 10%', async (t) => {
  if (!realdataAvailable()) return t.skip('../shared/realdata not present');
  const dir = mkdtempSync(join(tmpdir(), 'rune-recall-bench-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const paths = await buildRecallStore(dir);
  const all = await scorePromptRecall(paths, loadParaphraseLabels());
  const tune = await scorePromptRecall(paths, loadParaphraseLabels('tune'));
  const held = await scorePromptRecall(paths, loadParaphraseLabels('held-out'));
  t.diagnostic(`second set: ${figures(all)}; tune half: ${figures(tune)}; held-out half: ${figures(held)}`);
  for (const [name, s] of [
    ['the second set', all],
    ['its tune half', tune],
  ] as const) {
    assert.ok(s.precisionAt1 >= 0.6, `${name}: precision@1 ${s.precisionAt1}`);
    assert.ok(s.falseInjection <= 0.1, `${name}: false injection ${s.falseInjection}`);
  }
});

test('the sets of other authors name only items the store has, and hold each kind of prompt', async (t) => {
  if (!realdataAvailable()) return t.skip('../shared/realdata not present');
  const dir = mkdtempSync(join(tmpdir(), 'rune-recall-bench-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await buildRecallStore(dir);
  const keysOf = new Map<string, Set<string>>();
  const itemsOf = (path: string): Set<string> => {
    let keys = keysOf.get(path);
    if (!keys) {
      const role = /^\.claude\/echoes\/([^/]+)\//.exec(path)?.[1];
      const source = path.endsWith('MEMORY.md') ? 'memory' : path.endsWith('knowledge.md') ? 'knowledge' : 'topic';
      const docs = echoFileDocs(readFileSync(join(dir, path), 'utf8'), { path, source, ...(role ? { role } : {}) });
      keys = new Set(docs.map((d) => givenKey(d)));
      keysOf.set(path, keys);
    }
    return keys;
  };
  for (const which of ['third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'] as const) {
    const labels = loadIndependentLabels(which);
    for (const kind of ['paraphrase', 'continuation', 'none'] as const)
      assert.ok(labels.filter((l) => l.kind === kind).length >= 8, `${which} ${kind}`);
    assert.ok(labels.every((l) => (l.kind === 'none') === (l.expect.length === 0)));
    for (const key of labels.flatMap((l) => l.expect)) {
      const entry = /^([a-z-]+)#(.+)$/.exec(key);
      if (entry) {
        assert.ok(itemsOf(`.claude/echoes/${entry[1]}/MEMORY.md`).has(key), `${which}: ${key}`);
        continue;
      }
      const [, path, line] = /^(.+):(\d+)$/.exec(key) ?? [];
      assert.ok(path && existsSync(join(dir, path)), `${which}: ${key}`);
      // A whole log or document is named by its first line; a topic file's item by its own.
      if (line !== '1') assert.ok(itemsOf(path).has(key), `${which}: ${key}`);
    }
  }
});
