// Remembrance (SPEC §11): promote refuses with the rule that failed and writes
// nothing; a promoted document has YAML frontmatter and an echo_ref whose hash
// tells when the entry changed; remembrance lists, searches and verifies.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { parse } from 'yaml';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { canonicalEntryText, formatEchoRef, parseEchoRef } from '../../src/core/remembrance/echo-ref.ts';
import { cliJson, runCli } from '../helpers/cli-run.ts';
import { diffSnapshots, makeTempProject, type TempProject } from '../helpers/temp-project.ts';

const base: EchoEntry = {
  id: 'n-plus-one-order-list',
  idExplicit: true,
  date: '2026-02-13',
  kind: 'Pattern',
  title: 'N+1 queries in the order list',
  layer: 'etched',
  source: 'rune:review',
  confidence: 0.95,
  evidence: '`src/orders/list.ts:20-44` — one query per order',
  verified: '2026-02-13',
  supersedes: 'none',
  tags: ['performance', 'database'],
  symptom: 'GET /orders takes 5 s for large customers',
  rootCause: 'one query per order for the line items',
  solution: 'Load line items with `include` in src/orders/list.ts',
  learning: 'Loops over orders issue one query per row.',
  extra: [],
};

function store(t: { after(fn: () => void): void }, entries: Array<Partial<EchoEntry> & { role?: string }> = [{}]): TempProject {
  const tp = makeTempProject(t);
  const byRole = new Map<string, EchoEntry[]>();
  for (const { role = 'reviewer', ...over } of entries) byRole.set(role, [...(byRole.get(role) ?? []), { ...base, ...over }]);
  for (const [role, list] of byRole)
    tp.write(`.claude/echoes/${role}/MEMORY.md`, `<!-- echo-schema: v2 -->\n# Memory\n\n${list.map((e) => renderEntry(e)).join('\n')}`);
  return tp;
}

/** Runs a promote that must be refused: exit 1, one line naming the rule, nothing written. */
async function refused(tp: TempProject, args: string[], rule: string, message: RegExp): Promise<void> {
  const before = tp.snapshot();
  const r = await runCli(tp, ['promote', ...args]);
  assert.equal(r.code, 1, r.stdout);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`^rune-echoes: promote refused \\(${rule}\\): `));
  assert.match(r.stderr, message);
  assert.deepEqual(diffSnapshots(before, tp.snapshot()), [], 'nothing written');
}

