import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { documentEntries, parseEchoDocument, renderEntry as renderDocumentEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { compressKnowledge, evidenceRefs, firstSentence } from '../../src/core/lifecycle/knowledge-blocks.ts';
import { estimateTokens } from '../../src/core/text.ts';
import { makeEntry } from './entry-arbitrary.ts';

const now = new Date('2026-06-01T00:00:00Z');

// --- a realistic knowledge.md ------------------------------------------------
// Traced and inscribed learnings as reviewers and workers write them: verbose,
// with one to three cited locations, varied topics, some tags, some entries
// whose evidence is a log rather than a file.

// Per topic: [title, the fact behind it, the files it cites].
const TOPICS: Array<{ tag: string; items: Array<[string, string, string[]]> }> = [
  {
    tag: 'db',
    items: [
      [
        'N+1 queries in order service',
        'Loops over orders issue one query per row instead of using include.',
        ['src/orders/service.ts', 'src/orders/list.ts'],
      ],
      [
        'Prisma transactions need explicit timeout',
        'Long interactive transactions hit the default 5s timeout under load.',
        ['src/db/client.ts', 'src/billing/invoice.ts'],
      ],
      [
        'Missing index on orders.customer_id',
        'Queries filtering by customer scan the whole table without the index.',
        ['prisma/schema.prisma'],
      ],
      [
        'Raw SQL bypasses soft-delete filter',
        'Hand-written queries forget the deleted_at IS NULL condition the ORM adds.',
        ['src/customers/repo.ts', 'src/reports/sql.ts'],
      ],
      [
        'Migrations run outside a transaction',
        'A failed migration leaves half-applied schema changes behind.',
        ['prisma/migrations/20260110_init/migration.sql'],
      ],
    ],
  },
  {
    tag: 'tests',
    items: [
      [
        'Flaky retry test depends on wall clock',
        'The retry test sleeps for real time, so a busy runner makes it fail.',
        ['test/payments/retry.spec.ts'],
      ],
      [
        'Slow test suite in CI',
        'The suite runs serially because a global fixture locks the database.',
        ['vitest.config.ts', 'test/setup/global.ts'],
      ],
      [
        'Snapshot tests hide real regressions',
        'Large snapshots get updated wholesale and nobody reads the diff.',
        ['test/ui/__snapshots__/cart.snap'],
      ],
      [
        'Integration tests share one database',
        'Parallel workers see each other rows and fail on unique constraints.',
        ['test/setup/db.ts'],
      ],
      [
        'Mocks drift from the real HTTP client',
        'The hand-written mock accepts options the real client rejects.',
        ['test/mocks/http.ts', 'src/http/client.ts'],
      ],
    ],
  },
  {
    tag: 'imports',
    items: [
      [
        'Unused imports in new files',
        'New files keep the imports of the template they were copied from.',
        ['src/auth.py', 'src/users/views.py'],
      ],
      [
        'Barrel files create import cycles',
        'Re-exporting everything through index.ts makes modules import themselves.',
        ['src/index.ts', 'src/components/index.ts'],
      ],
      ['Default exports break refactors', 'Renaming a default export does not rename it at the call sites.', ['src/components/Button.tsx']],
      [
        'Deep relative imports across packages',
        'Paths like ../../../shared break as soon as a package moves.',
        ['packages/ui/src/button.tsx'],
      ],
    ],
  },
  {
    tag: 'auth',
    items: [
      [
        'Token refresh races on parallel requests',
        'Two requests that both see an expired token refresh it twice and one fails.',
        ['src/auth/refresh.ts'],
      ],
      ['Session cookie missing SameSite', 'Cookies are sent on cross-site requests because SameSite is not set.', ['src/http/cookies.ts']],
      [
        'Role checks duplicated in controllers',
        'Each controller re-implements the admin check with slight differences.',
        ['src/controllers/admin.ts', 'src/controllers/billing.ts'],
      ],
      ['Password reset links never expire', 'Reset tokens are stored without a creation time.', ['src/auth/reset.ts']],
    ],
  },
  {
    tag: 'ci',
    items: [
      [
        'Cache key ignores the lockfile',
        'The dependency cache is keyed on the branch, so stale modules survive upgrades.',
        ['.github/workflows/ci.yml'],
      ],
      ['Docker build reinstalls dependencies', 'Copying the whole source tree before npm ci defeats the layer cache.', ['Dockerfile']],
      ['Lint step runs after tests', 'A lint failure is only reported after ten minutes of tests.', ['.github/workflows/ci.yml']],
      [
        'Release job needs full git history',
        'The changelog generator needs tags that a shallow clone does not fetch.',
        ['.github/workflows/release.yml'],
      ],
    ],
  },
];

const ELABORATIONS = [
  'This showed up in three separate reviews this month, each time in code written under time pressure.',
  'Reviewers should flag it specifically, because the test suite does not catch it and it only shows under production load.',
  'The fix is small once spotted, but finding it again costs an afternoon of bisecting, so it is worth remembering.',
  'Earlier attempts to fix it globally were reverted because they changed behaviour that other teams rely on.',
  'Check the surrounding module as well, since the same pattern was usually copied to neighbouring files.',
  'When in doubt, write a focused regression test first, e.g. one that reproduces the failure with a fixed seed.',
  'The original author agreed in the PR thread and a follow-up issue was opened to clean up the remaining places.',
];

/** Small deterministic PRNG so the generated file is the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function realisticEntries(count: number): EchoEntry[] {
  const rand = rng(42);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const out: EchoEntry[] = [];
  for (let i = 0; i < count; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const [baseTitle, fact, files] = pick(topic.items);
    // The same lesson seen again in another area of the code base.
    const title = rand() < 0.4 ? `${baseTitle} (${pick(['api', 'worker', 'admin', 'web'])})` : baseTitle;
    const refs = new Set(
      files
        .slice(0, 1 + Math.floor(rand() * files.length))
        .map((f) => `\`${f}:${1 + Math.floor(rand() * 200)}-${201 + Math.floor(rand() * 50)}\``),
    );
    const evidence =
      rand() < 0.15
        ? `CI logs run ${1000 + i} — ${fact.toLowerCase()}`
        : `${[...refs].join(', ')} — ${pick(['found in review', 'seen twice', 'confirmed by a failing test', fact.toLowerCase()])}`;
    const extra = [...ELABORATIONS].sort(() => rand() - 0.5).slice(0, 1 + Math.floor(rand() * 3));
    const day = `2026-0${1 + Math.floor(rand() * 5)}-${String(10 + Math.floor(rand() * 18))}`;
    out.push(
      makeEntry({
        id: `k-${i}`,
        date: day,
        kind: pick(['Pattern', 'Observation', 'Gotcha']),
        title,
        layer: rand() < 0.7 ? 'traced' : 'inscribed',
        source: `rune:${pick(['review', 'work', 'audit'])} ${pick(['PR #', 'session-'])}${100 + i}`,
        confidence: Math.round((0.4 + rand() * 0.55) * 100) / 100,
        evidence,
        verified: day,
        supersedes: 'none',
        tags: rand() < 0.5 ? [topic.tag] : [],
        learning: [fact, ...extra].join(' '),
      }),
    );
  }
  return out;
}

/** The §4 entry format, as the document model writes it. */
function renderEntry(e: EchoEntry): string {
  const lines = [
    `### [${e.date}] ${e.kind}: ${e.title}`,
    `- **id**: ${e.id}`,
    `- **layer**: ${e.layer}`,
    `- **source**: ${e.source}`,
    `- **confidence**: ${e.confidence}`,
    `- **evidence**: ${e.evidence}`,
    `- **verified**: ${e.verified}`,
    `- **supersedes**: ${e.supersedes}`,
  ];
  if (e.tags.length > 0) lines.push(`- **tags**: ${e.tags.join(', ')}`);
  lines.push(`- ${e.learning}`);
  return `${lines.join('\n')}\n`;
}

const HEADER = '<!-- echo-schema: v2 -->\n# Reviewer Knowledge\n\n';

test('compression of a realistic knowledge file over 300 lines saves tokens and keeps every evidence reference', (t) => {
  const entries = realisticEntries(36);
  const before = HEADER + entries.map(renderEntry).join('\n');
  const beforeLines = before.split('\n').length;
  assert.ok(beforeLines > 300, `fixture has ${beforeLines} lines`);

  const { blocks, text } = compressKnowledge(entries, { now });
  const after = HEADER + text;
  const saving = 1 - estimateTokens(after) / estimateTokens(before);
  t.diagnostic(
    `knowledge.md: ${beforeLines} → ${after.split('\n').length} lines, ` +
      `${estimateTokens(before)} → ${estimateTokens(after)} tokens, saving ${(saving * 100).toFixed(1)}% (seed expects ~22%)`,
  );
  assert.ok(saving >= 0.2, `saving ${(saving * 100).toFixed(1)}% should be a real reduction`);

  for (const e of entries) {
    const refs = evidenceRefs(e.evidence);
    assert.ok(refs.length > 0);
    for (const ref of refs) assert.ok(text.includes(ref), `${e.id}: evidence ${ref} is kept`);
  }
  assert.deepEqual(blocks.flatMap((b) => b.ids).sort(), entries.map((e) => e.id).sort(), 'every entry is in exactly one block');
  for (const b of blocks) assert.ok(b.lines.length >= 3 && b.lines.length <= 5, `block "${b.topic}" has ${b.lines.length} lines`);
});

// Real Rune echo files (read in place, never copied): the reviewer, planner and
// orchestrator memories of vinhnxv/rune, far over any limit.
const REAL_MEMORY = fileURLToPath(new URL('../../../shared/realdata/memory/', import.meta.url));

test('compression of real Rune echo files keeps every evidence reference', (t) => {
  if (!existsSync(REAL_MEMORY)) {
    t.skip('realdata not present');
    return;
  }
  const files = readdirSync(REAL_MEMORY).filter((f) => f.includes('__.claude__echoes__'));
  assert.ok(files.length > 0);
  for (const file of files) {
    const entries = documentEntries(parseEchoDocument(readFileSync(REAL_MEMORY + file, 'utf8')));
    const before = entries.map((e) => renderDocumentEntry(e)).join('\n');
    const { text } = compressKnowledge(entries, { now });
    const saving = 1 - estimateTokens(text) / estimateTokens(before);
    t.diagnostic(
      `${file}: ${entries.length} entries, ${estimateTokens(before)} → ${estimateTokens(text)} tokens, saving ${(saving * 100).toFixed(1)}%`,
    );
    assert.ok(saving > 0.2, file);
    for (const e of entries) for (const ref of evidenceRefs(e.evidence)) assert.ok(text.includes(ref), `${file} ${e.id}: ${ref}`);
  }
});

test('related entries share a block: same tag first, then shared title words', () => {
  const entries = [
    makeEntry({ id: 'a', title: 'Slow queries', tags: ['db'], evidence: '`a.ts:1`' }),
    makeEntry({ id: 'b', title: 'Unused imports', evidence: '`b.ts:1`' }),
    makeEntry({ id: 'c', title: 'Missing index', tags: ['db'], evidence: '`c.ts:1`' }),
    makeEntry({ id: 'd', title: 'Imports of test helpers', evidence: '`d.ts:1`' }),
    makeEntry({ id: 'e', title: 'Lonely thing', kind: 'Gotcha', evidence: 'CI logs — slow' }),
  ];
  const { blocks } = compressKnowledge(entries, { now });
  assert.deepEqual(
    blocks.map((b) => [b.topic, b.ids]),
    [
      ['db', ['a', 'c']],
      ['imports', ['b', 'd']],
      ['other', ['e']],
    ],
  );
});

test('a block keeps the first sentence and drops the elaboration and field bullets', () => {
  const e = makeEntry({
    id: 'x',
    title: 'Unused imports in new files',
    confidence: 0.85,
    evidence: '`src/auth.py:1-5` — 3 unused imports found',
    learning:
      'Codebase tends to leave unused imports in newly created files. Reviewers should flag import hygiene in new files specifically.',
    source: 'rune:review PR #42',
    verified: '2026-02-11',
  });
  const { blocks, text } = compressKnowledge([e], { now });
  assert.deepEqual(blocks[0]!.lines, [
    '**other** — 1 entry, 2026-02-11',
    '- Unused imports in new files: Codebase tends to leave unused imports in newly created files. [`src/auth.py:1-5`] (0.85)',
    '- Source: rune:review PR #42',
  ]);
  assert.ok(text.startsWith('<!-- knowledge blocks: 1 entry compressed on 2026-06-01 -->\n\n'));
});

test('entries that cite the same file share a block even with no tag or title word in common', () => {
  const entries = [
    makeEntry({ id: 'a', title: 'Slow listing', evidence: '`src/orders/list.ts:20-44` — a query per order' }),
    makeEntry({ id: 'b', title: 'Missing pagination', evidence: '`src/orders/list.ts:5` — returns every row' }),
    makeEntry({ id: 'c', title: 'Token refresh races', evidence: '`src/auth/refresh.ts:9` — two refreshes' }),
    makeEntry({ id: 'd', title: 'Reset links never expire', evidence: '`src/auth/reset.ts:22` — no createdAt' }),
    makeEntry({ id: 'e', title: 'Unrelated note', kind: 'Gotcha', evidence: 'CI logs — slow' }),
  ];
  assert.deepEqual(
    compressKnowledge(entries, { now }).blocks.map((b) => [b.topic, b.ids]),
    [
      ['src/auth/', ['c', 'd']],
      ['src/orders/list.ts', ['a', 'b']],
      ['other', ['e']],
    ],
  );
});

test('a word most entries share (a frequent word like "case") is not a topic; rarer shared traits are', () => {
  const topics = [
    ['auth', 'Login case', 'Session case', 'Token case'],
    ['billing', 'Invoice case', 'Refund case', 'Tax case'],
    ['search', 'Query case', 'Index case', 'Ranking case'],
  ] as const;
  const entries = topics.flatMap(([tag, ...titles], t) =>
    titles.map((title, i) => makeEntry({ id: `${tag}-${i}`, title, tags: [tag], evidence: `\`src/f${t}${i}.ts:1\`` })),
  );
  const blocks = compressKnowledge(entries, { now }).blocks;
  assert.deepEqual(
    blocks.map((b) => b.topic),
    ['auth', 'billing', 'search'],
  );
  for (const b of blocks)
    assert.ok(
      b.ids.every((id) => id.startsWith(b.topic)),
      `${b.topic}: ${b.ids.join(', ')}`,
    );
});

test('a tag also gathers untagged entries whose title names it', () => {
  const entries = [
    makeEntry({ id: 'a', title: 'Barrel files', tags: ['imports'], evidence: '`a.ts:1`' }),
    makeEntry({ id: 'b', title: 'Unused import in new files', evidence: '`b.ts:1`' }),
  ];
  assert.deepEqual(
    compressKnowledge(entries, { now }).blocks.map((b) => [b.topic, b.ids]),
    [['imports', ['a', 'b']]],
  );
});

test('entries that say the same thing share one line with all their evidence and the higher confidence', () => {
  const base = {
    title: 'Docker build reinstalls dependencies',
    learning: 'Copying the tree first defeats the cache. More words.',
    tags: ['ci'],
  };
  const entries = [
    makeEntry({ ...base, id: 'a', evidence: '`Dockerfile:3`', confidence: 0.5, verified: '2026-01-01' }),
    makeEntry({
      ...base,
      id: 'b',
      evidence: '`Dockerfile:9` — again',
      confidence: 0.9,
      verified: '2026-02-01',
      learning: 'Copying the tree first defeats the cache.',
    }),
    makeEntry({ id: 'c', title: 'Lint after tests', evidence: 'CI logs', confidence: 0.6, tags: ['ci'], verified: '2026-03-01' }),
  ];
  const { blocks } = compressKnowledge(entries, { now });
  assert.deepEqual(blocks[0]!.lines, [
    '**ci** — 3 entries, 2026-01-01…2026-03-01',
    '- Docker build reinstalls dependencies: Copying the tree first defeats the cache. [`Dockerfile:3`, `Dockerfile:9`] (0.90, seen ×2)',
    '- Lint after tests: A learning. [CI logs] (0.60)',
  ]);
});

test('large topics are split into balanced blocks of at most four learnings', () => {
  const entries = Array.from({ length: 9 }, (_, i) => makeEntry({ id: `e${i}`, title: `Retry #${i}`, evidence: `\`r${i}.ts:1\`` }));
  const { blocks } = compressKnowledge(entries, { now });
  assert.deepEqual(
    blocks.map((b) => b.ids.length),
    [3, 3, 3],
  );
  assert.ok(blocks.every((b) => b.topic === 'Retry'));
});

test('compression is deterministic and empty input gives empty text', () => {
  const entries = realisticEntries(12);
  assert.equal(compressKnowledge(entries, { now }).text, compressKnowledge(entries, { now }).text);
  assert.deepEqual(compressKnowledge([], { now }), { blocks: [], text: '' });
});

test('evidence references are the backticked spans, else the text before the description', () => {
  assert.deepEqual(evidenceRefs('`src/a.ts:1-5`, `src/b.ts:9` — found twice'), ['`src/a.ts:1-5`', '`src/b.ts:9`']);
  assert.deepEqual(evidenceRefs('CI logs — test suite took 8min'), ['CI logs']);
  assert.deepEqual(evidenceRefs('PR #42 review thread'), ['PR #42 review thread']);
  assert.deepEqual(evidenceRefs('  '), []);
  assert.deepEqual(evidenceRefs('none'), []);
});

test('first sentence does not stop at abbreviations or file names, and long ones are cut at a word', () => {
  assert.equal(firstSentence('Use e.g. src/app.ts for this. Then more.'), 'Use e.g. src/app.ts for this.');
  assert.equal(firstSentence('No full stop here'), 'No full stop here');
  assert.equal(firstSentence('1. **Verify claims** with grep. 2. **Next** point.'), '1. **Verify claims** with grep.');
  assert.equal(firstSentence('Short. Then more.'), 'Short. Then more.');
  const long = firstSentence(`${'word '.repeat(60)}end.`);
  assert.ok(long.length <= 201 && long.endsWith('word…'));
});

test('token estimate is characters divided by four, rounded up', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcde'), 2);
});
