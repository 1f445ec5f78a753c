// The one runner every hook entry uses: read the JSON on stdin, check it,
// build the context, note the run, run the handler, print protocol JSON, exit
// 0. Whatever happens, the session goes on: errors become one line in
// `.claude/echoes/.log`.
import { readFileSync, statSync, writeSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { EchoesConfig } from '../core/config/config-defaults.ts';
import { loadConfig } from '../store/config-file.ts';
import { type EchoPaths, echoPaths } from '../store/fs/echo-paths.ts';
import { CONFIG_WARNING, logLine } from '../store/fs/error-log.ts';
import { type Deadline, setLockTaker } from '../store/fs/role-lock.ts';
import { ensureStoreIgnored } from '../store/gitignore.ts';
import { markHookRun } from '../store/hook-runs.ts';
import { noteWorker, workerDone } from '../store/hook-workers.ts';
import { type HookSpec, hookSpec } from './hook-registry.ts';

/** The fields Claude Code sends on stdin that the hooks use; anything of another type is dropped. */
export interface HookInput {
  session_id?: string;
  transcript_path?: string;
  cwd?: string;
  hook_event_name?: string;
  source?: string;
  trigger?: string;
  reason?: string;
  stop_hook_active?: boolean;
  agent_id?: string;
  agent_type?: string;
  agent_transcript_path?: string;
  /** UserPromptSubmit: what the user typed, as typed. */
  prompt?: string;
  /** PostToolUseFailure: the tool that failed, the command it was given (shell tools) and what it printed. */
  tool_name?: string;
  tool_command?: string;
  error?: string;
}

const STRING_FIELDS = [
  'session_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'source',
  'trigger',
  'reason',
  'agent_id',
  'agent_type',
  'agent_transcript_path',
  'prompt',
  'tool_name',
  'error',
] as const;

/** The longest value kept per field: paths and ids are short; a prompt may be a pasted page, an error a long log. */
const MAX_FIELD = (key: string) => (key === 'prompt' || key === 'error' ? 1_000_000 : 4096);

/** Keeps the known fields that have the type they should; a hostile or newer input cannot crash a handler. */
const PATH_FIELDS = ['cwd', 'transcript_path', 'agent_transcript_path'] as const;

const isFolder = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

export function readHookInput(value: unknown): HookInput {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const v = value as Record<string, unknown>;
  const input: HookInput = {};
  for (const key of STRING_FIELDS) {
    const s = v[key];
    if (typeof s === 'string' && s.length > 0 && s.length <= MAX_FIELD(key) && !s.includes('\u0000')) input[key] = s;
  }
  // Paths are absolute, as Claude Code sends them; a relative one would be read against wherever the
  // hook happens to run. The project folder must exist: a made-up one would be created by the first write.
  for (const key of PATH_FIELDS) {
    const s = input[key];
    if (s !== undefined && !isAbsolute(s)) delete input[key];
  }
  if (input.cwd !== undefined && !isFolder(input.cwd)) delete input.cwd;
  if (typeof v.stop_hook_active === 'boolean') input.stop_hook_active = v.stop_hook_active;
  const tool = v.tool_input;
  if (typeof tool === 'object' && tool !== null && !Array.isArray(tool)) {
    const command = (tool as Record<string, unknown>).command;
    if (typeof command === 'string' && command.length > 0 && command.length <= 100_000 && !command.includes('\u0000'))
      input.tool_command = command;
  }
  return input;
}

export interface HookContext {
  spec: HookSpec;
  input: HookInput;
  project: string;
  config: EchoesConfig;
  paths: EchoPaths;
  now: Date;
  /** When the handler must be done (epoch ms): every lock wait on its path respects it. */
  deadline: Deadline;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
  /**
   * Hands the rest of this hook's work to a detached copy of the hook, so
   * Claude Code need not wait for it: true when it did (the handler then
   * returns at once), false when the work is to be done here (this is already
   * the worker, background work is off, or the copy could not be started).
   */
  later: () => Promise<boolean>;
}

export interface HookResult {
  /** Text Claude Code adds to the model's context (SessionStart). */
  additionalContext?: string;
}

// biome-ignore lint/suspicious/noConfusingVoidType: a handler that only acts returns nothing; one that answers returns a HookResult.
export type HookHandler = (ctx: HookContext) => Promise<HookResult | void> | HookResult | void;

/**
 * One step of a handler on its own: a step that throws is logged as one line
 * and the handler goes on with `fallback`, so a broken part of the store
 * (an unreadable transcript, a full disk) never costs the rest of the hook.
 */
export async function guarded<T>(ctx: Pick<HookContext, 'log'>, what: string, fn: () => T | Promise<T>, fallback: T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    ctx.log(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    return fallback;
  }
}

function parseWorkerInput(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '{}');
  } catch {
    return {};
  }
}

