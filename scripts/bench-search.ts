// Search benchmarks for BENCHMARKS.md (run from scripts/bench.ts):
//   1. the on-disk index over 10,000 and 100,000 archive logs: cold (first
//      query builds it), warm (index up to date), after one new log, size;
//   2. the same corpora in MiniSearch (7.2.0, the library the issue suggests),
//      its index saved as JSON and loaded by each query process, as a CLI
//      would have to: build time, size, warm query; precision@1 of both on the
//      ranking fixture;
//   3. what prompt-time recall would pay: a small CommonJS bundle that opens
//      the index as it is and ranks, against a bare `node -e ''`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import MiniSearch from 'minisearch';
import { defaultConfig } from '../src/core/config/config-defaults.ts';
import { SOURCE_PRIOR } from '../src/core/recall/search-rank.ts';
import type { IndexDoc } from '../src/core/recall/search-segment.ts';
import { textTerms } from '../src/core/recall/search-terms.ts';
import { echoPaths } from '../src/store/fs/echo-paths.ts';
import { searchMemory } from '../src/store/recall/search-index.ts';
import { documentsOf } from '../src/store/recall/search-indexer.ts';
import { listLogFiles, listSources } from '../src/store/recall/search-sources.ts';
import { hitKey, RANKING_QUERIES, writeSearchFixture } from '../test/helpers/search-fixture.ts';

type Say = (line: string) => void;
type Timer = (args: string[], cwd: string) => number;

const QUERY = ['retry', 'backoff', 'module', '42'];
const WORDS = ['retry', 'backoff', 'cache', 'index', 'auth', 'token', 'migration', 'schema', 'deploy', 'flaky', 'timeout', 'queue'];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function logText(i: number): string {
  const n = String(i).padStart(3, '0');
  const w = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length];
  const month = 1 + (i % 9);
  return `# Archive log ${n}\n- session: s${i}\n- trigger: session-end\n- span: 2026-0${month}-10T10:00:00Z → 2026-0${month}-10T11:00:00Z\n\n## Asked\n- Fix the ${w(1)} ${w(2)} in module ${i % 300}\n## Done and decided\n- Changed ${w(3)} handling; ${w(4)} now bounded.\n## Files\n- edited: src/m${i % 300}.ts\n`;
}

function writeLogs(project: string, count: number): void {
  const mem = join(project, '.claude', 'echoes', 'memories');
  mkdirSync(mem, { recursive: true });
  for (let i = 1; i <= count; i++) writeFileSync(join(mem, `archive-log-${String(i).padStart(3, '0')}.md`), logText(i));
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    const st = statSync(join(dir, String(name)));
    if (st.isFile()) total += st.size;
  }
  return total;
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Every document the index would hold for a project, read the way the indexer reads them. */
function allDocs(project: string): IndexDoc[] {
  const paths = echoPaths(project, defaultConfig(), join(project, 'home'));
  const read: string[] = [];
  return [...listSources(paths), ...listLogFiles(paths)].flatMap((f) => {
    try {
      statSync(f.abs);
    } catch {
      return [];
    }
    return documentsOf(paths, f, read) ?? [];
  });
}

/** MiniSearch configured as close to ours as it allows: our tokenizer and stemmer, the same field weights and priors. */
const miniOptions = {
  fields: ['title', 'tags', 'body'],
  // Not `id`: stored fields are spread onto each result and would hide the result's own id.
  storeFields: ['path', 'entryId', 'source', 'line'],
  idField: 'key',
  tokenize: (text: string) => textTerms(text),
  processTerm: (term: string) => term,
  searchOptions: {
    boost: { title: 3, tags: 2 },
    combineWith: 'OR' as const,
    tokenize: (text: string) => textTerms(text),
    processTerm: (term: string) => term,
  },
};

function miniDocs(docs: IndexDoc[]) {
  return docs.map((d, i) => ({
    key: i,
    path: d.path,
    line: d.line,
    source: d.source,
    ...(d.id ? { entryId: d.id } : {}),
    title: d.fields.title,
    tags: d.fields.tags,
    body: d.fields.body,
  }));
}

function miniSearchFor(docs: IndexDoc[]): MiniSearch {
  const ms = new MiniSearch(miniOptions);
  ms.addAll(miniDocs(docs));
  return ms;
}

async function precisionAt1(fixture: string): Promise<{ ours: number; mini: number }> {
  const paths = echoPaths(fixture, defaultConfig(), join(fixture, 'home'));
  let ours = 0;
  for (const [query, expected] of RANKING_QUERIES) {
    const { hits } = await searchMemory(paths, { query, limit: 1 });
    if (hits[0] && hitKey(hits[0]) === expected) ours++;
  }
  const docs = allDocs(fixture);
  const ms = miniSearchFor(docs);
  let mini = 0;
  for (const [query, expected] of RANKING_QUERIES) {
    const [top] = ms.search(query, {
      boostDocument: (_id, _term, stored) => SOURCE_PRIOR[(stored?.source as IndexDoc['source']) ?? 'memory'],
    });
    const d = top ? docs[top.id as number] : undefined;
    if (d && hitKey({ path: d.path, id: d.id, source: d.source, title: d.title }) === expected) mini++;
  }
  return { ours: ours / RANKING_QUERIES.length, mini: mini / RANKING_QUERIES.length };
}

