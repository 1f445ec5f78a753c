// The memory report's cost: the built CLI's `report` at a typical and a large
// store (5 roles at their limits, 3,000 archive logs, 10,000 usage events),
// wall time of the whole process (node's start included, as a person waits
// for it) and the page's size. Targets at the large store: under 1 s, under 2 MB.
//
// `npm run bench:report` prints the section and puts it in BENCHMARKS.md in
// place of the old one (between its markers); `npm run bench` runs it too.
// `npm run bench:report -- --screenshot` also writes docs/report-typical.png,
// the README's picture of the typical store's report (needs chromium).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { defaultConfig } from '../src/core/config/config-defaults.ts';
import { renderReport } from '../src/core/report/report-page.ts';
import { HOOKS } from '../src/hooks/hook-registry.ts';
import { echoPaths } from '../src/store/fs/echo-paths.ts';
import { gatherReport } from '../src/store/report/report-data.ts';
import { findChromium, loadPage } from '../test/helpers/headless-chromium.ts';
import { largeReportStore, type StoreFacts, typicalReportStore } from '../test/helpers/report-stores.ts';
import { writeBenchSection } from './bench-section.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(REPO, 'dist', 'cli.mjs');
const START = '<!-- report-benchmark:start -->';
const END = '<!-- report-benchmark:end -->';
const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 9);
/** The README's screenshot: the typical store's page, whole, at three quarters of its size. */
export const SCREENSHOT = join(REPO, 'docs', 'report-typical.png');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function timeReport(dir: string): { ms: number[]; bytes: number; path: string } {
  const ms: number[] = [];
  let bytes = 0;
  let path = '';
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [CLI, 'report', '--json', '--project', dir], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: join(dir, 'home') },
      encoding: 'utf8',
    });
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 0) throw new Error(`report failed: ${r.stderr}`);
    const out = JSON.parse(r.stdout) as { report: string; bytes: number };
    bytes = out.bytes;
    path = out.report;
  }
  return { ms, bytes, path };
}

/** A bare node start, timed the same way in the same run: what a shared machine's load adds to every process. */
function timeNode(): number[] {
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', ''], { env: { PATH: process.env.PATH } });
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return ms;
}

/** The report's own work in this process: reading the store and rendering the page. */
async function timeInProcess(dir: string): Promise<number[]> {
  const paths = echoPaths(dir, defaultConfig(), join(dir, 'home'));
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    renderReport(await gatherReport(paths, defaultConfig(), { now: new Date(), hooks: HOOKS.map((h) => h.name) }));
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return ms;
}

const secs = (xs: number[]) =>
  `${(median(xs) / 1000).toFixed(2)} s (${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)})`;

const describe = (f: StoreFacts) =>
  `${f.roles} roles, ${f.entries} entries (${f.captured} captured), ${f.archiveLogs.toLocaleString('en')} archive logs, ${f.usageEvents.toLocaleString('en')} usage events`;

export async function benchReport(say: (line: string) => void, opts: { screenshot?: boolean } = {}): Promise<void> {
  if (!existsSync(CLI)) throw new Error('dist/cli.mjs is missing: run npm run build first');
  const root = mkdtempSync(join(tmpdir(), 'rune-bench-report-'));
  try {
    const now = new Date();
    const rows: string[] = [];
    let typicalPage = '';
    for (const [name, make] of [
      ['typical', typicalReportStore],
      ['large', largeReportStore],
    ] as const) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      const facts = make(dir, now);
      const { ms, bytes, path } = timeReport(dir);
      const work = await timeInProcess(dir);
      const node = timeNode();
      if (name === 'typical') typicalPage = path;
      const target = name === 'large' ? ' (target: under 1 s and under 2 MB)' : '';
      rows.push(
        `| ${name} | ${describe(facts)} | ${secs(ms)} | ${secs(node)} | ${secs(work)} | ${(bytes / 1024).toFixed(0)} KB${target} |`,
      );
      if (name === 'large' && (median(ms) >= 1000 || bytes >= 2 * 1024 * 1024)) {
        rows.push(
          `|  | over the target${median(ms) >= 1000 ? ' in time: compare with the bare node start, timed in the same run' : ''} | | | | |`,
        );
      }
    }
    say(START);
    say('## The memory report\n');
    say(
      `\`rune-echoes report\` writes one self-contained HTML page (no script, nothing loaded from outside). Medians of ${RUNS} runs (min–max): the wall time of the built CLI as a person waits for it (node's start included), a bare \`node -e ''\` timed the same way in the same run (what the machine's load adds to any process), and the report's own work (reading the store, rendering the page) in one process; then the page's size. Produced by \`npm run bench:report\` (\`tsx scripts/bench-report.ts\`) on ${now.toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} at the start.\n`,
    );
    say('| store | what it holds | `rune-echoes report` | bare node start | reading and rendering | page |\n|---|---|---|---|---|---|');
    for (const r of rows) say(r);
    say('');
    say(
      'The large store: every role at its 150-line limit with a 300-line knowledge.md, ARCHIVE.md indexing 3,000 logs over 400 days (drawn by week), 10,000 usage events over 400 sessions (the page counts the last 20, the relevance window). Tables stop at a few hundred rows and say how many more there are, so the page stays small whatever the store holds.',
    );
    say(END);
    if (opts.screenshot) {
      const bin = findChromium();
      if (!bin) throw new Error('--screenshot needs chromium (apt-get install -y chromium)');
      const page = await loadPage(bin, pathToFileURL(typicalPage).href, { screenshot: { scale: 0.75 }, width: 1200 });
      if (page.errors.length) throw new Error(`the page had errors: ${page.errors.join('; ')}`);
      mkdirSync(join(REPO, 'docs'), { recursive: true });
      writeFileSync(SCREENSHOT, page.screenshot!);
      console.error(`wrote ${SCREENSHOT} (${statSync(SCREENSHOT).size} bytes)`);
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// `npm run bench:report`: this section alone, written into BENCHMARKS.md in place of the old one.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const lines: string[] = [];
  await benchReport(
    (s) => {
      lines.push(s);
      console.log(s);
    },
    { screenshot: process.argv.includes('--screenshot') },
  );
  const file = join(REPO, 'BENCHMARKS.md');
  const section = lines.join('\n');
  writeBenchSection(file, START, END, section);
}