function readStdin(): unknown {
  let raw = '';
  try {
    raw = readFileSync(0, 'utf8');
  } catch {
    return {};
  }
  if (raw.trim() === '') return {};
  return JSON.parse(raw);
}

export function protocolOutput(eventName: string, result: HookResult | undefined): string {
  if (result?.additionalContext) {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: result.additionalContext } });
  }
  return JSON.stringify({ suppressOutput: true });
}

/** Lock waits give up in time to leave the hook a margin to answer. */
export function deadlineFor(spec: HookSpec, env: NodeJS.ProcessEnv, startedAt: number): Deadline {
  const budget = env.RUNE_ECHOES_WORKER === '1' ? WORKER_BUDGET_MS : spec.budgetMs(env);
  return startedAt + budget - Math.min(1000, budget / 4);
}

export interface ExecuteOptions {
  now?: Date;
  startedAt?: number;
  /** Starts a detached worker for this input and returns its pid, or null; absent, work is done in-process. */
  spawnWorker?: (rawInput: unknown) => Promise<number | null>;
  /** This run is such a worker: it notes itself done at the end. */
  worker?: boolean;
}

/** Runs one hook in-process (the bundle entry and the tests both come through here); returns the stdout line. */
export async function executeHook(
  spec: HookSpec,
  handler: HookHandler,
  rawInput: unknown,
  env: NodeJS.ProcessEnv,
  cwd: string,
  opts: ExecuteOptions = {},
): Promise<string> {
  // RUNE_ECHOES_DISABLE=1: the plugin does nothing in this run — nothing captured, handed on, injected or
  // written — except keep the arguments of a `/rune:echoes` command the user types (its CLI call needs them).
  const disabled = env.RUNE_ECHOES_DISABLE === '1';
  if (disabled && spec.event !== 'UserPromptSubmit') return protocolOutput(spec.event, undefined);
  const input = readHookInput(rawInput);
  const now = opts.now ?? new Date();
  const project = resolve(env.CLAUDE_PROJECT_DIR || input.cwd || cwd);
  // The root of a file system is nobody's project: no store is made there, and nothing is done.
  if (dirname(project) === project) return protocolOutput(spec.event, undefined);
  const { config, warnings, fresh } = await loadConfig(project);
  const paths = echoPaths(project, config, env.HOME || undefined);
  const log = (message: string) => logLine(paths.logFile, spec.name, message);
  const deadline = deadlineFor(spec, env, opts.startedAt ?? Date.now());
  // Named in the lock files this run takes: a command that waits for one says what it waits for.
  setLockTaker({ holder: opts.worker ? `the ${spec.name} hook's background worker` : `the ${spec.name} hook` });
  // Bookkeeping never costs the user what the hook is for (a read-only store, a full disk).
  try {
    if (!disabled) {
      ensureStoreIgnored(paths, config.versionControlled);
      markHookRun(paths, spec.name, now);
    }
  } catch (err) {
    log(`bookkeeping: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Once per change of the file, not by every hook: a warning repeated on every prompt is noise.
  if (fresh) for (const w of warnings) log(`${CONFIG_WARNING}${w}`);
  const later = async (): Promise<boolean> => {
    if (!opts.spawnWorker || env.RUNE_ECHOES_INLINE === '1') return false;
    const pid = await opts.spawnWorker(rawInput).catch(() => null);
    if (pid === null) return false;
    try {
      noteWorker(paths, spec.name, pid, input.session_id ?? '');
    } catch (err) {
      log(`background work: ${err instanceof Error ? err.message : String(err)}`);
    }
    return true;
  };
  try {
    const result = await handler({ spec, input, project, config, paths, now, deadline, env, log, later });
    return protocolOutput(spec.event, result ?? undefined);
  } finally {
    if (opts.worker) workerDone(paths, spec.name, process.pid);
  }
}

/** The log a hook writes before it knows its store; none when the project would be the root of a file system. */
function logPathFor(project: string): string | null {
  const dir = resolve(project);
  return dirname(dir) === dir ? null : resolve(dir, '.claude', 'echoes', '.log');
}

/** The environment variable that carries a worker's hook input (small JSON: the hooks that hand work on have no prompt). */
const WORKER_INPUT = 'RUNE_ECHOES_WORKER_INPUT';

/** How long a background worker may take: no Claude Code timeout applies to it. */
const WORKER_BUDGET_MS = 120_000;

/** Starts this same bundle again, detached, with the hook input in its environment. */
async function spawnWorker(rawInput: unknown): Promise<number | null> {
  const script = process.argv[1];
  if (!script) return null;
  const { spawn } = await import('node:child_process');
  const { claudeProcessId, CLAUDE_PID_ENV } = await import('../store/session/claude-process.ts');
  const child = spawn(process.execPath, [script], {
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
    cwd: process.cwd(),
    // The worker is no longer Claude Code's descendant: it is told which Claude Code it works for.
    env: { ...process.env, [WORKER_INPUT]: JSON.stringify(rawInput ?? {}), [CLAUDE_PID_ENV]: String(claudeProcessId()) },
  });
  child.on('error', () => undefined);
  child.unref();
  return child.pid ?? null;
}

/**
 * Writes straight to fd 1: touching process.stdout would build Node's stream
 * machinery, a noticeable share of a hook's start-up, for one short line.
 * A non-blocking pipe that is momentarily full is waited for, never dropped.
 */
function writeStdout(text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let done = 0; done < bytes.length; ) {
    try {
      done += writeSync(1, bytes, done, bytes.length - done);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      Atomics.wait(pause, 0, 0, 2);
    }
  }
}

/** Entry point of every hook bundle; the only place that touches process. */
export function runHook(name: string, handler: HookHandler): void {
  const startedAt = Date.now();
  const spec = hookSpec(name);
  const workerInput = process.env[WORKER_INPUT];
  const worker = workerInput !== undefined;
  const budgetMs = worker ? WORKER_BUDGET_MS : spec.budgetMs(process.env);
  const fallbackLog = logPathFor(process.env.CLAUDE_PROJECT_DIR || process.cwd());
  // Never outlive the hook's timeout: give up quietly before Claude Code kills us.
  const watchdog = setTimeout(() => {
    if (fallbackLog) logLine(fallbackLog, spec.name, `gave up after ${budgetMs} ms`);
    writeStdout(`${protocolOutput(spec.event, undefined)}\n`);
    process.exit(0);
  }, budgetMs);
  watchdog.unref();
  let input: HookInput = {};
  Promise.resolve()
    .then(() => {
      const raw = worker ? parseWorkerInput(workerInput) : readStdin();
      input = readHookInput(raw);
      // A worker's own budget, not Claude Code's: the deadline follows it.
      const env = worker ? { ...process.env, [WORKER_INPUT]: undefined, RUNE_ECHOES_WORKER: '1' } : process.env;
      return executeHook(spec, handler, raw, env, process.cwd(), worker ? { startedAt, worker } : { startedAt, spawnWorker });
    })
    .then(
      (out) => writeStdout(`${out}\n`),
      (err: unknown) => {
        const where = logPathFor(process.env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd());
        const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        if (where) logLine(where, spec.name, message);
        writeStdout(`${protocolOutput(spec.event, undefined)}\n`);
      },
    )
    .finally(() => {
      clearTimeout(watchdog);
      process.exitCode = 0;
    });
}
