// Runs the real Claude Code CLI (node_modules/.bin/claude) offline against the
// scripted fake API in fake-anthropic-server.ts.
//
// FACTS VERIFIED ON @anthropic-ai/claude-code 2.1.330 (cli-facts.test.ts proves each)
//
// Environment. `claude -p` needs only HOME, ANTHROPIC_BASE_URL and any
// ANTHROPIC_API_KEY: no onboarding flag, no key approval in ~/.claude.json.
// With CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 the only request is
// POST /v1/messages?beta=true (stream: true); without it also HEAD /api/hello.
// No count_tokens, title or haiku side request was seen in -p. A run takes
// about 0.7 s. `--output-format json` prints one object with session_id,
// result, is_error, num_turns. `-p --input-format stream-json` with
// streamJsonTurns() on stdin runs several turns in one process: SessionStart
// and SessionEnd once, UserPromptSubmit and Stop per turn. As root,
// bypassPermissions exits 1 ("cannot be used with root/sudo privileges")
// unless IS_SANDBOX=1; runClaude does not pass the parent's IS_SANDBOX on.
//
// Hook stdin (every event): session_id, transcript_path
// (HOME/.claude/projects/<cwd with non-alphanumerics as '-'>/<session_id>.jsonl),
// cwd, hook_event_name; hooks run with cwd = project, CLAUDE_PLUGIN_ROOT and
// CLAUDE_PROJECT_DIR set, and inherit Claude Code's environment. Extra fields:
//   SessionStart  source: startup | resume | compact (resume adds
//                 seconds_since_last_response, context_tokens…; compact adds model)
//   UserPromptSubmit  prompt, prompt_id, permission_mode; additionalContext
//                 joins the request's role:"system" message as
//                 "UserPromptSubmit hook additional context: <text>" (not the
//                 subagents' requests)
//   SubagentStart agent_id, agent_type (a project agent's name, e.g.
//                 "ward-sentinel"; plugin agents "<plugin>:<name>"), prompt_id;
//                 fires before the subagent's first request, whose role:"system"
//                 message starts "SubagentStart hook additional context: <text>"
//                 (the parent's requests never hold it)
//   Stop          stop_hook_active (false), last_assistant_message,
//                 permission_mode, effort, background_tasks, session_crons
//   SubagentStop  agent_id, agent_type, agent_transcript_path
//                 (<transcript without .jsonl>/subagents/agent-<agent_id>.jsonl),
//                 stop_hook_active, last_assistant_message
//   PreCompact    trigger: manual, custom_instructions: null
//   SessionEnd    reason: "other" for a -p run. Budget (measured once, not
//                 under test): ~1.5 s in all, whatever the hook's own timeout;
//                 a hook still running then is cancelled ("Hook cancelled" on
//                 stderr). CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS raises it.
// Order for `-p "hi"`: SessionStart, UserPromptSubmit, Stop, SessionEnd.
// Order for `-p "/compact" --resume <id>`: SessionStart(resume), PreCompact,
// SubagentStop (agent_type "" — the summariser is an internal subagent),
// SessionStart(compact), SessionEnd; no UserPromptSubmit or Stop; same session id.
// The Agent tool (named Agent, not Task; run_in_background:false to wait)
// fires SubagentStart, then SubagentStop(agent_type "general-purpose") before
// the parent's Stop; both carry the same agent_id.
//
// additionalContext from SessionStart is NOT in the top-level `system` field:
// it is the start of a `role: "system"` message right after the first user
// message, as "SessionStart hook additional context: <text>" (several hooks or
// sources give several such paragraphs). After /compact the next request holds
// the summary ("This session is being continued from a previous
// conversation…") and the compact and resume contexts. Subagent requests do
// not get SessionStart context.
//
// Plugin: `/probe:hello a b` sends the command body with inline !`…` output
// (CLAUDE_PLUGIN_ROOT expanded) and $ARGUMENTS replaced. bin/ is APPENDED to
// the Bash tool's PATH. In -p a Bash command needs an allow rule such as
// --allowedTools 'Bash(probe-bin:*)', else the tool result is an error
// ("… requires approval" / "… needs approval"). Write to <project>/.claude/…
// is refused ("Claude requested permissions to edit <path> which is a
// sensitive file.") in default and acceptEdits mode even with Write allowed;
// it works in bypassPermissions. `claude plugin validate [--json] <dir>` exits
// 0 on the probe plugin (README/LICENSE/author only warned) and 1 on a bad name.

import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeAnthropic, MessagesCall, RecordedRequest } from './fake-anthropic-server.ts';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');

export interface RunClaudeOptions {
  args: string[];
  cwd: string;
  /** A HOME made by makeClaudeHome(); Claude Code keeps config, sessions and transcripts there. */
  home: string;
  server: FakeAnthropic;
  /** Extra environment; a value of undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /** Hard limit; the whole process group is killed after it. Default 60 s. */
  timeoutMs?: number;
  /** Written to stdin then closed; without it stdin is /dev/null. */
  stdin?: string;
  /**
   * Stream-json user turns, written one at a time: the next only after the
   * previous turn's `result` line, then stdin is closed. (A turn written while
   * another is still running is folded into it, so `stdin` with
   * streamJsonTurns() gives separate turns only when no turn uses a tool.)
   * Needs `-p --input-format stream-json --output-format stream-json --verbose`.
   */
  pacedTurns?: string[];
}

export interface ClaudeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Requests the fake server received while this run was alive. */
  requests: RecordedRequest[];
  /** The /v1/messages requests among them. */
  calls: MessagesCall[];
}

/** Variables copied from the parent; everything else starts clean so runs are reproducible. */
const inheritedEnv = ['PATH', 'LANG', 'LC_ALL', 'SHELL', 'TZ'];

