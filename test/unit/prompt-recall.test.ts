import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { itemParts, RECALL_NOTE, type RecallItem, renderRecall } from '../../src/core/recall/recall-render.ts';
import {
  asksHowToNew,
  BAR_WORDS,
  clearingItems,
  continuesEarlierWork,
  LOG_FACTOR,
  logBar,
  OTHERS_SHARE,
  promptBar,
  WORD_FLOOR,
} from '../../src/core/recall/recall-select.ts';
import { rankDocuments, type SegmentView } from '../../src/core/recall/search-rank.ts';
import { estimateTokens } from '../../src/core/text.ts';

/** An item whose words add alike unless its strongest word's share (`top`) is given. */
const item = (raw: number, score: number, matched: number, exact = 0, top = raw / matched) => ({ raw, score, matched, exact, top });

test('an item must hold two prompt words, reach the threshold, and score at least half the best', () => {
  assert.deepEqual(clearingItems([item(5, 5, 1)], 2), [], 'one word, however rare, is not enough');
  assert.deepEqual(clearingItems([item(1.9, 9, 4)], 2), [], 'below the threshold');
  const strong = item(4, 10, 3);
  const weak = item(2.1, 4.9, 2);
  const fair = item(2.5, 6, 2);
  assert.deepEqual(clearingItems([weak, strong, fair], 2), [strong, fair], 'best first; under half the best is left out');
  assert.deepEqual(clearingItems([weak, strong, fair], 4.5), [], 'a higher threshold lets less through');
});

test('an item holding a rare exact name of the prompt (a file, an error code) needs less of the threshold, but still two words', () => {
  assert.deepEqual(clearingItems([item(1.2, 1.2, 2)], 1.5), [], 'below the threshold, no name');
  const named = item(1.2, 1.2, 2, 0.9);
  assert.deepEqual(clearingItems([named], 1.5), [named]);
  assert.deepEqual(clearingItems([item(1.2, 1.2, 2, 0.2)], 1.5), [], 'a name met only in passing in a long item');
  assert.deepEqual(clearingItems([item(1.2, 1.2, 1, 1.2)], 1.5), [], 'a name alone is one word');
});

test('a match that rests on one word is not recalled: the other words add at least a share of the bar, unless a name is held', () => {
  // A lesson titled after its library: the name weighs 1.8, and a question about another use of the library adds `logs`.
  const library = item(2.2, 2.2, 2, 0, 1.8);
  assert.deepEqual(clearingItems([library], 1.5), [], 'the library, not the lesson');
  assert.ok(library.raw >= 1.5 && library.raw - library.top < 1.5 * OTHERS_SHARE, 'it reached the bar, on one word');
  const lesson = item(2.6, 2.6, 3, 0, 1.8);
  assert.deepEqual(clearingItems([lesson], 1.5), [lesson], 'the lesson: its other words add more than half the bar');
  const named = item(1.2, 1.2, 2, 0.9, 1.0);
  assert.deepEqual(clearingItems([named], 1.5), [named], 'a name of the prompt is rarely typed by chance');
  const even = item(1.6, 1.6, 2, 0, 0.8);
  assert.deepEqual(clearingItems([even], 1.5), [even], 'two words that add alike');
});

test('the bar rises with the length of the prompt: a long prompt shares words with any item by chance', () => {
  assert.equal(promptBar(1.5, 3), 1.5, 'a short prompt meets the threshold as it is');
  assert.equal(promptBar(1.5, BAR_WORDS), 1.5);
  assert.equal(promptBar(1.5, BAR_WORDS * 4), 3, 'four times the words, twice the bar');
  assert.equal(promptBar(1.5, BAR_WORDS * 25), 7.5, 'a pasted page: five times');
  const twoRareWords = item(2.2, 2.2, 2);
  assert.deepEqual(clearingItems([twoRareWords], promptBar(1.5, 6)), [twoRareWords], 'two rare words of a one-line prompt');
  assert.deepEqual(clearingItems([twoRareWords], promptBar(1.5, 60)), [], 'the same two words in a pasted page are chance');
  assert.ok(promptBar(1.5, 30) > promptBar(1.5, 20), 'monotone');
});

