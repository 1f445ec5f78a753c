// Search through the on-disk index: ranking on a fixture with known answers,
// what a hit shows, incremental updates (reads counted), a corrupt or foreign
// index, concurrent queries and updates in real processes, filters, bad input.
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultConfig } from '../../src/core/config/config-defaults.ts';
import { echoPaths } from '../../src/store/fs/echo-paths.ts';
import { indexDir, readManifest, searchMemory, tiersFor } from '../../src/store/recall/search-index.ts';
import { updateIndex } from '../../src/store/recall/search-indexer.ts';
import { cliJson, runCli } from '../helpers/cli-run.ts';
import { runBundle, runCliSync } from '../helpers/run-bundle.ts';
import { hitKey, RANKING_QUERIES, writeSearchFixture } from '../helpers/search-fixture.ts';
import { diffSnapshots, makeTempProject, type TempProject } from '../helpers/temp-project.ts';

function fixture(t: { after(fn: () => void): void }): TempProject {
  const tp = makeTempProject(t);
  writeSearchFixture(tp.dir);
  return tp;
}

const logText = (n: number, asked: string) =>
  `# Archive log ${n}\n- session: x${n}\n- trigger: session-end\n- span: 2026-05-0${1 + (n % 9)}T10:00:00Z → 2026-05-01T11:00:00Z\n\n## Asked\n- ${asked}\n`;

test(`ranking: precision@1 on ${RANKING_QUERIES.length} queries with known answers is at least 0.85`, async (t) => {
  const tp = fixture(t);
  const misses: string[] = [];
  for (const [query, expected] of RANKING_QUERIES) {
    const { hits } = await searchMemory(tp.paths, { query, limit: 3 });
    const got = hits[0] ? hitKey(hits[0]) : '(nothing)';
    if (got !== expected) misses.push(`${query} → ${got} (wanted ${expected})`);
  }
  const p1 = 1 - misses.length / RANKING_QUERIES.length;
  t.diagnostic(
    `precision@1 ${p1.toFixed(3)} (${RANKING_QUERIES.length - misses.length}/${RANKING_QUERIES.length}); misses: ${misses.join('; ') || 'none'}`,
  );
  assert.ok(RANKING_QUERIES.length >= 40);
  assert.ok(p1 >= 0.85, misses.join('\n'));
});

test('every hit shows path:line, its id where it has one, a score and a snippet with the match marked', async (t) => {
  const tp = fixture(t);
  const out = await cliJson(tp, ['search', 'retry', 'backoff']);
  assert.ok(out.hits.length >= 2);
  for (const h of out.hits) {
    assert.match(h.at, /^[^:]+:\d+$/);
    assert.equal(h.at, `${h.path}:${h.line}`);
    assert.ok(typeof h.score === 'number' && h.score > 0);
    assert.match(h.snippet, /\*\*[^*]+\*\*/, h.snippet);
    const lines = readFileSync(join(tp.dir, h.path), 'utf8').split('\n');
    // The line the hit points at is the line its snippet shows.
    const plain = h.snippet.replace(/\*\*/g, '').replace(/^…|…$/g, '');
    assert.ok(lines[h.line - 1]!.replace(/\s+/g, ' ').includes(plain.slice(0, 30)), `${h.at}: ${h.snippet}`);
  }
  const entry = out.hits.find((h: { kind: string }) => h.kind === 'entry');
  assert.equal(entry.id, 'retry-backoff-jitter');
  const text = (await runCli(tp, ['search', 'retry', 'backoff'])).stdout;
  assert.match(text, /^1\. Payment retries use jittered exponential backoff {2}\[retry-backoff-jitter\]$/m);
  assert.match(text, /^ {3}\.claude\/echoes\/workers\/MEMORY\.md:\d+ · entry · workers · inscribed · [\d-]+ · score \d+\.\d\d$/m);
});