/** Any value works for -p; the fake server ignores it. */
export const fakeApiKey = 'sk-ant-api03-fake-e2e-key-0000000000';

/** What keeps the CLI offline, quiet and non-interactive. */
export function offlineEnv(home: string, server: FakeAnthropic): Record<string, string> {
  return {
    HOME: home,
    // Claude Code keeps per-project scratch dirs in $TMPDIR/claude-<uid>/;
    // inside HOME they go away with it.
    TMPDIR: join(home, 'tmp'),
    CLAUDE_CODE_TMPDIR: join(home, 'tmp'),
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: fakeApiKey,
    CI: 'true',
    TERM: 'dumb',
    NO_COLOR: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_UPDATES: '1',
    DISABLE_GROWTHBOOK: '1',
    DISABLE_INSTALLATION_CHECKS: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
  };
}

export function runClaude(options: RunClaudeOptions): Promise<ClaudeRun> {
  // Only a hang trips it: a loaded machine is slow, not wrong.
  const timeoutMs = options.timeoutMs ?? 300_000;
  const env: Record<string, string> = {};
  for (const name of inheritedEnv) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, offlineEnv(options.home, options.server));
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }

  mkdirSync(join(options.home, 'tmp'), { recursive: true });
  const firstRequest = options.server.requests.length;
  const paced = options.pacedTurns ?? [];
  const child = spawn(claudeBin, options.args, {
    cwd: options.cwd,
    env,
    // Own process group, so a timeout can kill hooks and shells Claude Code started too.
    detached: true,
    stdio: [options.stdin === undefined && paced.length === 0 ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  let turnsSent = 0;
  const sendNextTurn = (): void => {
    const text = paced[turnsSent++];
    if (text === undefined) return;
    child.stdin?.write(streamJsonTurns([text]));
    if (turnsSent === paced.length) child.stdin?.end();
  };
  // EPIPE after claude exits early must not crash the test process.
  child.stdin?.on('error', () => undefined);
  if (paced.length > 0) sendNextTurn();

  let stdout = '';
  let stderr = '';
  let pending = '';
  child.stdout?.setEncoding('utf8').on('data', (s: string) => {
    stdout += s;
    if (paced.length === 0) return;
    pending += s;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (isResultLine(line)) sendNextTurn();
  });
  child.stderr?.setEncoding('utf8').on('data', (s: string) => (stderr += s));

  return new Promise((resolvePromise, reject) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child.pid);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Stragglers in claude's group must not outlive the run.
      killTree(child.pid);
      const requests = options.server.requests.slice(firstRequest);
      resolvePromise({
        code,
        signal,
        timedOut,
        stdout,
        stderr,
        requests,
        calls: requests.flatMap((r) => (r.call ? [r.call] : [])),
      });
    });
  });
}

/**
 * Kills claude's process group and every descendant. The group alone is not
 * enough: the Bash tool starts its shells in process groups of their own.
 * Descendants are found before anything is killed, because orphans are
 * re-parented and can no longer be traced to claude.
 */
function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  const victims = [pid, ...descendantsOf(pid)];
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Group already gone.
  }
  for (const victim of victims) {
    try {
      process.kill(victim, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Linux /proc walk; elsewhere returns [] and only the group is killed. */
function descendantsOf(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state, ppid, …
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The result object printed by `--output-format json`. */
export interface JsonResult {
  type: string;
  subtype?: string;
  is_error?: boolean;
  result?: string;
  session_id: string;
  [key: string]: unknown;
}

export function parseJsonResult(stdout: string): JsonResult {
  const text = stdout.trim();
  const parsed: unknown = JSON.parse(text.slice(text.indexOf('{')));
  return parsed as JsonResult;
}

/**
 * stdin for `-p --input-format stream-json`: several user turns in one
 * session and one process (SessionStart and SessionEnd once, Stop per turn).
 */
export function streamJsonTurns(prompts: string[]): string {
  return prompts.map((text) => `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`).join('');
}

/** True for the `type: "result"` line that ends a stream-json turn (its keys come in no fixed order). */
function isResultLine(line: string): boolean {
  if (!line.includes('"result"')) return false;
  try {
    return (JSON.parse(line) as { type?: unknown }).type === 'result';
  } catch {
    return false;
  }
}

/** Lines of `--output-format stream-json --verbose`. */
export function parseStreamJson(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `rune-e2e-${prefix}-`));
}

/**
 * A fresh HOME with the config a first start would otherwise ask about.
 * `-p` needs none of it (measured), but it keeps interactive runs from
 * stopping at onboarding or trust dialogs.
 */
export async function makeClaudeHome(options: { trustDirs?: string[] } = {}): Promise<string> {
  const home = await makeTempDir('home');
  const projects: Record<string, unknown> = {};
  for (const dir of options.trustDirs ?? []) {
    projects[dir] = { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true, allowedTools: [] };
  }
  const config = {
    hasCompletedOnboarding: true,
    numStartups: 1,
    autoUpdates: false,
    // Interactive runs ask once whether to use an env API key; the answer is
    // stored under the key's last 20 characters.
    customApiKeyResponses: { approved: [fakeApiKey.slice(-20)], rejected: [] },
    projects,
  };
  await writeFile(join(home, '.claude.json'), JSON.stringify(config, null, 2));
  await mkdir(join(home, '.claude'), { recursive: true });
  return home;
}

/** Writes files given as relative path → content under root, creating folders. */
export async function writeTree(root: string, files: Record<string, string>, mode?: number): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(root, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, mode === undefined ? undefined : { mode });
  }
}

/** Reads a JSON-lines file; missing file → []. */
export async function readJsonLines(path: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

export async function removeDirs(...dirs: string[]): Promise<void> {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}
