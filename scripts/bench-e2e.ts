// What a user feels: how much slower a whole `claude` run is with the plugin
// than without it. The real Claude Code CLI from node_modules runs offline
// against the test suite's scripted Messages API, on a project with a typical
// store, cycling through the sides run by run (their order turning each
// round), so noise on this shared machine hits all alike. Besides the plugin
// itself, two variants show where the floor is: the same plugin with every hook
// command replaced by a bare `node -e ''` (what any hook costs, doing
// nothing), and that again with Stop and SubagentStop marked `async: true`.
//
// Used by scripts/bench.ts; `tsx scripts/bench-e2e.ts` runs it alone (BENCH_E2E_RUNS, default 11).
import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeClaudeHome, makeTempDir, runClaude } from '../test/e2e/claude-harness.ts';
import { startFakeAnthropic } from '../test/e2e/fake-anthropic-server.ts';
import { defaultRules } from '../test/e2e/script-rules.ts';
import { waitForWorkers } from '../test/helpers/run-bundle.ts';

interface Scenario {
  name: string;
  args: (state: { sessionId: string | null }) => string[];
  /** Stream-json turns on stdin, each sent when the previous one is over. */
  turns?: string[];
}

interface Side {
  name: string;
  /** The plugin folder given to --plugin-dir, or null for none. */
  plugin: string | null;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

/** A store as the hooks leave it after some weeks: roles with entries, archive logs, usage, a hand-off. */
export type StoreMaker = (projectDir: string) => void;

/** A copy of the plugin whose hook commands are a bare node start; `async` marks those hooks `async: true`. */
function barePlugin(repo: string, into: string, asyncHooks: string[] = []): string {
  mkdirSync(into, { recursive: true });
  for (const part of ['.claude-plugin', 'commands', 'agents', 'skills', 'bin', 'dist'])
    cpSync(join(repo, part), join(into, part), { recursive: true });
  const hooks = JSON.parse(readFileSync(join(repo, 'hooks', 'hooks.json'), 'utf8')) as {
    hooks: Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
  };
  for (const [event, groups] of Object.entries(hooks.hooks)) {
    for (const g of groups) {
      for (const h of g.hooks) {
        h.command = `node -e ""`;
        if (asyncHooks.includes(event)) h.async = true;
      }
    }
  }
  mkdirSync(join(into, 'hooks'), { recursive: true });
  writeFileSync(join(into, 'hooks', 'hooks.json'), JSON.stringify(hooks, null, 2));
  return into;
}

export async function benchEndToEnd(repo: string, makeStore: StoreMaker, runs: number, say: (line: string) => void): Promise<void> {
  const server = await startFakeAnthropic({ rules: defaultRules() });
  const dirs: string[] = [];
  try {
    const work = realpathSync(await makeTempDir('bench-plugins'));
    dirs.push(work);
    const sides: Side[] = [
      { name: 'without the plugin', plugin: null },
      { name: 'with the plugin', plugin: repo },
      { name: "its hooks as bare `node -e ''`", plugin: barePlugin(repo, join(work, 'bare')) },
      { name: 'bare, Stop and SubagentStop `async: true`', plugin: barePlugin(repo, join(work, 'bare-async'), ['Stop', 'SubagentStop']) },
    ];
    const scenarios: Scenario[] = [
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
    const table: string[][] = [];
    for (const scenario of scenarios) {
      // Each side keeps its own project and HOME, so a resumed session exists on its side only.
      const state = await Promise.all(
        sides.map(async (side, i) => {
          const home = await makeClaudeHome();
          const project = realpathSync(await makeTempDir(`bench-side-${i}`));
          dirs.push(home, project);
          mkdirSync(join(project, '.git'), { recursive: true });
          writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
          makeStore(project);
          return { side, home, project, sessionId: null as string | null, ms: [] as number[] };
        }),
      );
      const once = async (s: (typeof state)[number], record: boolean) => {
        const args = [...scenario.args(s), ...(s.side.plugin ? ['--plugin-dir', s.side.plugin] : [])];
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
        if (record) s.ms.push(ms);
      };
      // A warm-up run on each side: the first start of a fresh HOME pays one-time set-up either way.
      for (const s of state) await once(s, false);
      for (let i = 0; i < runs; i++) {
        // The order turns each round, so drift in the machine's load favours no side.
        for (let k = 0; k < state.length; k++) await once(state[(i + k) % state.length]!, true);
      }
      const base = median(state[0]!.ms);
      table.push([
        scenario.name,
        ...state.map((s, k) =>
          k === 0 ? range(s.ms) : `${range(s.ms)} · ${(median(s.ms) / base).toFixed(2)}× · +${(median(s.ms) - base).toFixed(0)}`,
        ),
      ]);
    }
    say(`| scenario | ${sides.map((s) => `${s.name}: ms${s.plugin ? ' · ratio · added ms' : ''}`).join(' | ')} |`);
    say(`|${'---|'.repeat(sides.length + 1)}`);
    for (const row of table) say(`| ${row.join(' | ')} |`);
  } finally {
    await server.close();
    for (const d of dirs) {
      // SessionEnd's background worker may still be writing the store when the last run exits.
      waitForWorkers(d);
      rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  }
}

// Alone: `tsx scripts/bench-e2e.ts` on a typical store.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { fileURLToPath } = await import('node:url');
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const { typicalStore } = await import('./bench-store.ts');
  await benchEndToEnd(repo, typicalStore, Number(process.env.BENCH_E2E_RUNS ?? 11), console.log);
}
