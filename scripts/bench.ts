// Benchmarks for the targets in the brief, measured as ratios within one run
// (the machine is shared and noisy). Writes BENCHMARKS.md.
//
//   npm run bench                              (tsx scripts/bench.ts)
//   npm run bench -- --baseline <other>/dist   adds that build's instruction counts, for a before/after
//
// 1. Each hook's wall time on a typical store against a bare `node -e ''`,
//    and its instruction count under valgrind (deterministic: the machine's
//    load does not change it), as a ratio to the bare start.
// 2. search over 10,000 and 100,000 archive logs, against MiniSearch, and from a hook.
// 3. SessionEnd on a 50 MB transcript: time and peak memory (streamed).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchSearch } from './bench-search.ts';
import { typicalStore, writeTranscript } from './bench-store.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(REPO, 'dist');
const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const baselineAt = process.argv.indexOf('--baseline');
const BASELINE = baselineAt > 0 ? process.argv[baselineAt + 1] : undefined;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function timeRun(args: string[], input: string, cwd: string, env: NodeJS.ProcessEnv): { ms: number; rssKb: number } {
  // The wrapper reports the child's own peak RSS; the wall time includes process start, as a hook's does.
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, cwd, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const rss = /RSS (\d+)/.exec(r.stderr)?.[1];
  return { ms, rssKb: rss ? Number(rss) : 0 };
}

const withRss = (file: string) => [
  '--input-type=module',
  '-e',
  `process.on('exit',()=>process.stderr.write('RSS '+process.resourceUsage().maxRSS));await import(${JSON.stringify(file)});`,
];

const lines: string[] = [];
const say = (s: string) => {
  lines.push(s);
  console.log(s);
};