test('incremental: the first query reads every file, the next none; a changed file is re-read, an unchanged one is not', async (t) => {
  const tp = fixture(t);
  const first = await searchMemory(tp.paths, { query: 'pnpm', limit: 5 });
  assert.equal(first.index.rebuilt, true);
  const fileCount = readdirSync(join(tp.dir, '.claude/echoes/memories')).length + 5 + 2 + 2 + 1 + 4;
  assert.equal(first.index.filesRead, fileCount);

  const again = await searchMemory(tp.paths, { query: 'pnpm', limit: 5 });
  assert.equal(again.index.filesRead, 0);

  // One memory file changes: only it is read.
  appendFileSync(
    join(tp.dir, '.claude/echoes/team/MEMORY.md'),
    '\n### [2026-05-01] Pattern: Squash merges only\n- **id**: squash-merges-only\n- **layer**: inscribed\n- **confidence**: 0.8\n- Pull requests are squash-merged.\n',
  );
  const r = updateIndex(tp.paths);
  assert.deepEqual(r.read, ['.claude/echoes/team/MEMORY.md']);
  const found = await searchMemory(tp.paths, { query: 'squash merged', limit: 1 });
  assert.equal(found.hits[0]?.id, 'squash-merges-only');
  assert.equal(found.index.filesRead, 0);

  // A new archive log: only it is read, and it is found.
  writeFileSync(join(tp.dir, '.claude/echoes/memories/archive-log-037.md'), logText(37, 'Migrate the cron jobs to Temporal workflows'));
  assert.deepEqual(updateIndex(tp.paths).read, ['.claude/echoes/memories/archive-log-037.md']);
  const log = await searchMemory(tp.paths, { query: 'temporal workflows', limit: 1 });
  assert.equal(log.hits[0]?.path, '.claude/echoes/memories/archive-log-037.md');

  // A removed solution: nothing is read, and it is no longer found.
  unlinkSync(join(tp.dir, 'docs/solutions/test-failures/jest-open-handles.md'));
  assert.deepEqual(updateIndex(tp.paths).read, []);
  const gone = await searchMemory(tp.paths, { query: 'jest did not exit open handles', limit: 10 });
  assert.ok(!gone.hits.some((h) => h.path.endsWith('jest-open-handles.md')));
  // The old copy of team/MEMORY.md is deleted from the index, not shown twice.
  const team = await searchMemory(tp.paths, { query: 'conventional commits commitlint', limit: 10 });
  assert.equal(team.hits.filter((h) => h.id === 'commit-message-format').length, 1);
});

test('the delta segment is merged into the base once it grows, and nothing is lost or doubled', async (t) => {
  const tp = makeTempProject(t);
  const mem = join(tp.dir, '.claude/echoes/memories');
  for (let i = 1; i <= 40; i++)
    tp.write(`.claude/echoes/memories/archive-log-${String(i).padStart(3, '0')}.md`, logText(i, `Task ${i} about widget${i}`));
  await searchMemory(tp.paths, { query: 'widget1', limit: 1 });
  assert.equal(readManifest(tp.paths)!.segments.length, 1);
  writeFileSync(join(mem, 'archive-log-041.md'), logText(41, 'Task 41 about widget41'));
  await searchMemory(tp.paths, { query: 'widget41', limit: 1 });
  assert.equal(readManifest(tp.paths)!.segments.length, 2, 'a new log goes to a delta segment');
  // Past the threshold (1,000 documents) the delta is folded into the base.
  for (let i = 42; i <= 1100; i++)
    writeFileSync(join(mem, `archive-log-${String(i).padStart(3, '0')}.md`), logText(i, `Task ${i} about widget${i}`));
  await searchMemory(tp.paths, { query: 'widget1', limit: 1 });
  const m = readManifest(tp.paths)!;
  assert.equal(m.segments.length, 1);
  assert.equal(m.stats.logs.docs, 1100);
  for (const n of [1, 41, 42, 777, 1100]) {
    const { hits } = await searchMemory(tp.paths, { query: `widget${n}`, limit: 5 });
    assert.deepEqual(
      hits.map((h) => h.path),
      [`.claude/echoes/memories/archive-log-${String(n).padStart(3, '0')}.md`],
    );
  }
  // Only the manifest, the log table and the live segment are left in the index folder.
  assert.equal(readdirSync(indexDir(tp.paths)).length, 3, readdirSync(indexDir(tp.paths)).join(', '));
});

test('archive logs have segments of their own: a query for entries and solutions never opens them', async (t) => {
  const tp = fixture(t);
  await searchMemory(tp.paths, { query: 'pnpm', limit: 1 });
  const m = readManifest(tp.paths)!;
  assert.deepEqual(m.segments.map((s) => s.tier).sort(), ['logs', 'memory']);
  assert.equal(m.stats.logs.docs, 37, '36 logs and EPHEMERAL.md');
  // Remove the log segment: a query that does not need it still answers from the index as it is.
  rmSync(join(indexDir(tp.paths), m.segments.find((s) => s.tier === 'logs')!.dir), { recursive: true });
  const r = await searchMemory(tp.paths, { query: 'payment retry backoff cap', limit: 1, kinds: ['entry', 'solution'] }, { asIs: true });
  assert.equal(r.hits[0]?.id, 'retry-backoff-jitter');
  assert.equal(r.index.rebuilt, false);
  assert.deepEqual(tiersFor({ role: 'workers' }), ['memory']);
  assert.deepEqual(tiersFor({ kinds: ['log'] }), ['logs']);
  assert.deepEqual(tiersFor({}), ['memory', 'logs']);
});