test('promote writes docs/solutions/<category>/<slug>.md with YAML frontmatter and an echo_ref over the canonical form', async (t) => {
  const tp = store(t);
  const out = await cliJson(tp, ['promote', 'reviewer/MEMORY.md#n-plus-one-order-list', '--category', 'performance']);
  assert.equal(out.path, 'docs/solutions/performance/n-1-queries-in-the-order-list.md');
  const text = tp.read(out.path)!;
  const front = parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!);
  const hash = createHash('sha256').update(canonicalEntryText(base), 'utf8').digest('hex');
  assert.deepEqual(front, {
    title: 'N+1 queries in the order list',
    category: 'performance',
    tags: ['performance', 'database'],
    date: '2026-05-01',
    symptom: base.symptom,
    root_cause: base.rootCause,
    solution_summary: base.solution,
    echo_ref: `.claude/echoes/reviewer/MEMORY.md#n-plus-one-order-list@sha256:${hash}`,
    confidence: 'high',
    verified_by: 'agent',
  });
  assert.match(text, /\n## Root cause\n\none query per order for the line items\n/);
  assert.match(text, /\n## Evidence\n\n`src\/orders\/list\.ts:20-44` — one query per order\n$/);
});

test('the problem-solution fields can come from flags when the entry has none, and pass the secret filter', async (t) => {
  const tp = store(t, [{ symptom: undefined, rootCause: undefined, solution: undefined }]);
  const key = ['AK', 'IA', 'QWERTYUIOPASDFGH'].join('');
  const out = await cliJson(tp, [
    'promote',
    'n-plus',
    '--category',
    'performance',
    '--symptom',
    'Slow list',
    '--root-cause',
    'A query per row',
    '--solution',
    `Run \`pnpm migrate\` with ${key} set`,
  ]);
  const text = tp.read(out.path)!;
  assert.ok(!text.includes(key), text);
  assert.match(text, /\[REDACTED:/);
  assert.match(text, /^symptom: Slow list$/m);
});

test('every refusal names its rule and writes nothing', async (t) => {
  await refused(store(t, [{ layer: 'inscribed' }]), ['n-plus', '--category', 'performance'], 'not-etched', /is inscribed/);
  await refused(
    store(t, [{ rootCause: undefined, solution: undefined }]),
    ['n-plus', '--category', 'performance'],
    'no-problem-solution',
    /has no root cause, solution \(give --root-cause, --solution\)/,
  );
  await refused(
    store(t, [{ confidence: 0.85 }]),
    ['n-plus', '--category', 'performance'],
    'not-validated',
    /0\.85 is below 0\.9 and 0 session/,
  );
  await refused(
    store(t, [{ tags: ['agent-internal'] }]),
    ['n-plus', '--category', 'performance'],
    'not-actionable',
    /agent's own workings/,
  );
  await refused(
    store(t, [{ solution: 'Be more careful next time' }]),
    ['n-plus', '--category', 'performance'],
    'not-actionable',
    /names no file, command or step/,
  );
  await refused(store(t), ['n-plus', '--category', 'security'], 'needs-human', /needs --verified-by human: ask the user/);
  await refused(store(t), ['n-plus', '--category', 'security', '--verified-by', 'agent'], 'needs-human', /needs --verified-by human/);

  const dup = store(t, [{}, { id: 'other', title: 'Slow customer page', rootCause: 'a cache miss on every request', tags: ['x'] }]);
  await cliJson(dup, ['promote', 'n-plus', '--category', 'performance']);
  await refused(
    dup,
    ['n-plus', '--category', 'performance'],
    'duplicate',
    /duplicate of docs\/solutions\/performance\/n-1-queries-in-the-order-list\.md \(the same entry/,
  );
  dup.write('docs/solutions/performance/same-title.md', '---\ntitle: Slow customer page\ntags: []\nroot_cause: unrelated\n---\n');
  await refused(dup, ['other', '--category', 'performance'], 'duplicate', /same-title\.md \(same title\)/);
  const cause = store(t, [{ id: 'c', title: 'Another title', rootCause: 'one query per order for the line items', tags: [] }]);
  cause.write('docs/solutions/performance/x.md', '---\ntitle: X\nroot_cause: One query per order for the line items.\n---\n');
  await refused(cause, ['c', '--category', 'performance'], 'duplicate', /x\.md \(similar root cause\)/);
  const tags = store(t, [{ id: 'd', title: 'Tagged', rootCause: 'different', tags: ['a', 'b', 'c'] }]);
  tags.write('docs/solutions/tooling/y.md', '---\ntitle: Y\ntags: [a, b, c, d]\nroot_cause: unrelated words\n---\n');
  await refused(tags, ['d', '--category', 'tooling'], 'duplicate', /y\.md \(shares the tags a, b, c\)/);
});

test('a security solution is written only with --verified-by human, and says so', async (t) => {
  const tp = store(t, [{ tags: ['security', 'sql'], title: 'String-built SQL in reports' }]);
  const out = await cliJson(tp, ['promote', 'n-plus', '--category', 'security', '--verified-by', 'human']);
  assert.match(tp.read(out.path)!, /^verified_by: human$/m);
});

test('validated by use: two sessions that referenced the entry stand in for high confidence', async (t) => {
  const tp = store(t, [{ confidence: 0.7 }]);
  const line = (s: string) => `${JSON.stringify({ ts: '2026-04-01T10:00:00Z', session: s, event: 'referenced', ids: [base.id] })}\n`;
  tp.write('.claude/echoes/usage.jsonl', line('s1'));
  await refused(tp, ['n-plus', '--category', 'performance'], 'not-validated', /1 session\(s\) used it/);
  tp.write('.claude/echoes/usage.jsonl', line('s1') + line('s2'));
  const out = await cliJson(tp, ['promote', 'n-plus', '--category', 'performance']);
  assert.match(tp.read(out.path)!, /^confidence: medium$/m);
});

test('echo_ref forms: role/MEMORY.md#id, role#id, a full echo_ref, an id and a unique prefix name the same entry', async (t) => {
  const hash = createHash('sha256').update(canonicalEntryText(base), 'utf8').digest('hex');
  for (const ref of [
    'reviewer/MEMORY.md#n-plus-one-order-list',
    'reviewer#n-plus-one-order-list',
    `.claude/echoes/reviewer/MEMORY.md#n-plus-one-order-list@sha256:${hash}`,
    'n-plus-one-order-list',
    'n-plus',
  ]) {
    const tp = store(t);
    const out = await cliJson(tp, ['promote', ref, '--category', 'performance']);
    assert.equal(out.id, 'n-plus-one-order-list', ref);
    assert.equal(out.echoRef, formatEchoRef('reviewer', base.id, hash));
  }
  const two = store(t, [{}, { id: 'n-plus-two', title: 'Two' }]);
  const amb = await runCli(two, ['promote', 'n-plus', '--category', 'performance']);
  assert.equal(amb.code, 1);
  assert.match(amb.stderr, /"n-plus" matches 2 entries \(reviewer#n-plus-one-order-list, reviewer#n-plus-two\)/);
  for (const bad of ['../etc#x', 'Reviewer#X', 'a b']) {
    const r = await runCli(store(t), ['promote', bad, '--category', 'performance']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /is not an entry reference/);
  }
  assert.deepEqual(parseEchoRef('planner#x'), { path: '.claude/echoes/planner/MEMORY.md', role: 'planner', id: 'x' });
  assert.equal(parseEchoRef('x@sha256:abc'), null, 'a hash must be 64 hex digits');
});

test('hash verification: an edit of the entry shows as changed, a re-verification does not, a forgotten entry as gone', async (t) => {
  const tp = store(t);
  const { path } = await cliJson(tp, ['promote', 'n-plus', '--category', 'performance']);
  const state = async () => (await cliJson(tp, ['remembrance', '--verify'])).documents.find((d: { path: string }) => d.path === path).state;
  assert.equal(await state(), 'current');
  const mem = '.claude/echoes/reviewer/MEMORY.md';
  // A new verified date and a higher confidence are not a change of content.
  tp.write(mem, tp.read(mem)!.replace('- **verified**: 2026-02-13', '- **verified**: 2026-04-30').replace('0.95', '0.97'));
  assert.equal(await state(), 'current');
  tp.write(mem, tp.read(mem)!.replace('one query per row.', 'one query per row, twice.'));
  assert.equal(await state(), 'changed');
  const status = await runCli(tp, ['status']);
  assert.match(
    status.stdout,
    /^solution out of date: docs\/solutions\/performance\/n-1-queries-in-the-order-list\.md \(its entry changed since promotion;/m,
  );
  assert.deepEqual((await cliJson(tp, ['status'])).solutionsOutOfDate, [{ path, state: 'changed' }]);
  await cliJson(tp, ['forget', base.id, '--yes']);
  assert.equal(await state(), 'vanished');
});

test('canonical form: one line per content field, whitespace collapsed, dates and confidence left out', () => {
  assert.equal(
    canonicalEntryText({ ...base, learning: 'Two\n  lines.', tags: ['a', 'b'] }),
    [
      'id: n-plus-one-order-list',
      'kind: Pattern',
      'title: N+1 queries in the order list',
      'symptom: GET /orders takes 5 s for large customers',
      'root_cause: one query per order for the line items',
      'solution: Load line items with `include` in src/orders/list.ts',
      'evidence: `src/orders/list.ts:20-44` — one query per order',
      'tags: a, b',
      'learning: Two lines.',
    ].join('\n'),
  );
  assert.equal(canonicalEntryText({ ...base, verified: '2030-01-01', confidence: 0.1, layer: 'traced' }), canonicalEntryText(base));
});

test('remembrance lists by category, searches by words, and reports a malformed file without losing the rest', async (t) => {
  const tp = store(t);
  await cliJson(tp, ['promote', 'n-plus', '--category', 'performance']);
  tp.write('docs/solutions/build-errors/broken.md', '---\ntitle: [oops\n---\nThe zanzibar build step hangs.\n');
  tp.write(
    'docs/solutions/build-errors/ok.md',
    '---\ntitle: Prisma client missing\ncategory: build-errors\nsymptom: Cannot find module\n---\nRun prisma generate.\n',
  );
  const all = await runCli(tp, ['remembrance']);
  assert.equal(all.code, 0, all.stderr);
  assert.match(all.stdout, /^build-errors \(2\)$/m);
  assert.match(all.stdout, /^ {4}\(frontmatter is not valid YAML .*; its text is still searched\)$/m);
  assert.match(all.stdout, /^performance \(1\)$/m);
  const cat = await cliJson(tp, ['remembrance', 'performance']);
  assert.deepEqual(
    cat.documents.map((d: { path: string }) => d.path),
    ['docs/solutions/performance/n-1-queries-in-the-order-list.md'],
  );
  const words = await cliJson(tp, ['remembrance', 'zanzibar', 'build']);
  assert.equal(words.documents[0].path, 'docs/solutions/build-errors/broken.md');
  assert.match(words.documents[0].problem, /not valid YAML/);
  const none = await runCli(makeTempProject(t), ['remembrance']);
  assert.match(none.stdout, /^no solution documents in docs\/solutions\/ yet/);
});
