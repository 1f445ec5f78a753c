// What the plugin costs per tool call of the main agent: one `claude -p`
// session that makes 30 Bash and 10 Edit calls (and one Read, so Edit may
// run), with and without the plugin, against a one-prompt session without
// tools, with and without it. The real Claude Code CLI from node_modules runs
// offline against the test suite's scripted Messages API on a project with a
// typical store; the four kinds of run take turns, their order turning each
// round, so the machine's load hits all alike. What the plugin adds to the
// tool-heavy session beyond what it adds to the session without tools, over
// 40 calls, is its cost per tool call.
//
// Part of `npm run bench` (`--only tools`); on its own, `npm run bench:tools`
// prints the section and puts it in BENCHMARKS.md in place of the previous one
// (BENCH_TOOLS_RUNS, default 7).
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeClaudeHome, makeTempDir, runClaude } from '../test/e2e/claude-harness.ts';
import { collectToolResults, startFakeAnthropic } from '../test/e2e/fake-anthropic-server.ts';
import { defaultRules } from '../test/e2e/script-rules.ts';
import { waitForWorkers } from '../test/helpers/run-bundle.ts';
import type { StoreMaker } from './bench-e2e.ts';

const START = '<!-- tools-benchmark:start -->';
const END = '<!-- tools-benchmark:end -->';

const BASH_CALLS = 30;
/** Of those, commands that fail (one in ten): each starts the plugin's PostToolUseFailure hook. */
const FAILING_CALLS = 3;
const EDIT_CALLS = 10;
const TOOL_CALLS = BASH_CALLS + EDIT_CALLS;
const TARGET = 'notes.txt';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

const label = (i: number) => String(i).padStart(2, '0');
const original = Array.from({ length: EDIT_CALLS }, (_, i) => `line ${label(i + 1)}`).join('\n');

/** The scripted session: a Read, then three Bash calls and one Edit, ten times. */
function toolScript(project: string): string {
  const file = join(project, TARGET);
  const steps = ['Tidy the notes and check the tree as you go.', `TOOL: Read ${JSON.stringify({ file_path: file })}`];
  for (let i = 1; i <= EDIT_CALLS; i++) {
    for (let k = 0; k < BASH_CALLS / EDIT_CALLS; k++)
      steps.push(k === 0 && i <= FAILING_CALLS ? `RUN: ls missing-${i}` : `RUN: echo step-${i}-${k}`);
    steps.push(`EDIT: ${file} :: line ${label(i)} => LINE ${label(i)}`);
  }
  return steps.join('\n');
}

interface Run {
  scenario: 'tools' | 'plain';
  plugin: boolean;
  home: string;
  project: string;
  ms: number[];
}

