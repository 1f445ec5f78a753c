// What a user feels: how much slower a whole `claude` run is with the plugin
// than without it. The real Claude Code CLI from node_modules runs offline
// against the test suite's scripted Messages API, on a project with a typical
// store, alternating runs with and without `--plugin-dir`, so noise on this
// shared machine hits both alike. Each scenario reports the median wall time of
// each side (min–max), their ratio and the milliseconds the plugin adds.
//
// Used by scripts/bench.ts; `tsx scripts/bench-e2e.ts` runs it alone (BENCH_E2E_RUNS, default 11).
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeClaudeHome, makeTempDir, runClaude } from '../test/e2e/claude-harness.ts';
import { startFakeAnthropic } from '../test/e2e/fake-anthropic-server.ts';
import { defaultRules } from '../test/e2e/script-rules.ts';

export interface E2eScenario {
  name: string;
  /** The arguments after `claude` (the plugin's --plugin-dir is added on the "with" side). */
  args: (state: { sessionId: string | null }) => string[];
  /** Stream-json turns on stdin, each sent when the previous one is over. */
  turns?: string[];
}

export interface E2eResult {
  name: string;
  without: number[];
  with: number[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A store as the hooks leave it after some weeks: roles with entries, archive logs, usage, a hand-off. */
export type StoreMaker = (projectDir: string) => void;

export async function benchEndToEnd(repo: string, makeStore: StoreMaker, runs: number, say: (line: string) => void): Promise<E2eResult[]> {
  const server = await startFakeAnthropic({ rules: defaultRules() });
  const dirs: string[] = [];
  try {
    const results: E2eResult[] = [];
    const scenarios: E2eScenario[] = [
      { name: '`claude -p "<prompt>"`', args: () => ['-p', 'Summarise the payment retry code in two lines.'] },
      {
        name: '`claude -p … --resume <id>`',
        args: (s) => ['-p', 'And the refund path?', ...(s.sessionId ? ['--resume', s.sessionId] : [])],
      },
      {
        name: 'a 3-turn session (`-p --input-format stream-json`)',
        args: () => ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'],
        turns: ['Look at the payment retry code.', 'Now the refund path.', 'Thanks, that is all.'],
      },
    ];
    for (const scenario of scenarios) {
      const result: E2eResult = { name: scenario.name, without: [], with: [] };
      // Each side keeps its own project and HOME, so a resumed session exists on its side only.
      const side = async (withPlugin: boolean) => {
        const home = await makeClaudeHome();
        const project = realpathSync(await makeTempDir(withPlugin ? 'bench-with' : 'bench-without'));
        dirs.push(home, project);
        mkdirSync(join(project, '.git'), { recursive: true });
        writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
        makeStore(project);
        return { home, project, sessionId: null as string | null };
      };
      const sides = { without: await side(false), with: await side(true) };
      const once = async (which: 'with' | 'without', record: boolean) => {
        const s = sides[which];
        const args = [...scenario.args(s), ...(which === 'with' ? ['--plugin-dir', repo] : [])];
        const output = scenario.turns ? [] : ['--output-format', 'json'];
        const started = process.hrtime.bigint();
        const run = await runClaude({
          args: [...args, ...output],
          cwd: s.project,
          home: s.home,
          server,
          pacedTurns: scenario.turns,
          timeoutMs: 120_000,
        });
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (run.code !== 0) throw new Error(`claude ${args.join(' ')} exited ${run.code}: ${run.stderr.slice(0, 400)}`);
        const id = /"session_id":"([0-9a-f-]{36})"/.exec(run.stdout)?.[1];
        if (id && s.sessionId === null) s.sessionId = id;
        if (record) result[which].push(ms);
      };
      // A warm-up run on each side: the first start of a fresh HOME pays one-time set-up either way.
      await once('without', false);
      await once('with', false);
      for (let i = 0; i < runs; i++) {
        // Alternate which side goes first, so drift in the machine's load favours neither.
        const order: Array<'with' | 'without'> = i % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
        for (const which of order) await once(which, true);
      }
      results.push(result);
    }
    say(`| scenario | without the plugin, ms | with it, ms | ratio | added ms |\n|---|---|---|---|---|`);
    const range = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
    for (const r of results) {
      const a = median(r.without);
      const b = median(r.with);
      say(`| ${r.name} | ${range(r.without)} | ${range(r.with)} | ${(b / a).toFixed(2)} | ${(b - a).toFixed(0)} |`);
    }
    return results;
  } finally {
    await server.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

// Alone: `tsx scripts/bench-e2e.ts` on a small store.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { fileURLToPath } = await import('node:url');
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const { typicalStore } = await import('./bench-store.ts');
  await benchEndToEnd(repo, typicalStore, Number(process.env.BENCH_E2E_RUNS ?? 11), console.log);
}