test('a corrupt, torn, foreign or future-format index is rebuilt silently', async (t) => {
  const tp = fixture(t);
  const query = { query: 'payment retry backoff cap', limit: 1 };
  const want = (await searchMemory(tp.paths, query)).hits[0]!.id;
  const manifestFile = join(indexDir(tp.paths), 'manifest.json');
  const breakers: Array<[string, () => void]> = [
    ['garbage manifest', () => writeFileSync(manifestFile, '{not json')],
    ['foreign project', () => writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace(tp.dir, '/elsewhere'))],
    ['future version', () => writeFileSync(manifestFile, readFileSync(manifestFile, 'utf8').replace('"version":1', '"version":99'))],
    [
      'torn shard',
      () => {
        const seg = readManifest(tp.paths)!.segments[0]!.dir;
        for (const f of readdirSync(join(indexDir(tp.paths), seg)))
          if (f.startsWith('p-')) truncateSync(join(indexDir(tp.paths), seg, f), 10);
      },
    ],
    ['segment removed', () => rmSync(join(indexDir(tp.paths), readManifest(tp.paths)!.segments[0]!.dir), { recursive: true })],
  ];
  for (const [name, breakIt] of breakers) {
    breakIt();
    const r = await searchMemory(tp.paths, query);
    assert.equal(r.hits[0]?.id, want, name);
    assert.ok(readManifest(tp.paths), `${name}: a valid manifest again`);
  }
});

// No time limit of its own: every wait in it is bounded by the commands' lock bound, and a loaded machine is slow, not wrong.
test('concurrent queries and updates in separate processes: every query answers, no update is lost', async (t) => {
  const tp = fixture(t);
  const env = { CLAUDE_PROJECT_DIR: tp.dir, HOME: join(tp.dir, 'home') };
  const mem = join(tp.dir, '.claude/echoes/memories');
  const procs: Array<ReturnType<typeof runBundle>> = [];
  // Writers add logs and entries while readers query; each query may trigger an update.
  for (let round = 0; round < 6; round++) {
    writeFileSync(join(mem, `archive-log-${String(100 + round)}.md`), logText(100 + round, `Concurrent task zebra${round}`));
    procs.push(runBundle('cli.mjs', ['remember', `Concurrent lesson kiwi${round} for the test`, '--role', 'team'], { cwd: tp.dir, env }));
    for (let k = 0; k < 3; k++) procs.push(runBundle('cli.mjs', ['search', 'concurrent', '--json'], { cwd: tp.dir, env }));
  }
  const results = await Promise.all(procs.map((p) => p.done));
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  for (const r of results.filter((x) => x.stdout.startsWith('{'))) assert.ok(Array.isArray(JSON.parse(r.stdout).hits));
  // Once everything is written, one more query sees all of it.
  const final = runCliSync(['search', 'concurrent', '--limit', '50', '--json'], { cwd: tp.dir, env });
  assert.equal(final.code, 0, final.stderr);
  const hits = JSON.parse(final.stdout).hits as Array<{ path: string; snippet: string; title: string }>;
  for (let round = 0; round < 6; round++) {
    assert.ok(
      hits.some((h) => h.title.includes(`zebra${round}`)),
      `log ${round}`,
    );
    assert.ok(
      hits.some((h) => h.snippet.includes(`kiwi${round}`) || h.title.includes(`kiwi${round}`)),
      `entry ${round}`,
    );
  }
  const keys = hits.map((h) => `${h.path}|${h.title}`);
  assert.equal(new Set(keys).size, keys.length, 'no document twice');
});