export async function benchTools(repo: string, makeStore: StoreMaker, runs: number, say: (s: string) => void): Promise<void> {
  const server = await startFakeAnthropic({ rules: defaultRules() });
  const dirs: string[] = [];
  try {
    const sides: Run[] = [];
    for (const scenario of ['tools', 'plain'] as const) {
      for (const plugin of [false, true]) {
        const home = await makeClaudeHome();
        const project = realpathSync(await makeTempDir(`bench-tools-${scenario}-${plugin ? 'rune' : 'bare'}`));
        dirs.push(home, project);
        mkdirSync(join(project, '.git'), { recursive: true });
        writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
        makeStore(project);
        sides.push({ scenario, plugin, home, project, ms: [] });
      }
    }
    const once = async (s: Run, record: boolean, env?: Record<string, string>): Promise<void> => {
      writeFileSync(join(s.project, TARGET), `${original}\n`);
      const prompt = s.scenario === 'tools' ? toolScript(s.project) : 'Summarise the payment retry code in two lines.';
      const args = [
        '-p',
        prompt,
        ...(s.scenario === 'tools' ? ['--allowedTools', 'Bash', 'Edit', 'Read'] : []),
        ...(s.plugin ? ['--plugin-dir', repo] : []),
        '--output-format',
        'json',
      ];
      const started = process.hrtime.bigint();
      const run = await runClaude({ args, cwd: s.project, home: s.home, server, env, timeoutMs: 300_000 });
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (run.code !== 0) throw new Error(`claude exited ${run.code}: ${run.stderr.slice(0, 400)}`);
      if (s.scenario === 'tools') {
        // A run whose calls failed otherwise would time something else: every call must have run (only the
        // scripted failures failing) and every edit landed.
        const results = collectToolResults(run.calls);
        const failed = results.filter((r) => r.isError);
        if (results.length !== TOOL_CALLS + 1 || failed.length !== FAILING_CALLS || failed.some((r) => !/missing-\d/.test(r.text)))
          throw new Error(`${results.length} tool results, ${failed.length} failed: ${failed[0]?.text.slice(0, 200) ?? ''}`);
        const text = readFileSync(join(s.project, TARGET), 'utf8');
        if (!text.includes(`LINE ${label(EDIT_CALLS)}`)) throw new Error(`the edits did not land: ${text.slice(0, 200)}`);
      }
      if (record) s.ms.push(ms);
    };
    // A warm-up run on each side: the first start of a fresh HOME pays one-time set-up either way.
    for (const s of sides) await once(s, false);
    for (let i = 0; i < runs; i++) {
      for (let k = 0; k < sides.length; k++) await once(sides[(i + k) % sides.length]!, true);
    }
    // Counted apart from the timed runs: a `node` first on PATH that notes each start of a hook bundle and, through
    // /usr/bin/time where there is one, its wall and CPU (user + system) time; CPU time hardly moves with the load.
    const shimDir = realpathSync(await makeTempDir('bench-tools-shim'));
    dirs.push(shimDir);
    const shimLog = join(shimDir, 'starts.log');
    const timeLog = join(shimDir, 'times.log');
    const timed = existsSync('/usr/bin/time') ? `/usr/bin/time -a -o "${timeLog}" -f "%e %U %S" ` : 'exec ';
    writeFileSync(join(shimDir, 'node'), `#!/bin/sh\nprintf '%s\\n' "$*" >> "${shimLog}"\n${timed}"${process.execPath}" "$@"\n`, {
      mode: 0o755,
    });
    const hookRun = async (s: Run): Promise<{ starts: number; wall: number; cpu: number }> => {
      writeFileSync(shimLog, '');
      writeFileSync(timeLog, '');
      await once(s, false, { PATH: `${shimDir}:${process.env.PATH ?? ''}` });
      const starts = readFileSync(shimLog, 'utf8')
        .split('\n')
        .filter((line) => line.includes('/dist/')).length;
      const times = readFileSync(timeLog, 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/).map(Number))
        .filter((t) => t.length === 3 && t.every(Number.isFinite));
      const sum = (k: number) => times.reduce((acc, t) => acc + t[k]!, 0) * 1000;
      return { starts, wall: sum(0), cpu: sum(1) + sum(2) };
    };
    const COUNTED = 5;
    const counted: Array<Array<{ starts: number; wall: number; cpu: number }>> = [[], []];
    for (let i = 0; i < COUNTED; i++) {
      counted[0]!.push(await hookRun(sides[1]!));
      counted[1]!.push(await hookRun(sides[3]!));
    }
    const summary = (xs: Array<{ starts: number; wall: number; cpu: number }>) => ({
      starts: median(xs.map((x) => x.starts)),
      wall: median(xs.map((x) => x.wall)),
      cpu: median(xs.map((x) => x.cpu)),
    });
    const hooksTools = summary(counted[0]!);
    const hooksPlain = summary(counted[1]!);
    const startsTools = hooksTools.starts;
    const startsPlain = hooksPlain.starts;
    const [toolsBare, toolsRune, plainBare, plainRune] = sides.map((s) => median(s.ms)) as [number, number, number, number];
    const addedTools = toolsRune - toolsBare;
    const addedPlain = plainRune - plainBare;
    const perCall = (addedTools - addedPlain) / TOOL_CALLS;
    say(START);
    say('## What each tool call costs: a tool-heavy session\n');
    say(
      `One \`claude -p\` session whose scripted model makes ${BASH_CALLS} Bash calls (${FAILING_CALLS} of them fail: \`ls\` of a missing file) and ${EDIT_CALLS} Edit calls (and one Read first, so Edit may run), and a one-prompt session without tools, each with and without the plugin; the real Claude Code CLI from node_modules against the test suite's scripted Messages API, on a project with a typical store. ${runs} runs of each after one warm-up, the four taking turns; median wall time (min–max) from start to exit.\n`,
    );
    say('| session | without the plugin: ms | with the plugin: ms | ratio | added ms | hook processes started · their wall · CPU ms |');
    say('|---|---|---|---|---|---|');
    say(
      `| ${TOOL_CALLS} tool calls | ${range(sides[0]!.ms)} | ${range(sides[1]!.ms)} | ${(toolsRune / toolsBare).toFixed(2)}× | +${addedTools.toFixed(0)} | ${startsTools} · ${hooksTools.wall.toFixed(0)} · ${hooksTools.cpu.toFixed(0)} |`,
    );
    say(
      `| one prompt, no tools | ${range(sides[2]!.ms)} | ${range(sides[3]!.ms)} | ${(plainRune / plainBare).toFixed(2)}× | +${addedPlain.toFixed(0)} | ${startsPlain} · ${hooksPlain.wall.toFixed(0)} · ${hooksPlain.cpu.toFixed(0)} |`,
    );
    const toolHooks = Object.keys(
      (JSON.parse(readFileSync(join(repo, 'hooks', 'hooks.json'), 'utf8')) as { hooks: Record<string, unknown> }).hooks,
    ).filter((event) => /ToolUse/.test(event));
    const failureOnly = toolHooks.length > 0 && toolHooks.every((event) => event === 'PostToolUseFailure');
    say(
      `\nAdded per tool call: (${addedTools.toFixed(0)} − ${addedPlain.toFixed(0)}) / ${TOOL_CALLS} = **${perCall.toFixed(1)} ms**; hook processes per tool call: (${startsTools} − ${startsPlain}) / ${TOOL_CALLS} = **${((startsTools - startsPlain) / TOOL_CALLS).toFixed(2)}**, their CPU time per tool call (${hooksTools.cpu.toFixed(0)} − ${hooksPlain.cpu.toFixed(0)}) / ${TOOL_CALLS} = **${((hooksTools.cpu - hooksPlain.cpu) / TOOL_CALLS).toFixed(1)} ms** (medians of ${COUNTED} more runs of each, through a \`node\` on PATH that notes each start of a hook bundle and times it with /usr/bin/time; CPU time is steadier than wall time on a loaded machine). ${
        toolHooks.length === 0
          ? "The plugin's hooks.json has no PreToolUse or PostToolUse hook, so Claude Code starts no process of the plugin's for a tool call of the main agent."
          : failureOnly
            ? `The plugin's only tool hook is PostToolUseFailure (Bash and PowerShell): Claude Code starts a process of the plugin's for a shell command that fails (${FAILING_CALLS} of the ${TOOL_CALLS} calls here), none for one that succeeds or for another tool.`
            : `The plugin's hooks.json has ${toolHooks.join(' and ')} hooks: Claude Code starts a process of the plugin's for each matching tool call.`
      }`,
    );
    say(END);
  } finally {
    await server.close();
    for (const d of dirs) {
      // SessionEnd's background worker may still be writing the store when the last run exits.
      waitForWorkers(d);
      rmSync(d, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  }
}

// `npm run bench:tools`: this section alone, written into BENCHMARKS.md in place of the old one.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const { typicalStore } = await import('./bench-store.ts');
  const lines: string[] = [];
  await benchTools(repo, typicalStore, Number(process.env.BENCH_TOOLS_RUNS ?? 7), (s) => {
    lines.push(s);
    console.log(s);
  });
  if (!process.argv.includes('--print')) {
    const file = join(repo, 'BENCHMARKS.md');
    const section = lines.join('\n');
    const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
    const at = old.indexOf(START);
    const end = old.indexOf(END);
    // First time: before the hand-written notes, which `npm run bench` keeps below what it measures.
    const notes = old.indexOf('\n## Notes');
    const next =
      at >= 0 && end > at
        ? `${old.slice(0, at)}${section}${old.slice(end + END.length)}`
        : notes >= 0
          ? `${old.slice(0, notes)}\n${section}\n${old.slice(notes)}`
          : `${old.trimEnd()}\n\n${section}\n`;
    writeFileSync(file, next);
  }
}