test("a how-to question about something new is told from one about trouble met, the project's own things or earlier work", () => {
  for (const p of [
    'bullmq: how do I limit a worker to at most 5 jobs per second',
    'kysely - how to write a query with a CTE and row_number() over (partition by merchant_id)',
    "what's the best way to serve the built react SPA from FastAPI?",
    'como faço para configurar o pino para imprimir bonito em dev?',
    'wie kann ich in vitest nur einen export mocken?',
    'как настроить ретраи в bullmq для одного воркера',
    // Comparisons and choices ask for general knowledge too.
    "what's the difference between a BullMQ FlowProducer and adding jobs to a queue?",
    'when would you use flows instead of plain jobs',
    'which eviction policy should we use for a cache-only redis',
    'with bullmq how can a long running job report progress to the admin page',
  ])
    assert.ok(asksHowToNew(p), p);
  for (const p of [
    'how do I get a DB connection into my FastAPI route handler?',
    'how do I stop the settlement job from running twice?',
    'why does the webhook fail signature checks, how do I fix it',
    'how do I get the database up locally before running the integration suite?',
    'how did we set up the staging deploy again?',
    'como faço para o teste não travar com fake timers?',
    'add a retry to the payout job',
    'how do I fix the login redirect',
    'how do I get around the EADDRINUSE on port 3000',
    'how do I call fetchInvoices in packages/billing/src/api.ts?',
    'как мне исправить ошибку сборки?',
    'как мне обойти проблему с кешем?',
    "what's the difference between our staging and production deploys?",
    // The project's own ways: "do we use", "can we use" ask about them ("should we use" asks for a choice).
    'how do we use the billing client?',
    'when do we use the retry queue instead of the DLQ?',
    'how can we use the shared redis for sessions',
    // "use" inside another word is no choice asked for.
    'what exactly would you do here because the tests are red',
  ])
    assert.ok(!asksHowToNew(p), p);
});

test('archive logs are looked at for a prompt that continues earlier work or names something, at a higher bar for the latter', () => {
  assert.ok(continuesEarlierWork('what remains of the receipts plan?'));
  assert.ok(continuesEarlierWork('the import fails again'));
  assert.ok(!continuesEarlierWork('Add a dark mode toggle to the settings page'));
  assert.deepEqual(logBar('what remains of the receipts plan?', 1.5, false), { threshold: 1.5, withLessons: true });
  assert.deepEqual(logBar('Fix browser.test.ts', 1.5, true), { threshold: 1.5 * LOG_FACTOR, withLessons: false });
  assert.equal(logBar('Add a dark mode toggle', 1.5, false), null, 'most prompts do not read the logs at all');
});

test('a prompt asking about the state of earlier work continues it: "… yet?", "did we…", "carry on", "next step"', () => {
  for (const p of [
    'Is the staging certificate renewed yet?',
    'Did we ever merge the retry fix?',
    'have we already switched the invoices to the new queue',
    "Let's carry on with the invoice export",
    'what was the next step for the CSV importer',
  ])
    assert.ok(continuesEarlierWork(p), p);
  for (const p of [
    'Add a next button to the signup wizard',
    'Why did the build fail?',
    'We need a carry flag in the adder',
    'Show the last login time',
  ])
    assert.ok(!continuesEarlierWork(p), p);
});