test('filters: --role, --layer, --kind, --since and --limit', async (t) => {
  const tp = fixture(t);
  const q = async (args: string[]) => (await cliJson(tp, ['search', ...args])).hits as Array<Record<string, string>>;
  const byRole = await q(['prisma', '--role', 'workers']);
  assert.ok(byRole.length > 0 && byRole.every((h) => h.role === 'workers'));
  const etched = await q(['security', 'secret', '--layer', 'etched']);
  assert.ok(etched.length > 0 && etched.every((h) => h.layer === 'etched'));
  const logs = await q(['prisma', '--kind', 'log']);
  assert.ok(logs.length > 0 && logs.every((h) => h.kind === 'log'));
  const solutions = await q(['prisma', '--kind', 'solution,entry']);
  assert.ok(solutions.every((h) => h.kind === 'solution' || h.kind === 'entry'));
  const recent = await q(['the', 'prisma', '--since', '2026-03-01']);
  assert.ok(recent.length > 0 && recent.every((h) => h.date! >= '2026-03-01'), JSON.stringify(recent));
  const days = await q(['prisma', '--since', '60d']);
  assert.ok(days.every((h) => h.date! >= '2026-03-02'));
  assert.equal((await q(['prisma', '--limit', '2'])).length, 2);
});

test('search works in user scope: archive logs under ~/.claude/memories are indexed', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/rune-config.yml', 'echoes:\n  session_scope: user\n');
  tp.write('home/.claude/memories/archive-log-001.md', logText(1, 'Tune the pgbouncer pool'));
  const out = await cliJson(tp, ['search', 'pgbouncer']);
  assert.equal(out.hits.length, 1);
  // HOME is inside the test project here, so the path shows relative to it.
  assert.equal(out.hits[0].path, 'home/.claude/memories/archive-log-001.md');
  const paths = echoPaths(tp.dir, { ...defaultConfig(), sessionScope: 'user' }, join(tp.dir, 'home'));
  assert.equal(readManifest(paths)?.memoriesDir, join(tp.dir, 'home/.claude/memories'));
});

test('bad input: one line each, nothing crashes, the rest is still searched', async (t) => {
  const tp = fixture(t);
  tp.write('docs/solutions/tooling/broken.md', '---\ntitle: [unclosed\ntags: {\n---\nThe zanzibar tool crashes.\n');
  tp.write('docs/solutions/tooling/binary.md', '\u0000\u0001\u0002');
  const beforeStop = tp.snapshot();
  const stop = await runCli(tp, ['search', 'the', 'of', 'and', 'with']);
  assert.equal(stop.code, 1);
  assert.deepEqual(diffSnapshots(beforeStop, tp.snapshot()), [], 'a refused search writes nothing');
  assert.equal(stop.stdout, '');
  assert.match(stop.stderr, /^rune-echoes: "the of and with" has no words to search for .*\n$/);
  const long = await runCli(tp, ['search', 'retry '.repeat(1700)]);
  assert.equal(long.code, 0, long.stderr);
  assert.match(long.stdout, /retry-backoff-jitter/);
  for (const q of ['.*+?^${}()|[]\\', 'a(b', '(?<x>', '**', '`rm -rf`']) {
    const r = await runCli(tp, ['search', q]);
    assert.ok(r.code === 0 || (r.code === 1 && r.stderr.split('\n').length === 2), `${q}: ${r.stderr}`);
  }
  const uni = await cliJson(tp, ['search', '대시보드']);
  assert.equal(uni.hits[0]?.path, '.claude/echoes/memories/archive-log-022.md');
  const emoji = await runCli(tp, ['search', '🚨 José']);
  assert.equal(emoji.code, 0, emoji.stderr);
  const broken = await cliJson(tp, ['search', 'zanzibar']);
  assert.equal(broken.hits[0]?.path, 'docs/solutions/tooling/broken.md');
  const still = await cliJson(tp, ['search', "Cannot find module '@prisma/client'"]);
  assert.equal(still.hits[0]?.path, 'docs/solutions/build-errors/cannot-find-module-prisma-client.md');
  for (const [args, message] of [
    [['search', 'x', '--kind', 'notes'], /--kind must be entry, log or solution/],
    [['search', 'x', '--layer', 'deep'], /--layer must be etched, inscribed or traced/],
    [['search', 'x', '--since', 'yesterday'], /--since takes a date/],
    [['search', 'x', '--since', '2026-02-30'], /--since takes a date/],
    [['search', 'x', '--since', '2026-13-45'], /--since takes a date/],
    [['search', 'x', '--limit', '0x10'], /--limit must be a whole number/],
    [['search', 'x', '--limit', '0'], /--limit must be a whole number/],
    [['search', 'x', '--role', '../etc'], /invalid role name/],
  ] as const) {
    const r = await runCli(tp, [...args]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  }
});
