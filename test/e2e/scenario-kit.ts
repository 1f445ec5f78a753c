// Helpers for the end-to-end scenarios: run the real `claude` with this
// repository as a plugin on a throw-away project, look at what the hooks left
// in .claude/echoes/, and watch the store from inside a running session (the
// fake model's rules run in the test process, so a rule can read files while
// claude is mid-turn, after SessionStart and before Stop).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, realpath } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { after, before } from 'node:test';
import { HOOKS } from '../../src/hooks/hook-registry.ts';
import { waitForWorkersAsync } from '../helpers/run-bundle.ts';
import {
  type ClaudeRun,
  type JsonResult,
  makeClaudeHome,
  makeTempDir,
  parseJsonResult,
  removeDirs,
  repoRoot,
  runClaude,
  writeTree,
} from './claude-harness.ts';
import { type FakeAnthropic, type ScriptRule, startFakeAnthropic } from './fake-anthropic-server.ts';
import type { MessagesCall } from './messages-call.ts';
import { defaultRules } from './script-rules.ts';

export const hookBundles = HOOKS.map((h) => h.name);

/**
 * The hooks run from dist/. A missing bundle would make every scenario fail
 * for a reason that has nothing to do with the behaviour under test, so build
 * once when one is missing (an existing build is used as it is).
 */
export function ensureBundles(root: string = repoRoot): void {
  const missing = [...hookBundles.map((h) => `${h}.cjs`), 'cli.mjs'].filter((name) => !existsSync(join(root, 'dist', name)));
  if (missing.length === 0) return;
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'build.ts')], { cwd: root, stdio: 'inherit' });
}

/** What a scenario file shares: one scripted API server and one Claude home, and its projects. */
export interface ScenarioSuite {
  readonly server: FakeAnthropic;
  readonly home: string;
  /** A new throw-away project, removed with the suite. */
  project(name: string): Promise<ScenarioProject>;
  /** Runs claude with the plugin and insists that it exited 0 in time. */
  rune(project: ScenarioProject, args: string[], extra?: Partial<Pick<RuneRunOptions, 'env' | 'turns'>>): Promise<RuneRun>;
}

/** Registers the file's before/after: the server and home are made once, closed and removed at the end. */
export function scenarioSuite(): ScenarioSuite {
  let server: FakeAnthropic | null = null;
  let home = '';
  const projects: ScenarioProject[] = [];
  before(async () => {
    ensureBundles();
    server = await startFakeAnthropic({ rules: defaultRules() });
    home = await makeClaudeHome();
  });
  after(async () => {
    await server?.close();
    await removeDirs(home, ...projects.map((p) => p.dir));
  });
  const live = (): FakeAnthropic => {
    if (!server) throw new Error('the scenario server starts in before()');
    return server;
  };
  return {
    get server() {
      return live();
    },
    get home() {
      return home;
    },
    async project(name) {
      const project = await makeScenarioProject(name);
      projects.push(project);
      return project;
    },
    async rune(project, args, extra = {}) {
      const run = await runRune({ project, home, server: live(), args, ...extra });
      assert.equal(run.timedOut, false, `claude timed out: ${describeRun(run)}`);
      assert.equal(run.code, 0, `claude ${args.join(' ').slice(0, 80)} failed: ${describeRun(run)}`);
      return run;
    },
  };
}

export interface ScenarioProject {
  /** Real path of the project root (Claude Code reports resolved paths). */
  dir: string;
  /** <dir>/.claude/echoes */
  echoes: string;
  /** Absolute path of a file relative to the project root. */
  path(rel: string): string;
  /** Text of a project file, or null when it does not exist. */
  read(rel: string): string | null;
  /** Bytes of a project file, or null when it does not exist. */
  bytes(rel: string): Buffer | null;
  write(files: Record<string, string>): Promise<void>;
}

export async function makeScenarioProject(name: string): Promise<ScenarioProject> {
  const dir = await realpath(await makeTempDir(name));
  const path = (rel: string) => join(dir, rel);
  return {
    dir,
    echoes: path('.claude/echoes'),
    path,
    read: (rel) => (existsSync(path(rel)) ? readFileSync(path(rel), 'utf8') : null),
    bytes: (rel) => (existsSync(path(rel)) ? readFileSync(path(rel)) : null),
    write: (files) => writeTree(dir, files),
  };
}