const benchStarted = Date.now();
const root = mkdtempSync(join(tmpdir(), 'rune-bench-'));
try {
  const env = { PATH: process.env.PATH, HOME: join(root, 'home') };
  mkdirSync(env.HOME, { recursive: true });

  // 1. Hooks on a typical store, interleaved with the bare start so noise hits both alike.
  const proj = join(root, 'typical');
  mkdirSync(proj);
  typicalStore(proj);
  const sid = 'bench-session';
  const transcript = join(root, 'typical.jsonl');
  writeTranscript(transcript, 2_000_000, sid, proj);
  const input = (event: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ session_id: sid, transcript_path: transcript, cwd: proj, hook_event_name: event, ...extra });
  // A session in progress: Stop has already read the transcript once.
  timeRun([join(DIST, 'stop.cjs')], input('Stop'), proj, env);
  const hooks: Array<[string, string]> = [
    ['session-start', input('SessionStart', { source: 'startup' })],
    ['stop', input('Stop', { stop_hook_active: false })],
    ['subagent-stop', input('SubagentStop', { agent_type: 'general-purpose' })],
    ['pre-compact', input('PreCompact', { trigger: 'auto' })],
    ['session-end', input('SessionEnd', { reason: 'other' })],
    // Runs before every Bash, Write and Edit call of every session: the main session's calls take the fast path.
    ['agent-guard', input('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'npm test' } })],
  ];
  const bare: number[] = [];
  const per = new Map<string, number[]>(hooks.map(([h]) => [h, []]));
  for (let i = 0; i < RUNS; i++) {
    bare.push(timeRun(['-e', ''], '', proj, env).ms);
    for (const [h, stdin] of hooks) per.get(h)!.push(timeRun([join(DIST, `${h}.cjs`)], stdin, proj, env).ms);
  }
  const base = median(bare);
  say(`## Hook cost on a typical store\n`);
  say(
    `Store: 5 roles × 14 entries, 40 archive logs, 100 usage events, a 2 MB transcript already read by an earlier Stop. ${RUNS} interleaved runs each, median wall time including process start.\n`,
  );
  say(`| command | median ms | × node -e '' |\n|---|---|---|`);
  say(`| node -e '' | ${base.toFixed(1)} | 1.00 |`);
  for (const [h] of hooks) {
    const m = median(per.get(h)!);
    say(`| ${h} | ${m.toFixed(1)} | ${(m / base).toFixed(2)} |`);
  }

  // 1b. Instructions under valgrind: far steadier than wall time on a shared machine, though
  //     not exact (V8's garbage collector and hash seeds move a count by a few per cent),
  //     so each figure is the median of several counts, every one from the same store state.
  if (spawnSync('valgrind', ['--version']).status === 0) {
    const COUNTS = Number(process.env.BENCH_COUNTS ?? 5);
    const count = (args: string[], stdin: string): number => {
      const out = join(root, 'callgrind.out');
      const r = spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...args], {
        input: stdin,
        cwd: proj,
        env,
        encoding: 'utf8',
      });
      const m = /Collected : (\d+)/.exec(r.stderr);
      if (!m) throw new Error(`valgrind gave no count: ${r.stderr.slice(-300)}`);
      return Number(m[1]);
    };
    /** Median of COUNTS counts, the store restored to `snapshot` before each (fresh inodes: caches keyed by them miss alike). */
    const medianCount = (args: string[], stdin: string, snapshot: string | null): number => {
      const counts: number[] = [];
      for (let i = 0; i < COUNTS; i++) {
        if (snapshot) {
          rmSync(join(proj, '.claude'), { recursive: true, force: true });
          cpSync(snapshot, join(proj, '.claude'), { recursive: true });
        }
        counts.push(count(args, stdin));
      }
      return median(counts);
    };
    const bareI = medianCount(['-e', ''], '', null);
    const M = (n: number) => `${(n / 1e6).toFixed(0)} M`;
    say(
      `\nInstructions executed (valgrind callgrind; median of ${COUNTS} counts per command, each from a restored copy of the store state the hook found — fresh inodes, so the entry cache misses and SessionStart and SessionEnd parse MEMORY.md here, which a real start usually does not):\n`,
    );
    if (BASELINE) {
      const commit = spawnSync('git', ['-C', join(BASELINE, '..'), 'log', '-1', '--format=%h %s'], { encoding: 'utf8' }).stdout.trim();
      say(
        `Baseline: the committed bundles of ${commit ? `\`${commit.slice(0, 70)}\`` : 'another build'}, counted in the same run from the same states.\n`,
      );
      say(`| command | instructions | × node -e '' | baseline | × node -e '' | this ÷ baseline |\n|---|---|---|---|---|---|`);
      say(`| node -e '' | ${M(bareI)} | 1.00 | | | |`);
    } else {
      say(`| command | instructions | × node -e '' |\n|---|---|---|`);
      say(`| node -e '' | ${M(bareI)} | 1.00 |`);
    }
    for (const [h, stdin] of hooks) {
      // The state each hook finds is kept aside, so every count (and the baseline's) starts from it.
      const snapshot = join(root, `before-${h}`);
      cpSync(join(proj, '.claude'), snapshot, { recursive: true });
      const n = medianCount([join(DIST, `${h}.cjs`)], stdin, snapshot);
      if (!BASELINE) {
        say(`| ${h} | ${M(n)} | ${(n / bareI).toFixed(2)} |`);
        continue;
      }
      const b = medianCount([join(BASELINE, `${h}.cjs`)], stdin, snapshot);
      say(`| ${h} | ${M(n)} | ${(n / bareI).toFixed(2)} | ${M(b)} | ${(b / bareI).toFixed(2)} | ${(n / b).toFixed(2)} |`);
    }
  }

  // 2. Search: the index over 10,000 and 100,000 archive logs, MiniSearch on the same corpora, prompt-time recall.
  await benchSearch(root, REPO, env, (args, cwd) => timeRun(args, '', cwd, env).ms, say);

  // 3. A 50 MB transcript, streamed by SessionEnd from offset 0.
  const huge = join(root, 'huge.jsonl');
  writeTranscript(huge, 50 * 1024 * 1024, 'huge-session', proj);
  const endIn = JSON.stringify({
    session_id: 'huge-session',
    transcript_path: huge,
    cwd: proj,
    hook_event_name: 'SessionEnd',
    reason: 'other',
  });
  // Lift SessionEnd's 1.5 s budget for this one measurement, so the whole read is timed.
  const r50 = timeRun(withRss(join(DIST, 'session-end.cjs')), endIn, proj, { ...env, CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '60000' });
  const rBare = timeRun(
    withRss(join(DIST, 'session-end.cjs')),
    JSON.stringify({ session_id: 'small', transcript_path: join(root, 'none.jsonl'), cwd: proj, hook_event_name: 'SessionEnd' }),
    proj,
    env,
  );
  say(`\n## A 50 MB transcript\n`);
  say(
    `SessionEnd reading a fresh 50 MB transcript from byte 0 (the worst case; normally Stop has read all but the tail): ${r50.ms.toFixed(0)} ms, peak RSS ${(r50.rssKb / 1024).toFixed(0)} MB, against ${(rBare.rssKb / 1024).toFixed(0)} MB for the same hook with no transcript — the file is streamed, not held.`,
  );
  say(
    `\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}. This run took ${((Date.now() - benchStarted) / 60_000).toFixed(1)} minutes.`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}

const intro = [
  '# Benchmarks',
  '',
  `Produced by \`${BASELINE ? 'npm run bench -- --baseline <a checkout of the baseline commit>/dist' : 'npm run bench'}\` (\`tsx scripts/bench.ts\`) on ${new Date().toISOString().slice(0, 10)}, with a clean environment (PATH and HOME only).`,
  'Wall times come from a shared, noisy machine: compare the ratios within one run, not across runs. The instruction counts',
  "(valgrind) hardly depend on the machine's load and are the better guide to the hooks' cost against the target of",
  "1.3 × a bare `node -e ''` start; they still move by about ±3% from count to count (V8's garbage collector and hash",
  'seeds), so each is a median, and a difference within that band is no difference.',
  '',
].join('\n');
// The hand-off grading section is written by hand from `npm run grade`: it is kept as it is.
const file = join(REPO, 'BENCHMARKS.md');
const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
const kept = previous.indexOf('\n## Hand-off grading');
writeFileSync(file, `${intro}\n${lines.join('\n')}\n${kept >= 0 ? previous.slice(kept) : ''}`);