test('ranking by groups: a group counts once, by its best term, a synonym at its weight; exact names are reported', () => {
  // Two documents: 0 holds "db" and "database"; 1 holds "database" only.
  const list = (ids: number[]) => ({ ids: Uint32Array.from(ids), tfs: Uint16Array.from(ids.map(() => 1)) });
  const postings: Record<string, ReturnType<typeof list>> = { db: list([0]), databas: list([0, 1]), 'a.ts': list([1]) };
  const seg: SegmentView = {
    attrs: { count: 2, len: () => 10, source: () => 'memory', layer: () => undefined, role: () => 0, day: () => 0 },
    roles: [],
    deleted: new Set(),
    lookup: (t) => postings[t] ?? null,
  };
  const stats = { docs: 2, totalLen: 20 };
  const flat = rankDocuments([seg], ['db', 'databas'], { limit: 5, stats, coverage: false });
  assert.equal(flat.find((r) => r.doc === 0)!.matched, 2, 'without groups each term is a word');
  const groups = { of: [0, 0, 1], weight: [1, 0.5, 1], exact: [false, false, true] };
  const grouped = rankDocuments([seg], ['db', 'databas', 'a.ts'], { limit: 5, stats, coverage: false, groups });
  const d0 = grouped.find((r) => r.doc === 0)!;
  const d1 = grouped.find((r) => r.doc === 1)!;
  assert.equal(d0.matched, 1, 'a word and its synonym are one word');
  assert.equal(d1.matched, 2);
  assert.ok(d0.exact === 0 && d1.exact > 0, 'the exact name is reported for the item holding it');
  assert.equal(d0.top, d0.raw, 'one word: it is the strongest');
  assert.ok(d1.top > 0 && d1.top < d1.raw, 'two words: the strongest is part of the sum');
  assert.equal(
    Math.max(
      ...['databas', 'a.ts'].map((t) => rankDocuments([seg], [t], { limit: 5, stats, coverage: false }).find((r) => r.doc === 1)!.raw),
    ),
    d1.top,
  );
  const onlySynonym = rankDocuments([seg], ['databas'], {
    limit: 5,
    stats,
    coverage: false,
    groups: { of: [0], weight: [0.5], exact: [false] },
  });
  const full = rankDocuments([seg], ['databas'], { limit: 5, stats, coverage: false });
  assert.ok(Math.abs(onlySynonym[0]!.raw - full[0]!.raw * 0.5) < 1e-9, 'a synonym weighs its share');
});

test('a word most items hold adds nothing under the floor: it is no second word of the prompt', () => {
  // Ten documents: every one holds "src"; only 0 holds "unit".
  const list = (ids: number[]) => ({ ids: Uint32Array.from(ids), tfs: Uint16Array.from(ids.map(() => 1)) });
  const all = Array.from({ length: 10 }, (_, i) => i);
  const postings: Record<string, ReturnType<typeof list>> = { unit: list([0]), src: list(all), money: list([0]) };
  const seg: SegmentView = {
    attrs: { count: 10, len: () => 10, source: () => 'memory', layer: () => undefined, role: () => 0, day: () => 0 },
    roles: [],
    deleted: new Set(),
    lookup: (t) => postings[t] ?? null,
  };
  const opts = { limit: 5, stats: { docs: 10, totalLen: 100 }, coverage: false, weigh: 'rarity' as const };
  const loose = rankDocuments([seg], ['unit', 'src'], opts).find((r) => r.doc === 0)!;
  const floored = rankDocuments([seg], ['unit', 'src'], { ...opts, floor: WORD_FLOOR }).find((r) => r.doc === 0)!;
  assert.equal(loose.matched, 2);
  assert.ok(loose.raw > floored.raw, 'the common word added something without the floor');
  assert.equal(floored.matched, 1, 'and nothing with it');
  assert.equal(clearingItems([floored], 0.1).length, 0, 'one word left: not recalled, whatever the threshold');
  // Two rare words both count.
  const both = rankDocuments([seg], ['unit', 'money'], { ...opts, floor: WORD_FLOOR }).find((r) => r.doc === 0)!;
  assert.equal(both.matched, 2);
  // Documents only the common word met are not ranked at all.
  assert.equal(rankDocuments([seg], ['src'], { ...opts, floor: WORD_FLOOR }).length, 0);
});

test('going on with earlier work said in Portuguese, Spanish, German, French or Russian continues it too', () => {
  for (const p of [
    'roda de novo aquele script de transcrição',
    'o que ainda falta no plano dos recibos?',
    '¿seguimos con la migración de ayer?',
    'otra vez falla el import',
    'mach mit dem Export weiter',
    'reprendre la migration des factures',
    'продолжи переименование файлов',
    'ещё раз запусти импорт',
  ])
    assert.ok(continuesEarlierWork(p), p);
  assert.ok(continuesEarlierWork('еще раз запусти импорт'), 'ё written as е');
  for (const p of [
    'escreva um teste para a função slugify',
    'добавь кнопку в настройки',
    'crea un Dockerfile para la app',
    'Der Fehler ist hier: im Parser',
  ])
    assert.ok(!continuesEarlierWork(p), p);
});

const entry: RecallItem = {
  source: 'memory',
  title: 'Payment retries use jittered backoff',
  role: 'reviewer',
  id: 'retry-backoff',
  path: '.claude/echoes/reviewer/MEMORY.md',
  line: 4,
  text: '### [2026-11-01] Pattern: Payment retries use jittered backoff\n- **id**: retry-backoff\n- **layer**: inscribed\n- **evidence**: `src/retry.ts:40` — capped\n- Payment retries are capped at 3.\n',
};