export interface RuneRunOptions {
  project: ScenarioProject;
  home: string;
  server: FakeAnthropic;
  /** Arguments after `claude`; --plugin-dir and --output-format are added. */
  args: string[];
  env?: Record<string, string | undefined>;
  /** Stream-json turns on stdin, each sent when the previous one is over (one process, several turns). */
  turns?: string[];
  /** Load this repository with --plugin-dir (default) or rely on an installed copy. */
  pluginDir?: string | null;
  timeoutMs?: number;
}

export interface RuneRun extends ClaudeRun {
  /** The `--output-format json` result (single-turn runs only). */
  result: JsonResult | null;
}

/** Runs claude on the project with the plugin; exits-0 and timeouts are the caller's to check. */
export async function runRune(options: RuneRunOptions): Promise<RuneRun> {
  const plugin = options.pluginDir === undefined ? repoRoot : options.pluginDir;
  const pluginArgs = plugin === null ? [] : ['--plugin-dir', plugin];
  const streaming = options.turns !== undefined;
  const output = streaming ? ['--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'] : ['--output-format', 'json'];
  const run = await runClaude({
    args: [...(streaming ? ['-p'] : []), ...options.args, ...pluginArgs, ...output],
    cwd: options.project.dir,
    home: options.home,
    server: options.server,
    env: options.env,
    pacedTurns: options.turns,
    timeoutMs: options.timeoutMs ?? 300_000,
  });
  let result: JsonResult | null = null;
  if (!streaming) {
    try {
      result = parseJsonResult(run.stdout);
    } catch {
      result = null;
    }
  }
  // Hooks leave their slow work to background workers (a session's end, a checkpoint): a test
  // looks at the store once they are done, as the next session would.
  await waitForWorkersAsync(options.project.dir);
  return { ...run, result };
}

/** One line for assertion messages: how a run ended and what it printed on stderr. */
export function describeRun(run: ClaudeRun): string {
  return `exit ${String(run.code)}${run.timedOut ? ' (timed out)' : ''}; stderr: ${run.stderr.trim().slice(0, 600) || '(empty)'}`;
}

/** Every file under dir (dot folders included), as paths relative to dir, sorted. */
export function walkFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const visit = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) visit(full);
      else found.push(relative(dir, full));
    }
  };
  visit(dir);
  return found.sort();
}

/** Lines of .claude/echoes/.log (the plugin's one-line-per-problem error log). */
export function errorLogLines(project: ScenarioProject): string[] {
  return (project.read('.claude/echoes/.log') ?? '').split('\n').filter((line) => line.trim() !== '');
}

/**
 * A rule that never answers: it lets the test look at each request (and at the
 * files on disk at that moment) and passes to the next rule.
 */
export function observe(look: (call: MessagesCall) => void): ScriptRule {
  return (call) => {
    look(call);
    return undefined;
  };
}

/** The `<rune-echoes …>…</rune-echoes>` blocks in a request, in order. */
export function runeEchoesBlocks(text: string): string[] {
  return [...text.matchAll(/<rune-echoes\b[^>]*>[\s\S]*?<\/rune-echoes>/g)].map((m) => m[0]);
}

/** Path of a session's transcript under a HOME made by makeClaudeHome(). */
export function transcriptPath(home: string, project: ScenarioProject, sessionId: string): string {
  return join(home, '.claude', 'projects', project.dir.replace(/[^A-Za-z0-9]/g, '-'), `${sessionId}.jsonl`);
}

/** The session id of a stream-json run (from its result lines). */
export function streamSessionId(run: ClaudeRun): string {
  for (const line of run.stdout.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    const parsed = JSON.parse(line) as { session_id?: unknown };
    if (typeof parsed.session_id === 'string') return parsed.session_id;
  }
  return '';
}

/** The result texts of a stream-json run, one per turn. */
export function streamResults(run: ClaudeRun): string[] {
  return run.stdout
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as { type?: string; result?: unknown })
    .filter((line) => line.type === 'result')
    .map((line) => String(line.result ?? ''));
}

/**
 * A `node` on PATH that logs its arguments before running the real node. Hook
 * commands are `node "${CLAUDE_PLUGIN_ROOT}/dist/<hook>.cjs"`, so the log shows
 * which copy of the plugin each hook ran from. Set NODE_SHIM_LOG in the run's env.
 */
export async function writeNodeShim(dir: string): Promise<string> {
  const script = `#!/bin/sh
printf '%s\\n' "$*" >> "$NODE_SHIM_LOG"
exec "${process.execPath}" "$@"
`;
  await writeTree(dir, { node: script });
  await chmod(join(dir, 'node'), 0o755);
  return dir;
}
