// The one runner every hook entry uses: read the JSON on stdin, build the
// context, run the handler, print protocol JSON, exit 0. Whatever happens,
// the session goes on: errors become one line in `.claude/echoes/.log`.
import { readFileSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../store/config-file.ts';
import { echoPaths, type EchoPaths } from '../store/fs/echo-paths.ts';
import { logLine } from '../store/fs/error-log.ts';
import { ensureStoreIgnored } from '../store/gitignore.ts';
import { setLockDeadline } from '../store/fs/role-lock.ts';
import type { EchoesConfig } from '../core/config/config-defaults.ts';

/** The fields Claude Code sends on stdin that the hooks use. */
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
  agent_transcript_path?: string;
}

export interface HookContext {
  name: string;
  input: HookInput;
  project: string;
  config: EchoesConfig;
  paths: EchoPaths;
  now: Date;
  env: NodeJS.ProcessEnv;
  log: (message: string) => void;
}

export interface HookResult {
  /** SessionStart only: text Claude Code adds to the model's context. */
  additionalContext?: string;
}

export type HookHandler = (ctx: HookContext) => Promise<HookResult | void> | HookResult | void;

function readStdin(): HookInput {
  let raw = '';
  try {
    raw = readFileSync(0, 'utf8');
  } catch {
    return {};
  }
  if (raw.trim() === '') return {};
  const parsed: unknown = JSON.parse(raw);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as HookInput) : {};
}

export function protocolOutput(eventName: string, result: HookResult | void): string {
  if (result?.additionalContext) {
    return JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: result.additionalContext } });
  }
  return JSON.stringify({ suppressOutput: true });
}

export async function executeHook(name: string, eventName: string, handler: HookHandler, input: HookInput, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const project = resolve(env.CLAUDE_PROJECT_DIR || input.cwd || cwd);
  const { config, warnings } = await loadConfig(project);
  const paths = echoPaths(project, config, env.HOME || undefined);
  const log = (message: string) => logLine(paths.logFile, name, message);
  ensureStoreIgnored(paths, config.versionControlled);
  for (const w of warnings) log(w);
  const result = await handler({ name, input, project, config, paths, now: new Date(), env, log });
  return protocolOutput(eventName, result);
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
export function runHook(name: string, eventName: string, handler: HookHandler, budgetMs = 8000): void {
  // Lock waits give up in time to leave the hook a margin to answer.
  setLockDeadline(Date.now() + budgetMs - Math.min(1000, budgetMs / 4));
  const fallbackLog = resolve(process.env.CLAUDE_PROJECT_DIR || process.cwd(), '.claude', 'echoes', '.log');
  // Never outlive the hook's timeout: give up quietly before Claude Code kills us.
  const watchdog = setTimeout(() => {
    logLine(fallbackLog, name, `gave up after ${budgetMs} ms`);
    writeStdout(protocolOutput(eventName, undefined) + '\n');
    process.exit(0);
  }, budgetMs);
  watchdog.unref();
  let input: HookInput = {};
  Promise.resolve()
    .then(() => {
      input = readStdin();
      return executeHook(name, eventName, handler, input, process.env, process.cwd());
    })
    .then(
      (out) => writeStdout(out + '\n'),
      (err: unknown) => {
        const where = resolve(process.env.CLAUDE_PROJECT_DIR || input.cwd || process.cwd(), '.claude', 'echoes', '.log');
        const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        logLine(where, name, message);
        writeStdout(protocolOutput(eventName, undefined) + '\n');
      },
    )
    .finally(() => {
      clearTimeout(watchdog);
      process.exitCode = 0;
    });
}