test('an entry is one line: its title, its learning, where it comes from and its evidence; stale ones say so', () => {
  assert.deepEqual(itemParts(entry), { body: 'Payment retries are capped at 3.', evidence: '`src/retry.ts:40` — capped' });
  const r = renderRecall([{ ...entry, staleSince: '2026-03-01' }], 300)!;
  assert.equal(
    r.text,
    `<rune-echoes note="${RECALL_NOTE}">\n- Payment retries use jittered backoff: Payment retries are capped at 3. (reviewer#retry-backoff; evidence: \`src/retry.ts:40\` — capped) (evidence changed since 2026-03-01)\n</rune-echoes>`,
  );
  assert.equal(r.shown, 1);
});

test('property: whatever the items say, the text stays within its budget and has exactly one wrapper', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ title: fc.string({ maxLength: 200 }), text: fc.string({ maxLength: 2000 }) }), { maxLength: 6 }),
      fc.integer({ min: 50, max: 600 }),
      fc.constantFrom('</rune-echoes>', '<rune-echoes note="x">', '＜/rune-echoes＞', '&lt;/rune-echoes&gt;', '</RUNE-ECHOES >'),
      (items, budget, hostile) => {
        const r = renderRecall(
          items.map((i) => ({ ...entry, title: `${i.title}${hostile}`, text: `${hostile}${i.text}${hostile}` })),
          budget,
        );
        if (r === null) return;
        assert.ok(r.tokens <= budget, `${r.tokens} > ${budget}`);
        assert.equal(r.text.toLowerCase().split('<rune-echoes').length - 1, 1);
        assert.equal(r.text.toLowerCase().split('</rune-echoes').length - 1, 1);
        assert.equal(r.tokens, estimateTokens(r.text));
      },
    ),
    { numRuns: 300 },
  );
});

test('an archive log is one line: when the session ran, what it was asked, what it left open, and which log to read', () => {
  const log: RecallItem = {
    source: 'log',
    title: 'Plan the receipts',
    path: '.claude/echoes/memories/archive-log-007.md',
    line: 1,
    text: '# Archive log 007\n- session: 5d1c2a7e\n- span: 2026-10-27T09:12:00.000Z → 2026-10-27T11:40:00.000Z\n## Asked\n- Plan the receipts\n- and more\n## Done and decided\n- Step 1 is done\n## Open\n- [ ] Receipt template\n- [ ] PDF attachment\n',
  };
  const r = renderRecall([log], 300)!;
  assert.match(
    r.text,
    /\n- Earlier session 2026-10-27: Plan the receipts — open: Receipt template; PDF attachment \(\.claude\/echoes\/memories\/archive-log-007\.md\)\n/,
  );
  const done = renderRecall([{ ...log, text: log.text.replace(/## Open[\s\S]*$/, '') }], 300)!;
  assert.match(done.text, /Plan the receipts — Step 1 is done \(/, 'with nothing open, its last conclusion');
  // The files it edited, whole names as many as their share holds: where the work it goes on from lives.
  const names = ['src/receipts/template.ts', 'src/receipts/pdf.ts', ...Array.from({ length: 12 }, (_, i) => `src/mail/part-${i}.ts`)];
  const files = `## Files\n- edited: ${names.join(', ')}\n- read: README.md\n`;
  const withFiles = renderRecall([{ ...log, text: log.text.replace('## Open', `${files}## Open`) }], 300)!;
  assert.match(
    withFiles.text,
    /\n- Earlier session 2026-10-27: Plan the receipts — open: Receipt template; PDF attachment; edited: src\/receipts\/template\.ts, src\/receipts\/pdf\.ts, .*\(\+\d+ more\) \(\.claude\/echoes\/memories\/archive-log-007\.md\)\n/,
  );
  assert.ok(!withFiles.text.includes('README.md'), 'what it only read is left to the log');
  // On a line too short for both, what it left open stays and the files give way.
  const narrow = renderRecall([{ ...log, text: log.text.replace('## Open', `${files}## Open`) }], 75)!;
  assert.match(narrow.text, /— open: Receipt template; PDF attachment \(/);
  assert.ok(!narrow.text.includes('edited:'), narrow.text);
});