/** A one-file CommonJS program, as a hook would be: `entry` is its source, bundled with the repository's modules. */
async function bundle(dir: string, name: string, entry: string): Promise<string> {
  const src = join(dir, `${name}.ts`);
  writeFileSync(src, entry);
  const out = join(dir, `${name}.cjs`);
  await build({
    entryPoints: [src],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    outfile: out,
    logLevel: 'warning',
    // The indexer is bundled too: a search checks its hits against the files the store holds now, with the
    // indexer's reading of them (loaded only then, as in the real bundles).
  });
  return out;
}

export async function benchSearch(root: string, REPO: string, env: NodeJS.ProcessEnv, time: Timer, say: Say): Promise<void> {
  const cli = join(REPO, 'dist', 'cli.mjs');
  const search = (cwd: string) => time([cli, 'search', ...QUERY, '--limit', '5'], cwd);
  const bare = (cwd: string) => time(['-e', ''], cwd);
  const work = mkdtempSync(join(root, 'search-'));
  const rows: string[] = [];
  const warmBy = new Map<number, number>();
  const miniRows: string[] = [];
  const generated: string[] = [];
  const miniQuery = await bundle(
    work,
    'mini-query',
    `import { readFileSync } from 'node:fs';
import MiniSearch from ${JSON.stringify(join(REPO, 'node_modules', 'minisearch', 'dist', 'es', 'index.js'))};
import { textTerms } from ${JSON.stringify(join(REPO, 'src', 'core', 'recall', 'search-terms.ts'))};
const options = { fields: ['title', 'tags', 'body'], storeFields: ['path', 'entryId', 'source', 'line'], idField: 'key',
  tokenize: (t: string) => textTerms(t), processTerm: (t: string) => t,
  searchOptions: { boost: { title: 3, tags: 2 }, combineWith: 'OR' as const, tokenize: (t: string) => textTerms(t), processTerm: (t: string) => t } };
const ms = MiniSearch.loadJSON(readFileSync(process.argv[2]!, 'utf8'), options);
process.stdout.write(JSON.stringify(ms.search(process.argv.slice(3).join(' ')).slice(0, 5).map((h) => h.path)) + '\\n');
`,
  );

  for (const count of [10_000, 100_000]) {
    const project = join(work, `logs-${count}`);
    const t0 = Date.now();
    // The fixture's entries, knowledge and solutions beside the logs, as in a real store.
    mkdirSync(project, { recursive: true });
    writeSearchFixture(project);
    writeLogs(project, count);
    const generatedMs = Date.now() - t0;
    const indexDir = join(project, '.claude', 'echoes', '.state', 'search');
    // Cold: no index yet, the query builds it (every log read once).
    const cold: number[] = [];
    for (let i = 0; i < (count > 10_000 ? 2 : 3); i++) {
      rmSync(indexDir, { recursive: true, force: true });
      cold.push(search(project));
    }
    const size = dirBytes(indexDir);
    // Warm: the index is up to date; interleaved with bare starts so noise hits both alike.
    const warm: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < 9; i++) {
      base.push(bare(project));
      warm.push(search(project));
    }
    // One new log since the last query: read, indexed into the delta segment, then ranked.
    const incremental: number[] = [];
    for (let i = 1; i <= 3; i++) {
      writeFileSync(
        join(project, '.claude', 'echoes', 'memories', `archive-log-${String(count + i).padStart(3, '0')}.md`),
        logText(count + i),
      );
      incremental.push(search(project));
    }
    const w = median(warm);
    warmBy.set(count, w);
    rows.push(
      `| ${count.toLocaleString('en-US')} | ${(median(cold) / 1000).toFixed(2)} s | ${w.toFixed(0)} ms (${(w / median(base)).toFixed(1)}× node -e '') | ${median(incremental).toFixed(0)} ms | ${mb(size)} |`,
    );

    // MiniSearch on the same documents: built in this process, saved as JSON, loaded by each query process.
    const tb = Date.now();
    const docs = allDocs(project);
    const ms = miniSearchFor(docs);
    const json = JSON.stringify(ms);
    const buildMs = Date.now() - tb;
    const jsonFile = join(project, 'minisearch.json');
    writeFileSync(jsonFile, json);
    const miniWarm: number[] = [];
    for (let i = 0; i < 5; i++) miniWarm.push(time([miniQuery, jsonFile, ...QUERY], project));
    miniRows.push(
      `| ${count.toLocaleString('en-US')} | ${(buildMs / 1000).toFixed(2)} s | ${mb(json.length)} | ${median(miniWarm).toFixed(0)} ms | ${(median(cold) / 1000).toFixed(2)} s | ${mb(size)} | ${w.toFixed(0)} ms |`,
    );
    generated.push(`${count.toLocaleString('en-US')} in ${(generatedMs / 1000).toFixed(1)} s`);
  }

  const fixture = join(work, 'fixture');
  mkdirSync(fixture);
  writeSearchFixture(fixture);
  const p1 = await precisionAt1(fixture);

  // Prompt-time recall: open the index as it stands and rank, from a CommonJS bundle as a hook would.
  const recall = await bundle(
    work,
    'recall-probe',
    `import { defaultConfig } from ${JSON.stringify(join(REPO, 'src', 'core', 'config', 'config-defaults.ts'))};
import { echoPaths } from ${JSON.stringify(join(REPO, 'src', 'store', 'fs', 'echo-paths.ts'))};
import { searchMemory } from ${JSON.stringify(join(REPO, 'src', 'store', 'recall', 'search-index.ts'))};
const paths = echoPaths(process.cwd(), defaultConfig());
searchMemory(paths, { query: process.argv.slice(2).join(' '), limit: 3, kinds: ['entry', 'solution'] }, { asIs: true }).then((r) => { require('node:fs').writeSync(1, String(r.hits.length) + '\\n'); });
`,
  );
  const recallRows: string[] = [];
  for (const [label, project] of [
    ['the ranking fixture (36 entries, 2 archived, 3 knowledge blocks, 4 solutions, 36 logs)', fixture],
    ['the fixture and 10,000 archive logs', join(work, 'logs-10000')],
    ['the fixture and 100,000 archive logs', join(work, 'logs-100000')],
  ] as const) {
    const r: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < 11; i++) {
      b.push(bare(project));
      r.push(time([recall, 'payment', 'retry', 'backoff'], project));
    }
    recallRows.push(`| ${label} | ${median(b).toFixed(1)} | ${median(r).toFixed(1)} | ${(median(r) / median(b)).toFixed(2)} |`);
  }
  let recallCount = '';
  if (spawnSync('valgrind', ['--version']).status === 0) {
    const count = (args: string[]) => {
      const out = join(work, 'callgrind.out');
      const rr = spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...args], {
        cwd: fixture,
        env,
        encoding: 'utf8',
      });
      return Number(/Collected : (\d+)/.exec(rr.stderr)?.[1] ?? 'NaN');
    };
    // Interleaved, five each: single counts move by several per cent from run to run.
    const bareCounts: number[] = [];
    const recallCounts: number[] = [];
    for (let i = 0; i < 5; i++) {
      bareCounts.push(count(['-e', '']));
      recallCounts.push(count([recall, 'payment', 'retry', 'backoff']));
    }
    const bareI = median(bareCounts);
    const recallI = median(recallCounts);
    recallCount = ` Instructions (valgrind, median of 5, interleaved) on the fixture: ${(recallI / 1e6).toFixed(0)} M against ${(bareI / 1e6).toFixed(0)} M for \`node -e ''\`, ${(recallI / bareI).toFixed(2)}×.`;
  }
  rmSync(work, { recursive: true, force: true });

  const growth = warmBy.get(100_000)! / warmBy.get(10_000)!;
  say('\n## Search over 10,000 and 100,000 archive logs\n');
  say(
    `\`rune-echoes search ${QUERY.join(' ')} --limit 5\` as a process (node start included). Cold: no index yet, the query builds it. Warm: index up to date (median of 9, interleaved with \`node -e ''\`). One new log: a log written since the last query is read and indexed first (median of 3).\n`,
  );
  say('| archive logs | cold | warm | after one new log | index on disk |\n|---|---|---|---|---|');
  for (const r of rows) say(r);
  say(
    `\nGrowth of the warm query from 10,000 to 100,000 logs: ${growth.toFixed(2)}× for 10× the logs. (Writing the logs took ${generated.join(' and ')}.)`,
  );
  say('\n## The index: hand-made against MiniSearch\n');
  say(
    'MiniSearch 7.2.0 over the same documents, with the same tokenizer, field weights (title 3, tags 2) and source priors. A CLI process must load its index before it can answer: MiniSearch loads the whole JSON (`loadJSON`); ours reads the manifest, the attributes and the shard files of the query terms only. Build: MiniSearch in memory from the documents plus `JSON.stringify`; ours: the cold query above (reading every file included).\n',
  );
  say(
    '| archive logs | MiniSearch build | its index | its warm query | our cold build | our index | our warm query |\n|---|---|---|---|---|---|---|',
  );
  for (const r of miniRows) say(r);
  say(
    `\nPrecision@1 on the ranking fixture (${RANKING_QUERIES.length} queries with known answers, test/helpers/search-fixture.ts): ours ${p1.ours.toFixed(3)}, MiniSearch ${p1.mini.toFixed(3)}.`,
  );
  say('\n## Prompt-time recall: opening the index from a hook\n');
  say(
    "A CommonJS bundle of the query path (no indexer, no parser) that opens the index as it stands and ranks the three best entries and solutions (`kinds: entry, solution`: the memory tier only; archive logs have segments of their own), as a UserPromptSubmit hook would. Median wall time of 11 runs interleaved with `node -e ''`; each store holds the ranking fixture's entries, knowledge and solutions.\n",
  );
  say("| store | node -e '' ms | recall ms | ratio |\n|---|---|---|---|");
  for (const r of recallRows) say(r);
  if (recallCount) say(`\n${recallCount.trim()}`);
}
